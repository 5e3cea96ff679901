// The store's VMs as one run sees them: the series it reads them from and the directory of which
// VM is which (src/engine/vm_directory.h), read once and shared by the jobs of a run
// (StoreCorrections: the correction and the Ready-Time update).
//
// A fleet round corrects only the VMs it stored samples of. Reading every series and the whole
// vSphere inventory for them made a round's cost grow with the store: in a store shared by four
// collectors, most of what one collector read was the other three's (docs/performance.md). For
// vSphere VMs named by vm_key the view holds only what decides their identities: every series and
// inventory row under any of their names, guest.hostNames or entities, and under the guests the
// mappings name. Guest matching and same-name detection only ever pair names with one
// NormalizeVmName (models/vm_identity.h), so the directory gives those VMs the same entries as
// over the whole store. Other VMs in the view may lack what only the whole store would tell them
// (a namesake of theirs, a host's load series): it is for the named VMs only.
#ifndef VRECON_SRC_ENGINE_VM_VIEW_H_
#define VRECON_SRC_ENGINE_VM_VIEW_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/engine/vm_directory.h"
#include "src/store/sample_reader.h"

namespace vrecon {

struct VmView {
  std::vector<StoredSeries> series;  // in FindSeries' order
  VmDirectory dir;
  bool scoped = false;  // only what `vm_keys` needs (see above), not the whole store
};
using VmViewPtr = std::shared_ptr<const VmView>;

// Guests' Processor(n) instances, by VmDirectory::GuestId: a vCPU count for VMs the host side
// gives none for.
using GuestCpus = std::map<std::string, std::set<std::string>>;
GuestCpus GuestCpuInstances(const VmView& view);

// A VM's vCPUs: the vSphere inventory's numCPU, else the host side's per-vCPU instances (vSphere
// per-vCPU counters, Hyper-V virtual processors), else its first guest's Processor(n) instances;
// nullopt when none says.
std::optional<int> VcpusOf(const VmEntry& e, size_t host_vcpu_instances, const GuestCpus& guest_cpus,
                           const VmDirectory& dir);

// Guest name -> vm_key or VM name: the store's mappings, then `extra` (--map, [[map]]) on top.
StatusOr<std::map<std::string, std::string>> MergedMappings(Store* store,
                                                            const std::map<std::string, std::string>& extra);

// The view for the VMs `vm_keys` names: scoped when every key is a vSphere VM's with an entity
// ("vsphere:<vCenter id>/<moid>", what a fleet round's collector stores) and names a VM found so,
// else the whole store.
StatusOr<VmViewPtr> ReadVmView(Store* store, const std::optional<std::set<std::string>>& vm_keys,
                               const std::map<std::string, std::string>& mappings);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_VM_VIEW_H_
