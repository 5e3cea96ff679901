#include "src/engine/capacity_days.h"

#include <algorithm>
#include <limits>

#include "src/core/time_util.h"
#include "src/engine/capacity_day_codec.h"

namespace vrecon {
namespace {

constexpr TimeNs kEver = std::numeric_limits<TimeNs>::min();
constexpr TimeNs kRecentNs = 30 * kNsPerDay;
// The days read before an update: its latest, and what the last 30 days can touch (31 days).
constexpr int kLatestDays = 32;

std::vector<int64_t> AllIds(const DemandPlan& plan) {
  std::vector<int64_t> ids = plan.ids;
  ids.insert(ids.end(), plan.costop_ids.begin(), plan.costop_ids.end());
  return ids;
}

// The days from `from` (a bin boundary) on, digested from the samples that end after it: a
// sample begun before `from` gives its part after it to the bins, and its co-stop stays with the
// day it began in (digested already).
StatusOr<std::map<TimeNs, models::DemandDay>> DigestFrom(Store* store, const DemandPlan& plan, TimeNs from,
                                                         int64_t block_seen) {
  Samples samples;
  TimeRange range;
  range.from = from;
  RETURN_IF_ERROR(ReadSamples(store, AllIds(plan), range, &samples));
  TimeNs reach = kEver;
  for (const auto& [id, values] : samples)
    for (const models::Interval& v : values) reach = std::max(reach, v.end);
  if (reach == kEver) return std::map<TimeNs, models::DemandDay>();
  std::vector<models::DemandBin> bins = plan.bins(samples);
  std::erase_if(bins, [from](const models::DemandBin& b) { return b.start < from; });
  std::vector<models::Interval> costop = Joined(samples, plan.costop_ids);
  std::erase_if(costop, [from](const models::Interval& v) { return v.start < from; });
  std::map<TimeNs, models::DemandDay> days = models::DigestDays(bins, costop, models::OpenFrom(reach));
  for (auto& [start, day] : days) {
    day.reach = reach;
    day.block_seen = block_seen;
  }
  return days;
}

}  // namespace

StoredCapacityDay CapacityDayRow(const models::DemandDay& d, const std::string& counter) {
  StoredCapacityDay r;
  r.day = d.day;
  r.counter = counter;
  r.bins = d.Bins();
  r.sum_cores = d.Sum();
  r.max_cores = d.Max();
  r.p95_cores = d.P95();
  r.end = d.End();
  r.costop_pct = d.CostopPct();
  r.state = EncodeDemandDay(d);
  return r;
}

StatusOr<UpdatedDays> UpdateDemandDays(Store* store, const DemandPlan& plan, const DayUpdate& u) {
  const TimeNs kept_day = u.kept_from ? CeilTo(*u.kept_from, kNsPerDay) : kEver;
  UpdatedDays out;
  ASSIGN_OR_RETURN(out.latest, LatestCapacityDays(store, plan.entity, plan.source, u.then_read ? kLatestDays : 1));
  std::optional<models::DemandDay> last;
  if (!out.latest.empty() && out.latest.back().counter == plan.counter) {
    ASSIGN_OR_RETURN(last, DecodeDemandDay(out.latest.back().state, out.latest.back().day));
  }
  ASSIGN_OR_RETURN(const std::optional<NewBlocks> fresh, NewBlocksOf(store, AllIds(plan), last ? last->block_seen : 0));
  if (!fresh) return out;
  std::map<TimeNs, models::DemandDay> days;
  if (last && fresh->first_start >= last->open_from) {
    // Every new sample starts in the open bins or later: the closed ones stand.
    ASSIGN_OR_RETURN(days, DigestFrom(store, plan, last->open_from, fresh->newest));
    models::DemandDay folded = *last;
    if (auto it = days.find(last->day); it != days.end()) models::FoldDay(it->second, &folded);
    folded.block_seen = fresh->newest;
    days[last->day] = std::move(folded);
    out.from = last->day;
  } else {
    // A first update, another way of computing demand, or samples among the closed bins (a log
    // ingested late): the days from the earliest new sample's on are built whole.
    out.from = std::max(last ? FloorTo(fresh->first_start, kNsPerDay) : kEver, kept_day);
    ASSIGN_OR_RETURN(days, DigestFrom(store, plan, *out.from, fresh->newest));
  }
  for (const auto& [start, day] : days) out.days.push_back(CapacityDayRow(day, plan.counter));
  if (u.persist) {
    RETURN_IF_ERROR(ReplaceCapacityDays(store, plan.entity, plan.source, *out.from, out.days));
    out.written = true;
  }
  return out;
}

StatusOr<DemandHistory> ReadDemandHistory(Store* store, const DemandPlan& plan, const UpdatedDays& unstored,
                                          std::optional<TimeNs> as_of) {
  const bool overlay = unstored.from && !unstored.written;
  // The days with blobs from `from` on are those read before the update when it changed nothing
  // and they reach back that far.
  const bool latest_whole = unstored.latest.size() < static_cast<size_t>(kLatestDays);  // every day stored
  auto read = [&](TimeNs from, bool with_state) -> StatusOr<std::vector<StoredCapacityDay>> {
    std::vector<StoredCapacityDay> rows;
    if (with_state && !unstored.from && (latest_whole || unstored.latest.front().day <= from)) {
      for (const StoredCapacityDay& r : unstored.latest)
        if (r.day >= from) rows.push_back(r);
    } else {
      ASSIGN_OR_RETURN(rows, LoadCapacityDays(store, plan.entity, plan.source, from, with_state));
    }
    if (overlay) {
      std::erase_if(rows, [&](const StoredCapacityDay& r) { return r.day >= *unstored.from; });
      for (const StoredCapacityDay& r : unstored.days)
        if (r.day >= from) rows.push_back(r);
    }
    if (as_of) std::erase_if(rows, [&](const StoredCapacityDay& r) { return r.day + kNsPerDay > *as_of; });
    return rows;
  };
  DemandHistory h;
  ASSIGN_OR_RETURN(const std::vector<StoredCapacityDay> rows, read(kEver, false));
  for (const StoredCapacityDay& r : rows) {
    if (r.bins >= models::kMinBinsPerDay && r.p95_cores) h.days.push_back({r.day / kNsPerDay, *r.p95_cores});
    if (r.bins > 0) h.as_of = std::max(h.as_of.value_or(kEver), r.end);
  }
  if (!h.as_of) return h;
  ASSIGN_OR_RETURN(const std::vector<StoredCapacityDay> recent, read(FloorTo(*h.as_of - kRecentNs, kNsPerDay), true));
  double costop_pct_s = 0, costop_s = 0;
  for (const StoredCapacityDay& r : recent) {
    ASSIGN_OR_RETURN(const models::DemandDay d, DecodeDemandDay(r.state, r.day));
    const std::vector<int32_t> all = d.All();
    h.recent.insert(h.recent.end(), all.begin(), all.end());
    costop_pct_s += d.closed_costop_pct_s + d.open_costop_pct_s;
    costop_s += d.closed_costop_s + d.open_costop_s;
  }
  if (costop_s > 0) h.recent_costop_pct = costop_pct_s / costop_s;
  return h;
}

}  // namespace vrecon
