// `vrecon capacity` (docs/capacity.md): each VM's demand read from its host-side series (run +
// ready: vSphere, esxtop; the virtual processors' run time: Hyper-V), each host's (busy logical
// processors + its VMs' ready: a vCenter's HostSystem counters, esxtop, Hyper-V) and each vCenter
// cluster's (its hosts' demand, else its VMs', against its hosts' cores), their days' p95
// forecast, and the answers of models/capacity.h.
#ifndef VRECON_SRC_ENGINE_CAPACITY_JOB_H_
#define VRECON_SRC_ENGINE_CAPACITY_JOB_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/capacity.h"
#include "src/engine/vm_view.h"
#include "src/store/store.h"

namespace vrecon {

struct CapacityRequest {
  std::string scope = "all";       // all | cluster | host | vm
  std::vector<std::string> names;  // VM names (glob, domain suffix ignored) or vm_keys; all when empty
  std::optional<TimeNs> as_of;     // data ending after it is not read
  models::Risk risk = models::Risk::kConservative;
  double buffer_pct = 10;
  double target_util_pct = 70;
  int ha_hosts = -1;  // hosts a cluster holds back for a failure; -1: models::DefaultHaHosts
  models::ForecastOptions forecast;
  bool digests_only = false;  // bring the day digests up to date; answer nothing
  // Only these VMs (vm_keys), and no host: a fleet round's. Unset: as `names` says.
  std::optional<std::set<std::string>> vm_keys;
  VmViewPtr view;  // the VMs' view when the caller has read it (a fleet round's); read here when null
  // Hosts' and clusters' daily p95s kept in CapacityEntity::history (the report draws them).
  bool host_history = false;
  // Digests brought up to date are stored (unless the store is read-only); false: computed only.
  bool keep_digests = true;
};

struct GrowthDriver {
  std::string process;
  double cores_now = 0, cores_per_30d = 0;
};

struct CapacityEntity {
  std::string scope;  // cluster | host | vm
  std::string name, key;
  std::string label;   // the name for people: with what tells it from a namesake (VmLabel), else the name
  std::string host;    // VMs: the hosts it ran on, "" when the source names none
  std::string source;  // the host-side source its demand comes from: vsphere | esxtop | hyperv
  std::string demand_counter;
  std::optional<int> vcpus, recommended_vcpus;
  std::optional<double> capacity_cores, usable_cores, demand_p95_cores, capacity_remaining_pct;
  std::optional<int> time_remaining_days, peak_time_remaining_days;
  int history_days = 0;
  std::optional<TimeNs> as_of;  // the end of its data
  std::string model;
  std::vector<models::ForecastDay> forecast;
  std::vector<models::DailyDemand> history;  // with CapacityRequest::host_history: its days, oldest first
  std::vector<models::Flag> flags;
  std::vector<GrowthDriver> growth_drivers;
};

// The entities the request selects, worst first: by time remaining (none last), then name.
// NotFound when --name selects nothing with host-side data.
// The entities' day digests (src/engine/capacity_days.h) are brought up to date first, and kept
// unless the store is read-only.
StatusOr<std::vector<CapacityEntity>> RunCapacity(Store* store, const CapacityRequest& req);

// Every entity's day digests brought up to date from the samples (with `vm_keys`, those VMs'):
// after a fleet round, and before retention removes samples (`vrecon prune`, a collector's
// retain_samples) so that their days live on.
Status RefreshCapacityDigests(Store* store, const std::optional<std::set<std::string>>& vm_keys = std::nullopt,
                              VmViewPtr view = nullptr);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CAPACITY_JOB_H_
