// The capacity forecast (issue 40; docs/capacity.md, "The model"), pure: a daily demand series
// (each day's p95 of 5-minute demand, in cores) projected day by day with a 90% prediction band.
//
// The model is weighted least squares on the regular days: a level, a linear trend kept only when
// the data show one (|slope| at least twice its standard error), a weekly profile (the busiest
// weekday runs out first), and at most one level step (a new workload: the level after it is what
// goes on). Recent days weigh more (a half-life of 90 days). Peak days, far above the fit, are
// left out of it; when they recur at the same place in the month (a month-end batch) they are
// forecast on their own as a ratio to the regular day. The band is the residual noise plus the
// fit's own uncertainty, the latter inflated for the residuals' day-to-day correlation.
#ifndef VRECON_MODELS_CAPACITY_FORECAST_H_
#define VRECON_MODELS_CAPACITY_FORECAST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vrecon::models {

// One UTC day of demand. `day` counts days since 1970-01-01.
struct DailyDemand {
  int64_t day = 0;
  double cores = 0;  // the day's p95 of 5-minute demand
};

struct ForecastOptions {
  int horizon_days = 365;
  int min_history_days = 21;    // days with data; fewer: no forecast (insufficient-history)
  double half_life_days = 90;   // a day's weight halves every this many days back from as_of
  double band_z = 1.6448536;    // the band's half width in standard deviations (90%, two-sided)
  double peak_z = 4.0;          // a day this many robust deviations above the fit is a peak day
  int step_min_days = 7;        // days on each side of a level step
  double step_min_f = 40.0;     // F statistic a step must reach (it is chosen among every day)
  double trend_min_t = 2.0;     // |slope| / its standard error for the trend to be kept
  double max_peak_share = 0.2;  // at most this share of the days are peaks (the rest is the series)
};

struct ForecastDay {
  int64_t day = 0;
  double lower = 0, mid = 0, upper = 0;  // cores
};

// Peak days at one place in the month, seen in two months or more.
struct RecurringPeak {
  // "month-end" (the last `from_end` + 1 days of a month) or "day-of-month" (`day_of_month`).
  std::string rule;
  int from_end = 0;      // month-end: days before the month's last day (0 = the last day)
  int day_of_month = 0;  // day-of-month: 1-31
  double ratio = 1;      // a peak day's demand over the regular forecast of that day (median)
  std::vector<int64_t> seen;
};

struct Forecast {
  bool sufficient = false;         // false: fewer days than min_history_days, no forecast
  int history_days = 0;            // days with data
  int64_t as_of_day = 0;           // the last day with data
  std::vector<ForecastDay> days;   // as_of_day + 1 ... + horizon_days
  std::vector<int64_t> peak_days;  // history days left out of the fit as peaks
  std::optional<RecurringPeak> recurring_peak;
  std::vector<ForecastDay> peak_days_ahead;  // the recurring peak's days within the horizon
  double slope_per_day = 0;                  // 0 when no trend was kept
  bool trend = false;
  std::optional<int64_t> step_day;  // the first day after a level step
  double step_cores = 0;
  bool weekly = false;
  std::string model;  // what was fitted, in words, for the output's `model`
};

// `history` in any order; days without data are absent (never zero). Non-finite values are
// ignored.
Forecast ForecastDemand(const std::vector<DailyDemand>& history, const ForecastOptions& options = {});

// 0 = Sunday ... 6 = Saturday.
int WeekdayOf(int64_t day);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_CAPACITY_FORECAST_H_
