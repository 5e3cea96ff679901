// How far each VM's counters have been collected from a vCenter: the high-water marks.
//
// Stored one row per VM and interval (`vsphere_vm_mark`, schema 15): the newest mark of its
// counters, and each counter with how far behind that it is (0 for nearly all: a round asks a VM's
// counters together and moves them together). A round of 1,250 VMs writes 1,250 rows, not a row
// per counter (7,500), and a bench that moves every mark back moves `last_end_ns`.
#ifndef VRECON_SRC_STORE_VSPHERE_MARKS_H_
#define VRECON_SRC_STORE_VSPHERE_MARKS_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "src/core/time_util.h"
#include "src/store/database.h"
#include "src/store/store.h"

namespace vrecon {

// (moid, counter, interval_s) -> last stored sample end.
using MarkKey = std::tuple<std::string, std::string, int>;
StatusOr<std::map<MarkKey, TimeNs>> VsphereMarks(Store* store, const std::string& vcenter);
// Stores the marks of each VM and interval named in `marks`, which holds all of that VM's counters
// at that interval (a counter left out loses its mark). A VM whose stored marks reach further (its
// newest is later) keeps them: marks never move back.
Status SetVsphereMarks(Store* store, const std::string& vcenter, const std::map<MarkKey, TimeNs>& marks);
// The newest mark of any VM of the vCenter; nullopt when it has none.
StatusOr<std::optional<TimeNs>> NewestVsphereMark(Store* store, const std::string& vcenter);

// One VM's counters at one interval as `vsphere_vm_mark.counters` holds them: a line per counter,
// "<ns behind last_end_ns> <counter>", in counter order.
std::string EncodeVmMarks(const std::map<std::string, TimeNs>& counters, TimeNs last_end);
// Back to counter -> mark; nullopt when the text is damaged.
std::optional<std::map<std::string, TimeNs>> DecodeVmMarks(std::string_view text, TimeNs last_end);

// Schema migration 15's data step: the per-counter rows of `vsphere_mark` into `vsphere_vm_mark`,
// then `vsphere_mark` dropped.
Status PackVsphereMarks(Database* db);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_VSPHERE_MARKS_H_
