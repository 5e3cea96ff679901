#include "models/capacity_demand.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace vrecon::models {
namespace {

struct Covered {
  double seconds = 0, value_seconds = 0;
  TimeNs longest = 0;
  double Mean() const { return value_seconds / seconds; }
};

TimeNs BinOf(TimeNs t) { return FloorTo(t, kDemandBinNs); }

// Spreads each sample over the bins it overlaps, weighted by the overlap.
std::map<TimeNs, Covered> ByBin(const std::vector<Interval>& samples) {
  std::map<TimeNs, Covered> bins;
  for (const Interval& s : samples) {
    if (s.end <= s.start || !std::isfinite(s.value)) continue;
    for (TimeNs b = BinOf(s.start); b < s.end; b += kDemandBinNs) {
      const TimeNs from = std::max(s.start, b), to = std::min(s.end, b + kDemandBinNs);
      if (to <= from) continue;
      const double sec = static_cast<double>(to - from) / kNsPerSec;
      Covered& c = bins[b];
      c.seconds += sec;
      c.value_seconds += s.value * sec;
      c.longest = std::max(c.longest, s.end - s.start);
    }
  }
  return bins;
}

double P95(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<size_t>(std::ceil(0.95 * static_cast<double>(v.size())));
  return v[std::max<size_t>(rank, 1) - 1];
}

}  // namespace

std::vector<DemandBin> FiveMinuteDemand(const std::vector<Interval>& run, const std::vector<Interval>& ready) {
  const std::map<TimeNs, Covered> run_bins = ByBin(run), ready_bins = ByBin(ready);
  const double half = static_cast<double>(kDemandBinNs) / kNsPerSec / 2;
  std::vector<DemandBin> out;
  for (const auto& [start, c] : run_bins) {
    if (c.seconds < half) continue;
    double pct = c.Mean();
    auto r = ready_bins.find(start);
    if (r != ready_bins.end()) pct += r->second.Mean();
    out.push_back({start, pct / 100, static_cast<int32_t>(std::min<TimeNs>(c.longest / kNsPerSec, 1 << 30))});
  }
  return out;
}

std::vector<Interval> FilledFrom(std::vector<Interval> primary, std::vector<Interval> fallback) {
  auto by_start = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  std::sort(primary.begin(), primary.end(), by_start);
  std::sort(fallback.begin(), fallback.end(), by_start);
  // The longest primary sample bounds how far before a fallback sample an overlapping one starts.
  TimeNs longest = 0;
  for (const Interval& p : primary) longest = std::max(longest, p.end - p.start);
  double primary_sum = 0, fallback_sum = 0;
  std::vector<Interval> gaps;
  for (const Interval& f : fallback) {
    if (f.end <= f.start || !std::isfinite(f.value)) continue;
    auto it = std::lower_bound(primary.begin(), primary.end(), Interval{f.start - longest, 0, 0}, by_start);
    double covered = 0, value_seconds = 0;
    for (; it != primary.end() && it->start < f.end; ++it) {
      const TimeNs from = std::max(f.start, it->start), to = std::min(f.end, it->end);
      if (to <= from || !std::isfinite(it->value)) continue;
      const double sec = static_cast<double>(to - from) / kNsPerSec;
      covered += sec;
      value_seconds += it->value * sec;
    }
    const double length = static_cast<double>(f.end - f.start) / kNsPerSec;
    if (covered == 0) {
      gaps.push_back(f);
    } else if (covered >= length * (1 - 1e-9)) {
      primary_sum += value_seconds;
      fallback_sum += f.value * length;
    }
  }
  const double scale = primary_sum > 0 && fallback_sum > 0 ? primary_sum / fallback_sum : 1.0;
  for (Interval& g : gaps) {
    g.value *= scale;
    primary.push_back(g);
  }
  std::sort(primary.begin(), primary.end(), by_start);
  return primary;
}

std::vector<DemandBin> SumOfParts(const std::vector<std::vector<DemandBin>>& parts) {
  std::map<TimeNs, std::pair<DemandBin, size_t>> sums;
  for (const std::vector<DemandBin>& part : parts)
    for (const DemandBin& b : part) {
      auto& [sum, count] = sums[b.start];
      sum.start = b.start;
      sum.cores += b.cores;
      sum.sample_s = std::max(sum.sample_s, b.sample_s);
      ++count;
    }
  std::vector<DemandBin> out;
  for (const auto& [start, sc] : sums)
    if (sc.second == parts.size()) out.push_back(sc.first);
  return out;
}

std::vector<DemandBin> SumOfMembers(const std::vector<std::vector<DemandBin>>& members) {
  std::map<TimeNs, DemandBin> sums;
  for (const std::vector<DemandBin>& member : members)
    for (const DemandBin& b : member) {
      DemandBin& sum = sums[b.start];
      sum.start = b.start;
      sum.cores += b.cores;
      sum.sample_s = std::max(sum.sample_s, b.sample_s);
    }
  std::vector<DemandBin> out;
  out.reserve(sums.size());
  for (const auto& [start, sum] : sums) out.push_back(sum);
  return out;
}

std::vector<DailyDemand> DailyP95(const std::vector<DemandBin>& bins, int min_bins) {
  std::map<int64_t, std::vector<double>> by_day;
  for (const DemandBin& b : bins) by_day[FloorTo(b.start, 86400 * kNsPerSec) / (86400 * kNsPerSec)].push_back(b.cores);
  std::vector<DailyDemand> out;
  for (auto& [day, values] : by_day)
    if (static_cast<int>(values.size()) >= min_bins) out.push_back({day, P95(std::move(values))});
  return out;
}

std::optional<double> P95Since(const std::vector<DemandBin>& bins, TimeNs from) {
  std::vector<double> v;
  for (const DemandBin& b : bins)
    if (b.start >= from) v.push_back(b.cores);
  if (v.empty()) return std::nullopt;
  return P95(std::move(v));
}

}  // namespace vrecon::models
