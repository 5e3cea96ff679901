// A VM's demand from its host-side series (docs/capacity.md, "Definitions"): which series say
// what it used, the counter its demand is computed from, and its 5-minute demand. A VM's own
// capacity answers (capacity_job.cc) and its cluster's (capacity_clusters.cc) read it the same way.
#ifndef VRECON_SRC_ENGINE_CAPACITY_VM_DEMAND_H_
#define VRECON_SRC_ENGINE_CAPACITY_VM_DEMAND_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/capacity_demand.h"
#include "src/engine/capacity_days.h"
#include "src/engine/capacity_parts.h"
#include "src/store/sample_reader.h"

namespace vrecon {

// One VM's host-side series of one source that say what it used.
struct DemandSeries {
  std::string source;
  std::vector<int64_t> run, ready, usage, costop;
  std::map<int, std::vector<int64_t>> vp_run;  // Hyper-V: each virtual processor's (one per host log)
  std::set<std::string> vcpu_instances;        // vSphere's per-vCPU ready instances
  bool HasRun() const { return !run.empty() || !usage.empty() || !vp_run.empty(); }
};

// Which part of a VM's demand a host-side series is, when it is one.
void Classify(const StoredSeries& s, DemandSeries* d);

// What the VM's demand is computed from; "" when it cannot be told (a vSphere usage without a vCPU
// count).
std::string DemandCounter(const DemandSeries& d, std::optional<int> vcpus);

// The VM's 5-minute demand (DemandCounter says from what).
std::vector<models::DemandBin> DemandOf(const DemandSeries& d, const Samples& samples, std::optional<int> vcpus);

// The series a VM's demand and co-stop read, and how its demand is computed from them.
DemandPlan PlanOf(const DemandSeries& d, const std::string& key, std::optional<int> vcpus);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CAPACITY_VM_DEMAND_H_
