#include "src/engine/capacity_parts.h"

namespace vrecon {

Status ReadSamples(Store* store, const std::vector<int64_t>& ids, const TimeRange& range, Samples* out) {
  BlockReader reader(store);
  Status s = reader.ForEachOf(ids, range, [out](int64_t id, const SampleBlock& b) {
    std::vector<models::Interval>& v = (*out)[id];
    for (size_t i = 0; i < b.starts.size(); ++i)
      if (!IsMissing(b.values[i])) v.push_back({b.starts[i], b.ends[i], b.values[i]});
  });
  reader.Forget();
  return s;
}

std::vector<models::Interval> Joined(const Samples& samples, const std::vector<int64_t>& ids, double scale) {
  std::vector<models::Interval> out;
  for (int64_t id : ids)
    if (auto it = samples.find(id); it != samples.end())
      for (models::Interval v : it->second) {
        v.value *= scale;
        out.push_back(v);
      }
  return out;
}

void AnswerFromDemand(const CapacityRequest& req, const std::vector<models::DemandBin>& bins,
                      std::optional<double> capacity_cores, CapacityEntity* e) {
  if (bins.empty()) return;
  e->as_of = bins.back().start + models::kDemandBinNs;
  const std::vector<models::DailyDemand> days = models::DailyP95(bins);
  const models::Forecast f = models::ForecastDemand(days, req.forecast);
  e->history_days = f.history_days;
  e->model = f.model;
  e->forecast = f.days;
  e->demand_p95_cores = models::P95Since(bins, *e->as_of - 30 * 86400 * kNsPerSec);
  if (!f.sufficient)
    e->flags.push_back({"insufficient-history", Severity::kInfo,
                        std::to_string(f.history_days) + " day(s) with data; a forecast needs " +
                            std::to_string(req.forecast.min_history_days)});
  if (!capacity_cores) return;
  e->capacity_cores = capacity_cores;
  e->usable_cores = models::UsableCores(*capacity_cores, req.buffer_pct);
  e->time_remaining_days = models::TimeRemainingDays(f, days, *e->usable_cores, req.risk);
  e->peak_time_remaining_days = models::PeakTimeRemainingDays(f, days, *e->usable_cores, req.risk);
  e->capacity_remaining_pct = models::CapacityRemainingPct(f, *e->usable_cores, req.risk);
}

}  // namespace vrecon
