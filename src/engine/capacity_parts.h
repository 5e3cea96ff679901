// What `vrecon capacity`'s VMs and hosts share (src/engine/capacity_job.h): their samples read
// from the store, and the answers every entity gets from its 5-minute demand's day digests
// (src/engine/capacity_days.h).
#ifndef VRECON_SRC_ENGINE_CAPACITY_PARTS_H_
#define VRECON_SRC_ENGINE_CAPACITY_PARTS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/capacity_demand.h"
#include "src/engine/capacity_job.h"
#include "src/engine/vm_view.h"
#include "src/store/sample_reader.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {

using Samples = std::map<int64_t, std::vector<models::Interval>>;

// The samples of `ids` in `range`, through `reader` (one for a run: it keeps what it looked up
// of the store's blocks), which forgets the blocks after.
Status ReadSamples(BlockReader* reader, const std::vector<int64_t>& ids, const TimeRange& range, Samples* out);
// The samples of `ids`, one after another, each value times `scale`.
std::vector<models::Interval> Joined(const Samples& samples, const std::vector<int64_t>& ids, double scale = 1);

struct DemandPlan;
struct DemandHistory;
struct DayUpdate;

// The entity's day digests brought up to date (src/engine/capacity_days.h), then as_of, the daily
// forecast, the p95 of the last 30 days and, with a capacity, usable cores, time remaining, peak
// time remaining and capacity remaining; insufficient-history when the days are too few. Nothing
// but the digests when it has no demand. `history` (optional) gets what the answers read.
Status AnswerFromPlan(Store* store, const CapacityRequest& req, const DayUpdate& update, const DemandPlan& plan,
                      std::optional<double> capacity_cores, CapacityEntity* e, DemandHistory* history = nullptr);

// The processes that drive a VM's growth (models/capacity_growth.h), from its stored corrections'
// process hours (`corr_vm_id`) of the 60 days before `as_of`.
StatusOr<std::vector<GrowthDriver>> GrowthDriversOf(Store* store, int64_t corr_vm_id, TimeNs as_of);

// The cores of each host of the host logs (its capacity: physical cores with hyper-threading on,
// else logical processors), by its folded name: what a VM's right size is capped at.
std::map<std::string, int> LogHostCores(const VmView& view);

// The hosts of host logs (esxtop, Hyper-V) and of collected vCenters, and their answers
// (`--scope host`, `all`).
StatusOr<std::vector<CapacityEntity>> HostCapacities(Store* store, const VmView& view, const CapacityRequest& req,
                                                     const DayUpdate& update);

// A vCenter host's processors as its inventory row gives them (0: not said), and its logical
// processors: the threads, else its cores when hyper-threading is off; nullopt when neither says.
models::HostProcessors VsphereHostProcessors(const StoredHost& h);
std::optional<int> VsphereHostThreads(const StoredHost& h);

// A vCenter host's own series (source vsphere-host, the aggregate), by its entity
// ("<vCenter id>/<moid>"; capacity_vsphere_hosts.cc).
struct VsphereHostSeries {
  std::vector<int64_t> utilization, ready;  // cpu.utilization.average, cpu.ready.summation
};
std::map<std::string, VsphereHostSeries> VsphereHostSeriesOf(const VmView& view);
// Its 5-minute demand in cores: busy logical processors (utilization x `threads`) + its VMs' ready.
std::vector<models::DemandBin> VsphereHostBins(const VsphereHostSeries& s, const Samples& samples, int threads);
// The collected vCenters' hosts with their own counters and their answers (`--scope host`, `all`).
StatusOr<std::vector<CapacityEntity>> VsphereHostCapacities(Store* store, const VmView& view,
                                                            const CapacityRequest& req, const DayUpdate& update);

// A vCenter's clusters (capacity_clusters.cc; `--scope cluster`, `all`): their hosts' cores less
// the hosts held back for HA, against its hosts' demand (their own counters), else its VMs'.
StatusOr<std::vector<CapacityEntity>> ClusterCapacities(Store* store, const VmView& view, const CapacityRequest& req,
                                                        const DayUpdate& update);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CAPACITY_PARTS_H_
