// The stored Ready-Time summaries that reports read (corr_ready), kept up to date a UTC day at a
// time (src/store/ready_tables.h, models/ready_digest.h): each update reads the samples of the
// days it is given, replaces those days' digests, and adjusts the VM's total by the difference,
// so its cost follows the days that changed, not the days kept. Each day's digest records how far
// its samples reach, so that an update whose new samples all end later reads only those.
#ifndef VRECON_SRC_ENGINE_READY_SUMMARIES_H_
#define VRECON_SRC_ENGINE_READY_SUMMARIES_H_

#include <map>
#include <optional>
#include <set>
#include <string>

#include "src/engine/vm_view.h"
#include "src/store/store.h"

namespace vrecon {

struct ReadySummaryUpdate {
  std::optional<std::string> vm;                 // glob or name; all VMs when unset
  std::optional<std::set<std::string>> vm_keys;  // only these VMs besides; unset: no limit
  std::optional<TimeNs> from;                    // the days from the one holding this on; all when unset
  std::optional<TimeNs> kept_from;               // samples before this were pruned: their days stay as stored
  // The earliest end among the samples the caller stored. When a VM's stored days all reach to a
  // point before it, only the samples after that point are read and added to them (a round's
  // worth, however late in the day); unset, the days from `from` are read again whole.
  std::optional<TimeNs> new_from;
  VmViewPtr view;  // as CorrectionRequest::view
};

// Inside the caller's transaction. `ids` maps vm_key to corr_vm id; VMs it lacks are added to
// corr_vm and to it. A VM whose summary has no total digest yet (new, or stored before schema
// 11) is summarised from all the samples kept. A vm matching nothing is not an error.
Status UpdateReadySummaries(Store* store, const ReadySummaryUpdate& u, std::map<std::string, int64_t>* ids);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_READY_SUMMARIES_H_
