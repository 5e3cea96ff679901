// Which esxtop VM and which vSphere VM of one name are one VM (docs/storage.md, "VM identity"):
// the vCenter inventory placing the VM on the esxtop capture's host, else their CPU series agreeing
// in time (models/host_link.h). One to one: of two same-named VMs that two esxtop hosts show at
// once, at most one is linked to a vSphere VM, and neither when both would be.
#ifndef VRECON_SRC_ENGINE_HOST_LINKS_H_
#define VRECON_SRC_ENGINE_HOST_LINKS_H_

#include <string>
#include <vector>

#include "src/store/store.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {

// One VM of the directory as linking sees it.
struct LinkSide {
  size_t entry = 0;                     // the directory's index
  std::string name;                     // folded (models::FoldVmName)
  std::vector<std::string> hosts;       // esxtop: the hosts it ran on
  const StoredVm* inventory = nullptr;  // vSphere: its inventory row, when stored
  // esxtop: the group's % Used and % Run; vSphere: cpu.usage.average and cpu.run.summation.
  std::vector<int64_t> used, run;
};

struct HostLink {
  size_t vsphere = 0, esxtop = 0;  // directory indices
  std::string how;                 // "inventory" or "series"
};

// The pairs of `vsphere` and `esxtop` sides that are one VM.
StatusOr<std::vector<HostLink>> LinkHostEntries(Store* store, const std::vector<LinkSide>& vsphere,
                                                const std::vector<LinkSide>& esxtop);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_HOST_LINKS_H_
