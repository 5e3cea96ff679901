// Demand for capacity (docs/capacity.md, "Definitions"), pure: a VM's run + ready in cores per
// 5-minute interval of the UTC grid, each day's p95 of those (the series the forecast reads), and
// the p95 over the last days (what right-sizing reads).
#ifndef VRECON_MODELS_CAPACITY_DEMAND_H_
#define VRECON_MODELS_CAPACITY_DEMAND_H_

#include <optional>
#include <vector>

#include "models/capacity_forecast.h"
#include "models/ready_analysis.h"

namespace vrecon::models {

inline constexpr TimeNs kDemandBinNs = 300 * kNsPerSec;
// A bin read from a longer sample holds a rollup's mean (models/capacity_rollups.h).
inline constexpr int kFineSampleS = 300;
// A day with fewer 5-minute bins (an hour) is left out of the forecast's series.
inline constexpr int kMinBinsPerDay = 12;

struct DemandBin {
  TimeNs start = 0;
  double cores = 0;
  int32_t sample_s = 0;  // the longest sample it was read from, in seconds (a rollup's interval)
};

// `run` and `ready` in % of each sample's interval, summed over vCPUs (100 = one core's worth).
// A bin gets the mean of run over the time run's samples cover of it, plus ready's mean over the
// time ready's cover, when they cover any (without ready, demand is run alone). A bin run covers
// less than half of is left out: missing, not low. In time order.
std::vector<DemandBin> FiveMinuteDemand(const std::vector<Interval>& run, const std::vector<Interval>& ready);

// `primary` with `fallback`'s samples where primary has none (a sample primary covers no part
// of), scaled to primary by the ratio of their sums over the samples of fallback that primary
// covers whole (unscaled when there are none): a vSphere VM's cpu.run.summation, which vCenter's
// rollups keep only from statistics level 3, filled from its cpu.usage.average x vCPUs (level 1)
// over the days a backfill fetched. Sorted by start.
std::vector<Interval> FilledFrom(std::vector<Interval> primary, std::vector<Interval> fallback);

// The bins every part has, their cores summed (and the longest sample of any): a VM's virtual processors, each read
// apart.
std::vector<DemandBin> SumOfParts(const std::vector<std::vector<DemandBin>>& parts);
// The bins any member has, the cores of those that have it summed: a cluster's VMs, of which
// one powered off (no samples) uses nothing.
std::vector<DemandBin> SumOfMembers(const std::vector<std::vector<DemandBin>>& members);

// Each UTC day's p95 of its bins (nearest rank), for the days with at least `min_bins` of them.
std::vector<DailyDemand> DailyP95(const std::vector<DemandBin>& bins, int min_bins = kMinBinsPerDay);

// The p95 (nearest rank) of the bins that start at or after `from`; nullopt when there are none.
std::optional<double> P95Since(const std::vector<DemandBin>& bins, TimeNs from);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_CAPACITY_DEMAND_H_
