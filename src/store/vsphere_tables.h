// The store's vSphere tables: what each vCenter's inventory looked like at the last
// collection, which vCenter each URL reaches, and the rollup ranges still owed (the high-water
// marks: src/store/vsphere_marks.h).
#ifndef VRECON_SRC_STORE_VSPHERE_TABLES_H_
#define VRECON_SRC_STORE_VSPHERE_TABLES_H_

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "src/core/time_util.h"
#include "src/store/store.h"
#include "src/store/vsphere_marks.h"  // the high-water marks, with the other vSphere tables

namespace vrecon {

struct StoredVm {
  std::string vcenter, moid, name, host_moid, power_state, guest_hostname;
  int num_cpu = 0;
  std::string entity;  // "<vCenter id>/<moid>" (src/core/vsphere_entity.h), as its series carry it
};
struct StoredHost {
  std::string vcenter, moid, name;
  int cores = 0, mhz = 0;
  int threads = 0;                     // logical processors; 0 unknown
  std::optional<bool> hyperthreading;  // active; unset unknown
  std::string cluster_moid;            // "" for a standalone host
  std::string entity;                  // "<vCenter id>/<moid>" as its series carry it (read back only)
};
// A vCenter's cluster with its hosts and the VMs on them, as the inventory last saw them.
struct StoredCluster {
  std::string vcenter, moid, name;
  // What its HA admission control holds back: hosts, or a percentage of CPU; unset: not said.
  std::optional<int> ha_hosts;
  std::optional<double> ha_cpu_pct;
  std::vector<StoredHost> hosts;
  std::vector<std::string> vm_entities;  // "<vCenter id>/<moid>", as their series carry it
};

Status SaveVsphereVm(Store* store, const StoredVm& vm);
Status SaveVsphereVms(Store* store, const std::vector<StoredVm>& vms);
Status SaveVsphereHost(Store* store, const StoredHost& host);
// Its name and HA reserve (hosts and VMs are not written: they come from the hosts' rows).
Status SaveVsphereCluster(Store* store, const StoredCluster& cluster);
// Every cluster with at least one host, by vCenter and name.
StatusOr<std::vector<StoredCluster>> VsphereClusters(Store* store);
// Every host of every vCenter, by vCenter and name.
StatusOr<std::vector<StoredHost>> VsphereHosts(Store* store);
// Every VM of every vCenter, for matching guests (guest_hostname) and vCPU counts.
StatusOr<std::vector<StoredVm>> VsphereVms(Store* store);
// Each VM's host's cores as the inventory last saw them, by the VM's entity (hosts of 0 cores,
// or not seen, left out).
StatusOr<std::map<std::string, int>> VsphereVmHostCores(Store* store);
// Those whose name or guest.hostName has one of these keys (models::NormalizeVmName), or whose
// entity is one of these, in VsphereVms' order: what decides a few VMs' identities.
StatusOr<std::vector<StoredVm>> VsphereVmsNamed(Store* store, const std::vector<std::string>& keys,
                                                const std::vector<std::string>& entities);
// The name keys of these VMs (entities): their series' vm_name, their inventory's name_key and host_key.
StatusOr<std::set<std::string>> NameKeysOf(Store* store, const std::vector<std::string>& entities);

// Records which vCenter id (its instanceUuid, else the URL's host) `url` reaches and returns the
// id its VMs' entities use: `vcenter_id`, or "<vcenter_id>@<URL host>" when another URL already
// reported that instanceUuid (a cloned vCenter; its VMs must not merge with the first's). The
// first time a URL gives an instanceUuid, the series and inventory stored under its URL host (by
// a vrecon before schema 6, or while the server gave none) move to the id, merging with any
// stored under it already, so that one VM keeps one identity.
StatusOr<std::string> RecordVcenter(Store* store, const std::string& url, const std::string& vcenter_id);

// vCenter id -> a URL that reached it (the first by URL order).
StatusOr<std::map<std::string, std::string>> VcenterUrls(Store* store);

// A 300 s rollup range a round planned for a VM and has not stored yet.
struct RollupDue {
  TimeNs from = 0, to = 0;
};
StatusOr<std::map<std::string, RollupDue>> RollupsDue(Store* store, const std::string& vcenter);  // by moid
Status SetRollupDue(Store* store, const std::string& vcenter, const std::string& moid, const RollupDue& due);
Status ClearRollupDue(Store* store, const std::string& vcenter, const std::string& moid);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_VSPHERE_TABLES_H_
