// Every VM the store knows, with its identity (vm_key), the host-side series that are its own
// and the guest logs that form its guest timeline (models/vm_identity.h for the rules). The
// correction, the Ready-Time analysis and `samples` all ask this one directory, so that they
// agree on which VM is which.
#ifndef VRECON_SRC_ENGINE_VM_DIRECTORY_H_
#define VRECON_SRC_ENGINE_VM_DIRECTORY_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/engine/host_links.h"
#include "src/store/sample_reader.h"
#include "src/store/store.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {

struct VmEntry {
  // Unique per VM and stable across runs: "vsphere:<vCenter id>/<moid>", "vsphere:<name>" (a
  // PowerCLI export, which names no vCenter), "hyperv:<first host>/<name>",
  // "esxtop:<first host>/<name>", or "guest:<name>" for a guest log matched to no VM.
  std::string key;
  std::string name;                 // the hypervisor's name for it, else the guest's
  std::string source;               // what tells it from another VM of its name: the vCenter, "hv01 -> hv02", "guest"
  bool name_shared = false;         // another VM has the same name (outputs then show `source` beside it)
  int num_cpu = 0;                  // the vSphere inventory's numCPU, 0 when unknown
  std::string guest_hostname;       // the vSphere inventory's guest.hostName, "" when unknown
  std::vector<std::string> hosts;   // hosts it ran on, in time order (host logs; vSphere: none)
  std::vector<std::string> guests;  // guest machine names (as stored) of its guest timeline
  std::vector<std::string> ambiguous;  // a guest entry: the keys of the VMs its name matched
  // A vSphere VM an esxtop capture shows too (src/engine/host_links.h): the esxtop VM's key
  // ("esxtop:<host>/<name>"), which still selects it and maps a guest to it, and how they were
  // linked ("inventory" or "series").
  std::vector<std::string> linked;
  std::string linked_by;
};

class VmDirectory {
 public:
  // `mappings`: guest name -> vm_key or VM name (--map, [[map]], the store's vm_map), on top of
  // the vSphere inventory's guest.hostName. `inventory`: the vSphere inventory's rows that go with
  // `all` (src/engine/vm_view.h); the store's whole inventory when null.
  static StatusOr<VmDirectory> Build(Store* store, const std::vector<StoredSeries>& all,
                                     const std::map<std::string, std::string>& mappings,
                                     const std::vector<StoredVm>* inventory = nullptr);

  const std::vector<VmEntry>& entries() const { return entries_; }
  const VmEntry& entry(size_t i) const { return entries_[i]; }
  // The VM a host-side series (vSphere, Hyper-V VP, esxtop group) belongs to; -1 for others.
  int HostEntryOf(const SeriesKey& k) const;
  // The guest a guest series' machine name stands for: case-insensitive, domain suffix ignored
  // where no other guest shares the short name. Series of one guest have the same id.
  std::string GuestId(const std::string& machine) const;
  // Indices of the entries `vm` selects: its vm_key, or its name or a guest's (glob, case and
  // domain suffix ignored), all of them when unset; of those, only the ones in `keys` when set.
  std::vector<size_t> Select(const std::optional<std::string>& vm,
                             const std::optional<std::set<std::string>>& keys = std::nullopt) const;

 private:
  std::vector<size_t> SelectByName(const std::optional<std::string>& vm) const;
  Status AddHostEntries(Store* store, const std::vector<StoredSeries>& all, const std::vector<StoredVm>& inventory);
  Status LinkHostSources(Store* store, const std::vector<StoredSeries>& all, const std::vector<StoredVm>& inventory);
  void Merge(const std::vector<HostLink>& links);
  void MatchGuests(const std::vector<std::string>& guests, const std::map<std::string, std::string>& mappings);

  std::vector<VmEntry> entries_;
  std::vector<size_t> order_;                       // guests' VMs in the guests' order, then VMs without a guest
  std::map<std::string, int> host_index_;           // HostSeriesId(...) -> entry
  std::map<std::string, std::string> guest_short_;  // NormalizeVmName -> the one full name it stands for, or "\x1f"
  std::vector<std::pair<std::string, std::string>> inventory_only_;  // (guest.hostName, VM name) without vSphere data
};

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_VM_DIRECTORY_H_
