#include "models/capacity_digest.h"

#include <algorithm>
#include <bit>
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
  int64_t rank = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(p * static_cast<double>(n))), 1, n);
  // A month's values (about 9,000) are counted into ranges of value first: the range holding the
  // rank is then ordered alone (values of one range are never in another).
  const auto [lo_it, hi_it] = std::minmax_element(milli->begin(), milli->end());
  const uint32_t lo = static_cast<uint32_t>(*lo_it), span = static_cast<uint32_t>(*hi_it) - lo;
  // Ranges of 2^shift values, at most 1,024 of them (a shift, not a division, per value).
  const int shift = std::max(0, static_cast<int>(std::bit_width(span)) - 10);
  auto range_of = [lo, shift](int32_t v) { return static_cast<int64_t>((static_cast<uint32_t>(v) - lo) >> shift); };
  std::vector<int64_t> counts(1024, 0);
  for (int32_t v : *milli) ++counts[static_cast<size_t>(range_of(v))];
  int64_t r = 0;
  while (rank > counts[static_cast<size_t>(r)]) rank -= counts[static_cast<size_t>(r++)];
  const auto in_range = std::partition(milli->begin(), milli->end(), [&](int32_t v) { return range_of(v) == r; });
  auto at = milli->begin() + (rank - 1);
  std::nth_element(milli->begin(), at, in_range);
  return FromMilliCores(*at);
}

double DemandDay::Sum() const {
  int64_t s = 0;
  for (const DayBin& b : bins) s += b.milli;
  return static_cast<double>(s) / 1000;
}

double DemandDay::Max() const {
  int32_t m = 0;
  for (const DayBin& b : bins) m = std::max(m, b.milli);
  return FromMilliCores(m);
}

std::vector<int32_t> DemandDay::Values() const {
  std::vector<int32_t> v;
  v.reserve(bins.size());
  for (const DayBin& b : bins) v.push_back(b.milli);
  return v;
}

std::optional<double> DemandDay::P95() const {
  std::vector<int32_t> v = Values();
  return NearestRankCores(&v, 0.95);
}

TimeNs DemandDay::End() const { return bins.empty() ? 0 : day + (bins.back().index + 1) * kDemandBinNs; }

std::pair<int64_t, int64_t> DemandDay::CostopSum() const {
  int64_t sum = 0, n = 0;
  for (const DayBin& b : bins)
    if (b.costop >= 0) {
      sum += b.costop;
      ++n;
    }
  return {sum, n};
}

std::optional<double> DemandDay::CostopPct() const {
  const auto [sum, n] = CostopSum();
  if (n == 0) return std::nullopt;
  return static_cast<double>(sum) / static_cast<double>(n) / 100;
}

std::map<TimeNs, DemandDay> DigestDays(const std::vector<DemandBin>& demand, const std::vector<DemandBin>& costop) {
  std::map<TimeNs, DemandDay> days;
  std::map<TimeNs, int32_t> costop_at;  // bin start -> hundredths of a percent
  for (const DemandBin& c : costop)
    costop_at[c.start] = static_cast<int32_t>(std::lround(std::clamp(c.cores * 1e4, 0.0, 2e9)));
  for (const DemandBin& b : demand) {
    const TimeNs d = FloorTo(b.start, kNsPerDay);
    DemandDay& day = days[d];
    day.day = d;
    DayBin bin;
    bin.index = static_cast<int>((b.start - d) / kDemandBinNs);
    bin.milli = ToMilliCores(b.cores);
    if (auto it = costop_at.find(b.start); it != costop_at.end()) bin.costop = it->second;
    day.bins.push_back(bin);
    day.sample_s = std::max(day.sample_s, b.sample_s);
    if (b.sample_s > kFineSampleS) day.fine_from = std::max(day.fine_from, bin.index + 1);
  }
  for (auto& [start, day] : days)
    std::sort(day.bins.begin(), day.bins.end(), [](const DayBin& a, const DayBin& b) { return a.index < b.index; });
  return days;
}

void ReplaceFrom(TimeNs from, const DemandDay& fresh, DemandDay* day) {
  const auto first = static_cast<int>(std::clamp<TimeNs>((from - day->day) / kDemandBinNs, 0, kBinsPerDay));
  std::erase_if(day->bins, [first](const DayBin& b) { return b.index >= first; });
  for (const DayBin& b : fresh.bins)
    if (b.index >= first) day->bins.push_back(b);
  day->sample_s = first == 0 ? fresh.sample_s : std::max(day->sample_s, fresh.sample_s);
  // Rollups among the fresh values: from after the last of them; else the kept values' 5-minute
  // run, reaching up to `first` when it does.
  day->fine_from = fresh.fine_from > first ? fresh.fine_from : std::min(day->fine_from, first);
  day->reach = std::max(day->reach, fresh.reach);
  day->block_seen = std::max(day->block_seen, fresh.block_seen);
}

}  // namespace vrecon::models
