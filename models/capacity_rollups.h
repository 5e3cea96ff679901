// Days of demand built from rollups (vCenter's 30-minute, 2-hour and daily historical intervals,
// a PowerCLI export of them): each value is the mean of its interval, so a day's p95 of them is
// lower than the p95 of its 5-minute demand, the lower the longer the interval. Read as they are,
// a backfilled year looks like growth into the recent 5-minute days (docs/capacity.md,
// "Backfill"). Each such day's p95 is scaled by the ratio the entity's own 5-minute values show
// between their p95 and the p95 of the same values averaged over that interval.
#ifndef VRECON_MODELS_CAPACITY_ROLLUPS_H_
#define VRECON_MODELS_CAPACITY_ROLLUPS_H_

#include <map>
#include <vector>

#include "models/capacity_digest.h"

namespace vrecon::models {

// The ratios need this many 5-minute values (18 hours): a backfill's first round has the day of
// 5-minute rollups vCenter keeps.
inline constexpr int kMinFineValues = 216;

struct RollupScale {
  std::map<int, double> factor;  // by the rollup's interval (s)
  int fine_values = 0;           // the 5-minute values they were read from
};

// For each interval in `intervals`: the p95 of the 5-minute values of `days` (each day's from its
// fine_from on) over the p95 of the same values, each replaced by the mean of those in its
// interval (aligned to the UTC day, as vCenter's rollups are); at least 1, since averaging never
// raises a p95. None with fewer than kMinFineValues values, or where the means' p95 is 0.
RollupScale EstimateRollupScale(const std::vector<DemandDay>& days, const std::vector<int>& intervals);

// The factor a day's p95 is scaled by: 1 for a day of 5-minute values; for a day of rollups, the
// factor of its longest sample's interval, applied to the share of the day before its 5-minute
// values start (a day the backfill's levels meet in); nullopt when that factor is not known.
std::optional<double> DayScale(const RollupScale& scale, int sample_s, int fine_from);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_CAPACITY_ROLLUPS_H_
