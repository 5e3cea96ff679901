#include "models/capacity_digest.h"

#include <algorithm>
#include <cmath>

namespace vrecon::models {
int64_t DemandDay::Bins() const { return closed.count() + static_cast<int64_t>(open.size()); }

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

QuantileSketch DemandDay::All() const {
  QuantileSketch h = closed;
  for (const DemandBin& b : open) h.Add(b.cores);
  return h;
}

std::optional<double> DemandDay::P95() const { return All().NearestRank(0.95); }

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
    day.closed.Add(b.cores);
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
  return days;
}

void FoldDay(const DemandDay& fresh, DemandDay* into) {
  into->closed.Merge(fresh.closed);
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
