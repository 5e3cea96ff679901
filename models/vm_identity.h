// Which VM is which, and which guest log belongs to which VM (docs/storage.md, "VM identity").
//
// A VM is known by the source that knows it plus a stable id. vSphere gives one: the vCenter and
// the VM's managed object id. Host logs (Hyper-V, esxtop) name VMs only ("WEB01:Hv VP 3",
// "12345:WEB01"): one name seen on several hosts is one VM that moved when the hosts' data follow
// each other in time, and several VMs when they run at the same time. Host-side names are compared
// whole (case-insensitive): "db01.prod.local" and "db01.dev.local" are two VMs.
//
// A guest names itself by its computer name. It matches a VM by an explicit mapping, else by the
// vSphere inventory's guest.hostName, else by name; its domain suffix is ignored when no other
// guest shares the short name. A guest that matches several VMs is matched to none of them.
#ifndef VRECON_MODELS_VM_IDENTITY_H_
#define VRECON_MODELS_VM_IDENTITY_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/spans.h"
#include "src/core/sample.h"
#include "src/core/time_util.h"

namespace vrecon::models {

// "web01.corp.example" -> "web01"; case folded. For guest computer names only.
std::string NormalizeVmName(std::string_view name);
// A host-side VM name as compared: trimmed, case folded, whole.
std::string FoldVmName(std::string_view name);

// "WEB01:Hv VP 3" -> {"WEB01", 3}; nullopt for "_Total" and other shapes.
struct HyperVVp {
  std::string vm;
  int vp = 0;
};
std::optional<HyperVVp> ParseHyperVVpInstance(std::string_view instance);
// "12345:WEB01" -> "WEB01".
std::optional<std::string> ParseEsxtopGroupInstance(std::string_view instance);

// The name a series stands for a VM or guest under, as NormalizeVmName gives it: a vSphere VM's
// (the machine), a Hyper-V virtual processor's or an esxtop group's VM (from the instance), a guest's
// own series' machine (guest and VMware Tools counters); "" for a host's own series. Any two names
// that guest matching or same-name detection pair have the same one, so the store can find what
// decides a few VMs' identities by it (src/engine/vm_view.h).
std::string SeriesVmName(const SeriesKey& k);

// ---- Host logs: one name on several hosts ----

// One VM name as one host's log shows it: when it had data there.
struct HostSighting {
  std::string host;
  std::vector<Span> present;  // time-ordered, disjoint
};

// Two sightings whose data overlap by more than this, or by more than half the shorter one, run
// at the same time: two VMs (two 10-minute captures of one name at once are two VMs). Less is a
// migration seen from both ends (the destination shows the VM while its memory is copied).
inline constexpr TimeNs kConcurrentOverlap = 10 * 60 * kNsPerSec;

// Groups one name's sightings into VMs, each a list of sighting indices in time order. Sightings
// are taken in order of their first data; each joins the one earlier group it does not overlap.
// When it overlaps every group it starts a new VM; when it could join several, it starts a new VM
// too (which of them moved there cannot be told).
std::vector<std::vector<size_t>> GroupSightings(const std::vector<HostSighting>& sightings,
                                                TimeNs max_overlap = kConcurrentOverlap);

// ---- Guests ----

// A VM as guest matching sees it.
struct VmCandidate {
  std::string key;                     // vm_key
  std::string name;                    // the hypervisor's name
  std::string guest_hostname;          // vSphere inventory guest.hostName, "" when unknown
  std::vector<std::string> also_keys;  // keys of host-side identities linked into it (VmEntry::linked)
};

struct GuestMatch {
  std::vector<size_t> vms;  // indices into the candidates: one = matched, several = ambiguous, none
  std::string how;          // "map", "inventory", "name" or "" when unmatched
};

// The candidates by key, folded name and guest.hostName, so that matching a fleet's guests is a
// few lookups each rather than a pass over every VM.
class VmNameIndex {
 public:
  explicit VmNameIndex(const std::vector<VmCandidate>& vms);
  // Matches one guest computer name. `mapped_to` (from --map, [[map]] or the store) is a vm_key
  // or a VM name. `strip_suffix`: the guest's domain suffix may be ignored (no other guest shares
  // the short name with another domain).
  GuestMatch Match(std::string_view guest, bool strip_suffix, const std::optional<std::string>& mapped_to) const;

 private:
  std::vector<size_t> Find(const std::multimap<std::string, size_t>& by, const std::string& key) const;
  std::multimap<std::string, size_t> by_key_, by_name_, by_hostname_, by_short_hostname_;
};

}  // namespace vrecon::models

#endif  // VRECON_MODELS_VM_IDENTITY_H_
