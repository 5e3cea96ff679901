// The capacity answers (issue 40; docs/capacity.md, "Definitions"), pure: capacity and usable
// cores of a host and a cluster, time remaining and capacity remaining from a forecast
// (capacity_forecast.h), and a VM's recommended vCPUs.
#ifndef VRECON_MODELS_CAPACITY_H_
#define VRECON_MODELS_CAPACITY_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/capacity_forecast.h"
#include "models/correction.h"

namespace vrecon::models {

// conservative: the upper band; aggressive: the middle.
enum class Risk { kConservative, kAggressive };
std::optional<Risk> ParseRisk(std::string_view text);
std::string_view RiskName(Risk risk);

// What a host source says of its processors; unknown = nullopt.
struct HostProcessors {
  std::optional<int> cores;    // physical cores
  std::optional<int> threads;  // logical processors
  std::optional<bool> hyperthreading;
};

struct CapacityCores {
  double cores = 0;
  bool logical = false;  // the logical processor count, hyper-threading unknown (capacity-logical)
};

// Physical cores when hyper-threading is on; the logical processor count when it is off (the
// same number) or unknown (then flagged). nullopt when the source gives no count.
std::optional<CapacityCores> HostCapacity(const HostProcessors& p);

// The hosts' capacity less the largest `ha_hosts` of them (held back for a host failure), never
// below 0.
double ClusterCapacity(std::vector<double> host_cores, int ha_hosts);
// The hosts' capacity less `reserve_pct` of it (HA admission control by a percentage of CPU).
double ClusterCapacityLessShare(const std::vector<double>& host_cores, double reserve_pct);
// --ha-hosts' default: 1 for a cluster of two hosts or more, else 0.
int DefaultHaHosts(size_t hosts);
// capacity x (1 - buffer/100).
double UsableCores(double capacity_cores, double buffer_pct);

// Days from as_of until the forecast (the band `risk` reads) first exceeds `usable`: 0 when a
// regular day of the last week of `history` already did; nullopt when it does not within the
// horizon, or when there is no forecast.
std::optional<int> TimeRemainingDays(const Forecast& f, const std::vector<DailyDemand>& history, double usable,
                                     Risk risk);
// The same for the recurring peak: 0 when its latest day seen exceeded `usable`; nullopt when no
// peak recurs or it stays under.
std::optional<int> PeakTimeRemainingDays(const Forecast& f, const std::vector<DailyDemand>& history, double usable,
                                         Risk risk);
// (usable - the largest forecast of the next 3 days) / usable x 100, at least 0.
std::optional<double> CapacityRemainingPct(const Forecast& f, double usable, Risk risk);

struct VcpuAdvice {
  int recommended = 1;
  std::vector<Flag> hints;  // fewer-vcpus, more-vcpus
};

// ceil(p95 demand / (target_util / 100)), at least 1 and at most the host's cores (when known);
// a hint when it differs from the VM's vCPUs. High co-stop (costop_high) argues against more
// vCPUs: the hint then says so instead of asking for them.
VcpuAdvice RecommendVcpus(double p95_demand_cores, double target_util_pct, std::optional<int> host_cores,
                          std::optional<int> vcpus, bool costop_high);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_CAPACITY_H_
