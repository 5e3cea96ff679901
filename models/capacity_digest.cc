#include "models/capacity_digest.h"

#include <algorithm>
#include <cmath>

namespace vrecon::models {
int32_t ToMilliCores(double cores) {
  if (!(cores > 0)) return 0;
  return static_cast<int32_t>(std::lround(std::min(cores, 2e6) * 1000));
}

double FromMilliCores(int32_t milli) { return milli / 1000.0; }

std::optional<double> NearestRankCores(std::vector<int32_t>* milli, double p) {
  if (milli->empty()) return std::nullopt;
  const auto n = static_cast<int64_t>(milli->size());
  const int64_t rank = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(p * static_cast<double>(n))), 1, n);
  auto at = milli->begin() + (rank - 1);
  std::nth_element(milli->begin(), at, milli->end());
  return FromMilliCores(*at);
}

int64_t DemandDay::Bins() const { return static_cast<int64_t>(closed.size() + open.size()); }

double DemandDay::Sum() const {
  double s = closed_sum;
  for (const DemandBin& b : open) s += b.cores;
  return s;
}

double DemandDay::Max() const {
  double m = closed_max;
  for (const DemandBin& b : open) m = std::max(m, b.cores);
  return m;
}

std::vector<int32_t> DemandDay::All() const {
  std::vector<int32_t> all = closed;
  for (const DemandBin& b : open) all.push_back(ToMilliCores(b.cores));
  return all;
}

std::optional<double> DemandDay::P95() const {
  std::vector<int32_t> all = All();
  return NearestRankCores(&all, 0.95);
}

TimeNs DemandDay::End() const { return open.empty() ? closed_end : open.back().start + kDemandBinNs; }

std::optional<double> DemandDay::CostopPct() const {
  const double s = closed_costop_s + open_costop_s;
  if (s <= 0) return std::nullopt;
  return (closed_costop_pct_s + open_costop_pct_s) / s;
}

TimeNs OpenFrom(TimeNs reach) { return FloorTo(reach, kDemandBinNs); }

std::map<TimeNs, DemandDay> DigestDays(const std::vector<DemandBin>& bins, const std::vector<Interval>& costop,
                                       TimeNs open_from) {
  std::map<TimeNs, DemandDay> days;
  auto day_of = [&days, open_from](TimeNs t) -> DemandDay& {
    const TimeNs d = FloorTo(t, kNsPerDay);
    DemandDay& day = days[d];
    day.day = d;
    day.open_from = std::clamp(open_from, d, d + kNsPerDay);
    return day;
  };
  for (const DemandBin& b : bins) {
    DemandDay& day = day_of(b.start);
    if (b.start >= open_from) {
      day.open.push_back(b);
      continue;
    }
    day.closed.push_back(ToMilliCores(b.cores));
    day.closed_sum += b.cores;
    day.closed_max = std::max(day.closed_max, b.cores);
    day.closed_end = std::max(day.closed_end, b.start + kDemandBinNs);
  }
  for (const Interval& v : costop) {
    if (v.end <= v.start || !std::isfinite(v.value)) continue;
    DemandDay& day = day_of(v.start);
    const double s = static_cast<double>(v.end - v.start) / kNsPerSec;
    (v.start >= open_from ? day.open_costop_pct_s : day.closed_costop_pct_s) += v.value * s;
    (v.start >= open_from ? day.open_costop_s : day.closed_costop_s) += s;
  }
  for (auto& [start, day] : days) std::sort(day.closed.begin(), day.closed.end());
  return days;
}

void FoldDay(const DemandDay& fresh, DemandDay* into) {
  const auto middle = static_cast<std::ptrdiff_t>(into->closed.size());
  into->closed.insert(into->closed.end(), fresh.closed.begin(), fresh.closed.end());
  std::inplace_merge(into->closed.begin(), into->closed.begin() + middle, into->closed.end());
  into->closed_sum += fresh.closed_sum;
  into->closed_max = std::max(into->closed_max, fresh.closed_max);
  into->closed_end = std::max(into->closed_end, fresh.closed_end);
  into->open = fresh.open;
  into->open_from = fresh.open_from;
  into->closed_costop_pct_s += fresh.closed_costop_pct_s;
  into->closed_costop_s += fresh.closed_costop_s;
  into->open_costop_pct_s = fresh.open_costop_pct_s;
  into->open_costop_s = fresh.open_costop_s;
  into->reach = std::max(into->reach, fresh.reach);
  into->block_seen = std::max(into->block_seen, fresh.block_seen);
}

}  // namespace vrecon::models
