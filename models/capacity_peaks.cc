#include "models/capacity_peaks.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "src/core/time_util.h"

namespace vrecon::models::capacity {
namespace {

struct MonthDay {
  int year = 1970, month = 1, day = 1;
};

MonthDay CivilOf(int64_t day) {
  const CivilTime c = CivilFromNs(day * 86400 * kNsPerSec);
  return {c.year, c.month, c.day};
}

int MonthKey(int64_t day) {
  const MonthDay c = CivilOf(day);
  return c.year * 12 + (c.month - 1);
}

// The rule's day in the month `key` (year * 12 + month - 1).
int64_t RuleDay(const RecurringPeak& p, int key) {
  const int y = key / 12, m = key % 12 + 1;
  const int last = DaysInMonth(y, m);
  const int d = p.rule == "month-end" ? last - p.from_end : std::min(p.day_of_month, last);
  return DaysFromCivil(y, m, std::max(d, 1));
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  return v[mid];
}

// Fills `p.seen` and says whether the rule holds over [first, as_of].
bool Holds(RecurringPeak* p, const std::vector<int64_t>& peaks, int64_t first, int64_t as_of) {
  int covered = 0, hit = 0;
  p->seen.clear();
  for (int key = MonthKey(first); key <= MonthKey(as_of); ++key) {
    const int64_t d = RuleDay(*p, key);
    if (d < first || d > as_of) continue;
    ++covered;
    auto near = std::find_if(peaks.begin(), peaks.end(), [d](int64_t x) { return x >= d - 1 && x <= d + 1; });
    if (near == peaks.end()) continue;
    ++hit;
    p->seen.push_back(*near);
  }
  return hit >= 2 && hit >= 0.6 * covered;
}

}  // namespace

std::vector<int64_t> PeakDays(const std::vector<int64_t>& days, const std::vector<double>& demand,
                              const std::vector<double>& residuals, double z, double max_share) {
  const size_t n = residuals.size();
  if (n == 0) return {};
  const double med = Median(residuals);
  std::vector<double> dev(n);
  for (size_t i = 0; i < n; ++i) dev[i] = std::fabs(residuals[i] - med);
  const double mean = std::accumulate(demand.begin(), demand.end(), 0.0) / static_cast<double>(n);
  const double scale = std::max(1.4826 * Median(dev), 0.005 * std::fabs(mean) + 1e-9);
  std::vector<size_t> over;
  for (size_t i = 0; i < n; ++i)
    if (residuals[i] - med > z * scale) over.push_back(i);
  const auto cap = static_cast<size_t>(max_share * static_cast<double>(n));
  if (over.size() > cap) {
    std::sort(over.begin(), over.end(), [&](size_t a, size_t b) { return residuals[a] > residuals[b]; });
    over.resize(cap);
  }
  std::vector<int64_t> out;
  out.reserve(over.size());
  for (size_t i : over) out.push_back(days[i]);
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<RecurringPeak> FindRecurringPeak(const std::vector<int64_t>& peak_days, int64_t first_day,
                                               int64_t as_of) {
  if (peak_days.size() < 2) return std::nullopt;
  std::vector<double> from_end;
  std::vector<int> doms;
  for (int64_t d : peak_days) {
    const MonthDay c = CivilOf(d);
    const int fe = DaysInMonth(c.year, c.month) - c.day;
    if (fe <= 2) from_end.push_back(fe);
    doms.push_back(c.day);
  }
  if (from_end.size() >= 2) {
    RecurringPeak p;
    p.rule = "month-end";
    p.from_end = static_cast<int>(std::lround(Median(from_end)));
    if (Holds(&p, peak_days, first_day, as_of)) return p;
  }
  // The day of the month most peaks fall on, give or take one.
  int best_dom = 0;
  long best_count = 0;
  for (int dom = 1; dom <= 31; ++dom) {
    const long count = std::count_if(doms.begin(), doms.end(), [dom](int d) { return std::abs(d - dom) <= 1; });
    if (count > best_count) {
      best_count = count;
      best_dom = dom;
    }
  }
  if (best_count < 2) return std::nullopt;
  RecurringPeak p;
  p.rule = "day-of-month";
  p.day_of_month = best_dom;
  if (Holds(&p, peak_days, first_day, as_of)) return p;
  return std::nullopt;
}

std::vector<int64_t> RecurringDays(const RecurringPeak& peak, int64_t after, int64_t until) {
  std::vector<int64_t> out;
  for (int key = MonthKey(after); key <= MonthKey(until); ++key) {
    const int64_t d = RuleDay(peak, key);
    if (d > after && d <= until) out.push_back(d);
  }
  return out;
}

}  // namespace vrecon::models::capacity
