#include "models/capacity_rollups.h"

#include <algorithm>

namespace vrecon::models {

RollupScale EstimateRollupScale(const std::vector<DemandDay>& days, const std::vector<int>& intervals) {
  struct Value {
    TimeNs start;
    int32_t milli;
  };
  std::vector<Value> fine;
  for (const DemandDay& day : days)
    for (const DayBin& b : day.bins)
      if (b.index >= day.fine_from) fine.push_back({day.day + b.index * kDemandBinNs, b.milli});
  RollupScale scale;
  scale.fine_values = static_cast<int>(fine.size());
  if (scale.fine_values < kMinFineValues) return scale;
  std::vector<int32_t> values;
  values.reserve(fine.size());
  for (const Value& v : fine) values.push_back(v.milli);
  const std::optional<double> p95 = NearestRankCores(&values, 0.95);
  for (int interval : intervals) {
    const TimeNs step = std::max<TimeNs>(kDemandBinNs, interval * kNsPerSec);
    std::map<TimeNs, std::pair<int64_t, int64_t>> blocks;  // block start -> sum, count
    for (const Value& v : fine) {
      auto& [sum, n] = blocks[FloorTo(v.start, step)];
      sum += v.milli;
      ++n;
    }
    std::vector<int32_t> averaged;
    averaged.reserve(fine.size());
    for (const Value& v : fine) {
      const auto& [sum, n] = blocks[FloorTo(v.start, step)];
      averaged.push_back(static_cast<int32_t>((sum + n / 2) / n));
    }
    const std::optional<double> coarse = NearestRankCores(&averaged, 0.95);
    if (p95 && coarse && *coarse > 0) scale.factor[interval] = std::max(1.0, *p95 / *coarse);
  }
  return scale;
}

std::optional<double> DayScale(const RollupScale& scale, int sample_s, int fine_from) {
  if (sample_s <= kFineSampleS) return 1.0;
  auto f = scale.factor.find(sample_s);
  if (f == scale.factor.end()) return std::nullopt;
  const double coarse_share = std::clamp(static_cast<double>(fine_from) / kBinsPerDay, 0.0, 1.0);
  return 1 + (f->second - 1) * coarse_share;
}

}  // namespace vrecon::models
