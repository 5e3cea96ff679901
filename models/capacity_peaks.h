// Peak days of the capacity forecast (capacity_forecast.h): days far above the regular fit are
// peaks, left out of the series; peaks at one place in the month, seen in most months the history
// covers, recur (a month-end batch) and are forecast on their own.
#ifndef VRECON_MODELS_CAPACITY_PEAKS_H_
#define VRECON_MODELS_CAPACITY_PEAKS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "models/capacity_forecast.h"

namespace vrecon::models::capacity {

// The days whose residual (demand less the fit) is over `z` robust deviations (1.4826 x the
// median absolute deviation of the residuals, at least 0.5% of the mean demand), the largest first
// when more than `max_share` of the days would be. Sorted by day.
std::vector<int64_t> PeakDays(const std::vector<int64_t>& days, const std::vector<double>& demand,
                              const std::vector<double>& residuals, double z, double max_share);

// A rule the peak days keep: a month-end position, else a day of the month, seen in two months or
// more and in at least 60% of the months whose day of the rule lies in [first_day, as_of]. The
// ratio is left at 1 for the caller.
std::optional<RecurringPeak> FindRecurringPeak(const std::vector<int64_t>& peak_days, int64_t first_day, int64_t as_of);

// The rule's days in (after, until], in order.
std::vector<int64_t> RecurringDays(const RecurringPeak& peak, int64_t after, int64_t until);

}  // namespace vrecon::models::capacity

#endif  // VRECON_MODELS_CAPACITY_PEAKS_H_
