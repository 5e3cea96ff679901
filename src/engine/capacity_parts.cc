#include "src/engine/capacity_parts.h"

#include <algorithm>
#include <cmath>

#include "models/capacity_growth.h"
#include "src/core/text_util.h"
#include "src/engine/capacity_days.h"
#include "src/store/correction_tables.h"

namespace vrecon {

Status ReadSamples(BlockReader* reader, const std::vector<int64_t>& ids, const TimeRange& range, Samples* out) {
  Status s = reader->ForEachOf(ids, range, [out](int64_t id, const SampleBlock& b) {
    std::vector<models::Interval>& v = (*out)[id];
    for (size_t i = 0; i < b.starts.size(); ++i)
      if (!IsMissing(b.values[i])) v.push_back({b.starts[i], b.ends[i], b.values[i]});
  });
  reader->Forget();
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

namespace {

// What a history of rollup days says about the answer (docs/capacity.md, "Backfill").
void RollupFlags(const DemandHistory& h, std::vector<models::Flag>* flags) {
  if (h.rollup_days > 0) {
    std::string by;
    for (const auto& [interval, factor] : h.rollup_factor)
      by += (by.empty() ? "" : ", ") + IntervalName(interval) + " x" + FormatFixed(factor, 2);
    flags->push_back({"rollup-days-scaled", Severity::kInfo,
                      std::to_string(h.rollup_days) +
                          " day(s) of its history are rollups (each value an interval's mean, which reads a lower "
                          "p95): their p95s scaled by the ratio its own 5-minute days show (" +
                          by + ")"});
  }
  if (h.rollup_days_unscaled > 0)
    flags->push_back({"rollup-days-unscaled", Severity::kWarning,
                      std::to_string(h.rollup_days_unscaled) +
                          " day(s) of its history are rollups (each value an interval's mean) and no day of its "
                          "5-minute data says how much higher its p95 runs: those days read low, so the trend may "
                          "read as growth"});
}

}  // namespace

Status AnswerFromPlan(Store* store, const CapacityRequest& req, const DayUpdate& update, const DemandPlan& plan,
                      std::optional<double> capacity_cores, CapacityEntity* e, DemandHistory* history) {
  ASSIGN_OR_RETURN(const UpdatedDays updated, UpdateDemandDays(store, plan, update));
  if (req.digests_only) return Status::Ok();
  DemandHistory own;
  DemandHistory& h = history ? *history : own;
  ASSIGN_OR_RETURN(h, ReadDemandHistory(store, plan, updated, req.as_of));
  if (!h.as_of) return Status::Ok();
  e->as_of = h.as_of;
  const models::Forecast f = models::ForecastDemand(h.days, req.forecast);
  e->history_days = f.history_days;
  e->model = f.model;
  e->forecast = f.days;
  // Given to a ten-thousandth of a core: the digests keep demand to a thousandth, and 17 digits a
  // value made a fleet's JSON twice as long (docs/performance.md, "Capacity").
  for (models::ForecastDay& d : e->forecast)
    for (double* v : {&d.lower, &d.mid, &d.upper}) *v = std::round(*v * 1e4) / 1e4;
  if (req.host_history && e->scope != "vm") {
    e->history = h.days;  // stored days, then those this run computed over them
    std::sort(e->history.begin(), e->history.end(),
              [](const models::DailyDemand& a, const models::DailyDemand& b) { return a.day < b.day; });
  }
  e->demand_p95_cores = models::NearestRankCores(&h.recent, 0.95);
  RollupFlags(h, &e->flags);
  if (!f.sufficient)
    e->flags.push_back({"insufficient-history", Severity::kInfo,
                        std::to_string(f.history_days) + " day(s) with data; a forecast needs " +
                            std::to_string(req.forecast.min_history_days)});
  if (!capacity_cores) return Status::Ok();
  e->capacity_cores = capacity_cores;
  e->usable_cores = models::UsableCores(*capacity_cores, req.buffer_pct);
  e->time_remaining_days = models::TimeRemainingDays(f, h.days, *e->usable_cores, req.risk);
  e->peak_time_remaining_days = models::PeakTimeRemainingDays(f, h.days, *e->usable_cores, req.risk);
  e->capacity_remaining_pct = models::CapacityRemainingPct(f, *e->usable_cores, req.risk);
  return Status::Ok();
}

StatusOr<std::vector<GrowthDriver>> GrowthDriversOf(Store* store, int64_t corr_vm_id, TimeNs as_of) {
  constexpr TimeNs kLookBack = 60 * kNsPerDay;
  ASSIGN_OR_RETURN(const auto days, LoadProcessDays(store, corr_vm_id, FloorTo(as_of, kNsPerDay) - kLookBack, as_of));
  std::map<std::string, std::vector<models::ProcessDay>> by_process;
  for (const auto& [day, procs] : days)
    for (const ProcessAggregate& p : procs)
      if (const std::optional<double> pct = p.MeanCorrected())  // % of one core
        by_process[p.name].push_back({day / kNsPerDay, *pct / 100});
  std::vector<GrowthDriver> out;
  for (const models::ProcessGrowth& g : models::GrowthDrivers(by_process))
    out.push_back({g.process, g.cores_now, g.cores_per_30d});
  return out;
}

}  // namespace vrecon
