#include "models/capacity_forecast.h"

#include <algorithm>
#include <cmath>

#include "models/capacity_fit.h"
#include "models/capacity_peaks.h"
#include "src/core/time_util.h"

namespace vrecon::models {

using capacity::Fit;
using capacity::Point;
using capacity::Spec;

int WeekdayOf(int64_t day) { return static_cast<int>(((day + 4) % 7 + 7) % 7); }  // 1970-01-01: Thursday

namespace {

// One point per day (the mean of duplicates), in day order, weighted by recency (mean weight 1).
std::vector<Point> PointsOf(std::vector<DailyDemand> history, double half_life_days) {
  std::erase_if(history, [](const DailyDemand& d) { return !std::isfinite(d.cores); });
  // Stored days come in order, once each: sorting them is a pass.
  std::stable_sort(history.begin(), history.end(),
                   [](const DailyDemand& a, const DailyDemand& b) { return a.day < b.day; });
  std::vector<Point> points;
  points.reserve(history.size());
  int count = 0;
  for (const DailyDemand& d : history) {
    if (!points.empty() && points.back().day == d.day) {
      points.back().y += d.cores;
      ++count;
      continue;
    }
    if (count > 1) points.back().y /= count;
    points.push_back({d.day, d.cores, 1});
    count = 1;
  }
  if (count > 1) points.back().y /= count;
  if (points.empty()) return points;
  const int64_t as_of = points.back().day;
  double total = 0;
  for (Point& p : points) {
    p.weight = std::pow(0.5, static_cast<double>(as_of - p.day) / half_life_days);
    total += p.weight;
  }
  for (Point& p : points) p.weight *= static_cast<double>(points.size()) / total;
  return points;
}

std::vector<Point> Without(const std::vector<Point>& points, const std::vector<int64_t>& days) {
  std::vector<Point> out;
  out.reserve(points.size());
  for (const Point& p : points)
    if (!std::binary_search(days.begin(), days.end(), p.day)) out.push_back(p);
  return out;
}

// Steps, fit and peak days, found together: a step makes the days after it look like peaks to a
// fit without it, and peaks pull a fit (and a step) up.
struct Found {
  Spec spec;
  Fit fit;
  std::vector<int64_t> peaks;
};

// The least noise a fit assumes: 0.5% of the mean demand, as the peak days' least deviation.
double MinSigma(const std::vector<Point>& points) {
  double sum = 0;
  for (const Point& p : points) sum += p.y;
  return 0.005 * std::fabs(sum / static_cast<double>(points.size()));
}

Found FitWithPeaks(const std::vector<Point>& points, Spec spec, const ForecastOptions& o) {
  Found f{spec, {}, {}};
  const double min_sigma = MinSigma(points);
  std::vector<int64_t> days;
  std::vector<double> demand;
  days.reserve(points.size());
  demand.reserve(points.size());
  for (const Point& p : points) {
    days.push_back(p.day);
    demand.push_back(p.y);
  }
  for (int round = 0; round < 4; ++round) {
    const std::vector<Point> regular = Without(points, f.peaks);
    f.spec.step = capacity::FindStep(regular, f.spec, o.step_min_days, o.step_min_f);
    f.fit = capacity::WeightedFit(regular, f.spec, min_sigma);
    if (!f.fit.ok) return f;
    std::vector<double> residuals(points.size());
    for (size_t i = 0; i < points.size(); ++i) residuals[i] = points[i].y - f.fit.Predict(f.spec, points[i].day);
    std::vector<int64_t> peaks = capacity::PeakDays(days, demand, residuals, o.peak_z, o.max_peak_share);
    if (peaks == f.peaks) break;
    f.peaks = std::move(peaks);
  }
  // A trend only when the data show one: a flat series' chance slope, carried a year ahead,
  // would invent a crossing.
  const std::vector<Point> regular = Without(points, f.peaks);
  if (f.spec.trend && std::fabs(f.fit.beta[1]) < o.trend_min_t * f.fit.StandardError(1)) {
    Spec flat = f.spec;
    flat.trend = false;
    Fit refit = capacity::WeightedFit(regular, flat, min_sigma);
    if (refit.ok) {
      f.spec = flat;
      f.fit = std::move(refit);
    }
  }
  return f;
}

ForecastDay DayOf(const Found& f, int64_t day, double z) {
  const double mid = f.fit.Predict(f.spec, day);
  const double half = z * std::sqrt(f.fit.PredictionVariance(f.spec, day));
  return {day, std::max(0.0, mid - half), std::max(0.0, mid), std::max(0.0, mid + half)};
}

std::string Describe(const Forecast& out, const ForecastOptions& o) {
  std::string m =
      "weighted least squares (half-life " + std::to_string(static_cast<int>(o.half_life_days)) + " d): level";
  if (out.trend) m += ", trend";
  if (out.weekly) m += ", weekly profile";
  if (out.step_day) m += ", level step from " + FormatDay(*out.step_day);
  if (!out.peak_days.empty()) {
    m += "; " + std::to_string(out.peak_days.size()) + " peak day(s) apart";
    if (out.recurring_peak) m += " (recurring: " + out.recurring_peak->rule + ")";
  }
  return m + "; 90% band";
}

void ForecastPeaks(const std::vector<Point>& points, const Found& f, const ForecastOptions& o, Forecast* out) {
  out->recurring_peak = capacity::FindRecurringPeak(f.peaks, points.front().day, out->as_of_day);
  if (!out->recurring_peak) return;
  // A peak scales with the week's level (a batch grows with the business), whatever weekday it
  // falls on.
  std::vector<double> ratios;
  for (int64_t d : out->recurring_peak->seen) {
    auto p = std::lower_bound(points.begin(), points.end(), d, [](const Point& x, int64_t v) { return x.day < v; });
    const double level = f.fit.PredictLevel(f.spec, d);
    if (p != points.end() && p->day == d && level > 0) ratios.push_back(p->y / level);
  }
  if (ratios.empty()) {
    out->recurring_peak.reset();
    return;
  }
  std::sort(ratios.begin(), ratios.end());
  out->recurring_peak->ratio = ratios[ratios.size() / 2];
  const double r = out->recurring_peak->ratio;
  for (int64_t d : capacity::RecurringDays(*out->recurring_peak, out->as_of_day, out->as_of_day + o.horizon_days)) {
    const double level = f.fit.PredictLevel(f.spec, d);
    const double half = o.band_z * std::sqrt(f.fit.PredictionVariance(f.spec, d));
    out->peak_days_ahead.push_back(
        {d, std::max(0.0, r * (level - half)), std::max(0.0, r * level), std::max(0.0, r * (level + half))});
  }
}

}  // namespace

Forecast ForecastDemand(const std::vector<DailyDemand>& history, const ForecastOptions& o) {
  Forecast out;
  const std::vector<Point> points = PointsOf(history, o.half_life_days);
  out.history_days = static_cast<int>(points.size());
  if (!points.empty()) out.as_of_day = points.back().day;
  if (out.history_days < o.min_history_days) {
    out.model = "none: " + std::to_string(out.history_days) + " day(s) of history, " +
                std::to_string(o.min_history_days) + " needed";
    return out;
  }
  Found f = FitWithPeaks(points, Spec{out.as_of_day, true, true, std::nullopt}, o);
  if (!f.fit.ok) f = FitWithPeaks(points, Spec{out.as_of_day, true, false, std::nullopt}, o);  // a weekday never seen
  if (!f.fit.ok) {
    out.model = "none: the history cannot be fitted";
    return out;
  }
  out.sufficient = true;
  out.trend = f.spec.trend;
  out.weekly = f.spec.weekly;
  out.slope_per_day = f.spec.trend ? f.fit.beta[1] : 0;
  out.step_day = f.spec.step;
  if (f.spec.step) out.step_cores = f.fit.beta[f.spec.Columns() - 1];
  out.peak_days = f.peaks;
  for (int h = 1; h <= o.horizon_days; ++h) out.days.push_back(DayOf(f, out.as_of_day + h, o.band_z));
  ForecastPeaks(points, f, o, &out);
  out.model = Describe(out, o);
  return out;
}

}  // namespace vrecon::models
