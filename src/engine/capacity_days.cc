#include "src/engine/capacity_days.h"

#include <algorithm>
#include <limits>

#include "models/capacity_rollups.h"
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

// The days from `from` (a 5-minute boundary) on, digested from the samples that end after it:
// every sample a value from `from` on reads (one begun before `from` gives its part after it).
StatusOr<std::map<TimeNs, models::DemandDay>> DigestFrom(Store* store, BlockReader* reader, const DemandPlan& plan,
                                                         TimeNs from, int64_t block_seen) {
  Samples samples;
  TimeRange range;
  range.from = from;
  BlockReader own(store);
  RETURN_IF_ERROR(ReadSamples(reader ? reader : &own, AllIds(plan), range, &samples));
  TimeNs reach = kEver;
  for (const auto& [id, values] : samples)
    for (const models::Interval& v : values) reach = std::max(reach, v.end);
  if (reach == kEver) return std::map<TimeNs, models::DemandDay>();
  std::vector<models::DemandBin> demand = plan.bins(samples);
  std::erase_if(demand, [from](const models::DemandBin& b) { return b.start < from; });
  const std::vector<models::DemandBin> costop = models::FiveMinuteDemand(Joined(samples, plan.costop_ids), {});
  std::map<TimeNs, models::DemandDay> days = models::DigestDays(demand, costop);
  for (auto& [start, day] : days) {
    day.reach = reach;
    day.block_seen = block_seen;
  }
  return days;
}

// A stored day's digest decoded, with the row's figures the blob does not hold.
StatusOr<models::DemandDay> DecodeStoredDay(const StoredCapacityDay& r) {
  ASSIGN_OR_RETURN(models::DemandDay d, DecodeDemandDay(r.state, r.day));
  d.sample_s = static_cast<int32_t>(r.sample_s);
  d.fine_from = static_cast<int32_t>(r.fine_from);
  return d;
}

// The stored day `day` of the entity, decoded; nullopt when it has none.
StatusOr<std::optional<models::DemandDay>> StoredDay(Store* store, const DemandPlan& plan, TimeNs day,
                                                     const std::optional<models::DemandDay>& last) {
  if (last && last->day == day) return last;
  ASSIGN_OR_RETURN(const std::vector<StoredCapacityDay> rows,
                   LoadCapacityDays(store, plan.entity, plan.source, day, true));
  if (rows.empty() || rows.front().day != day || rows.front().counter != plan.counter)
    return std::optional<models::DemandDay>();
  ASSIGN_OR_RETURN(models::DemandDay d, DecodeStoredDay(rows.front()));
  return std::optional<models::DemandDay>(std::move(d));
}

// The ratios the entity's 5-minute values among `recent` (days with their blobs) show for its
// rollups.
StatusOr<models::RollupScale> RollupScaleOf(const std::vector<StoredCapacityDay>& recent,
                                            const std::set<int>& rollups) {
  std::vector<models::DemandDay> days;
  for (const StoredCapacityDay& r : recent) {
    if (r.fine_from >= models::kBinsPerDay) continue;
    ASSIGN_OR_RETURN(models::DemandDay d, DecodeStoredDay(r));
    days.push_back(std::move(d));
  }
  return models::EstimateRollupScale(days, std::vector<int>(rollups.begin(), rollups.end()));
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
  r.sample_s = d.sample_s;
  r.fine_from = d.fine_from;
  r.state = EncodeDemandDay(d);
  return r;
}

StatusOr<UpdatedDays> UpdateDemandDays(Store* store, const DemandPlan& plan, const DayUpdate& u) {
  const TimeNs kept_day = u.kept_from ? CeilTo(*u.kept_from, kNsPerDay) : kEver;
  UpdatedDays out;
  ASSIGN_OR_RETURN(out.latest, LatestCapacityDays(store, plan.entity, plan.source, u.then_read ? kLatestDays : 1));
  std::optional<models::DemandDay> last;
  if (!out.latest.empty() && out.latest.back().counter == plan.counter) {
    ASSIGN_OR_RETURN(last, DecodeStoredDay(out.latest.back()));
  }
  ASSIGN_OR_RETURN(const std::optional<NewBlocks> fresh, NewBlocksOf(store, AllIds(plan), last ? last->block_seen : 0));
  if (!fresh) return out;
  // The values from the 5-minute boundary before the earliest new sample, or before the latest
  // value (which its samples may not have filled yet), are computed again; those before it stand.
  // A first update, or another way of computing demand, builds every day.
  TimeNs from = last ? FloorTo(std::min(fresh->first_start, last->reach), models::kDemandBinNs) : kEver;
  from = std::max(from, kept_day);  // before it, the samples are gone
  out.from = from == kEver ? kEver : FloorTo(from, kNsPerDay);
  using Days = std::map<TimeNs, models::DemandDay>;
  ASSIGN_OR_RETURN(Days days, DigestFrom(store, u.reader, plan, from, fresh->newest));
  if (from != kEver) {
    ASSIGN_OR_RETURN(std::optional<models::DemandDay> first, StoredDay(store, plan, *out.from, last));
    if (first) {
      auto it = days.find(first->day);
      models::ReplaceFrom(from, it == days.end() ? models::DemandDay{first->day, {}, 0, 0} : it->second, &*first);
      first->block_seen = fresh->newest;
      days[first->day] = std::move(*first);
    }
  }
  for (const auto& [start, day] : days) out.days.push_back(CapacityDayRow(day, plan.counter));
  if (u.persist) {
    // From the latest stored day on, every stored day is among those written: written over.
    if (last && *out.from >= last->day) {
      RETURN_IF_ERROR(UpsertCapacityDays(store, plan.entity, plan.source, out.days));
    } else {
      RETURN_IF_ERROR(ReplaceCapacityDays(store, plan.entity, plan.source, *out.from, out.days));
    }
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
  std::set<int> rollups;
  for (const StoredCapacityDay& r : rows) {
    if (r.bins > 0) h.as_of = std::max(h.as_of.value_or(kEver), r.end);
    if (r.sample_s > models::kFineSampleS) rollups.insert(static_cast<int>(r.sample_s));
  }
  if (!h.as_of) return h;
  ASSIGN_OR_RETURN(const std::vector<StoredCapacityDay> recent, read(FloorTo(*h.as_of - kRecentNs, kNsPerDay), true));
  models::RollupScale scale;
  if (!rollups.empty()) {
    ASSIGN_OR_RETURN(scale, RollupScaleOf(recent, rollups));
    h.rollup_factor = scale.factor;
  }
  auto factor = [&scale](const StoredCapacityDay& r) {
    return models::DayScale(scale, static_cast<int>(r.sample_s), static_cast<int>(r.fine_from));
  };
  for (const StoredCapacityDay& r : rows) {
    if (r.bins < models::kMinBinsPerDay || !r.p95_cores) continue;
    const std::optional<double> f = factor(r);
    if (r.sample_s > models::kFineSampleS) ++(f ? h.rollup_days : h.rollup_days_unscaled);
    h.days.push_back({r.day / kNsPerDay, *r.p95_cores * f.value_or(1.0)});
  }
  std::pair<int64_t, int64_t> costop{0, 0};  // hundredths of a percent, values
  for (const StoredCapacityDay& r : recent) {
    const size_t first = h.recent.size();
    RETURN_IF_ERROR(AppendDayValues(r.state, &h.recent, &costop));
    if (const double f = factor(r).value_or(1.0); f != 1.0)
      for (size_t i = first; i < h.recent.size(); ++i) h.recent[i] = models::ToMilliCores(h.recent[i] / 1000.0 * f);
  }
  const auto [costop_sum, costop_n] = costop;
  if (costop_n > 0) h.recent_costop_pct = static_cast<double>(costop_sum) / static_cast<double>(costop_n) / 100;
  return h;
}

std::set<std::string> CapacityDigestsDue(const std::set<std::string>& vm_keys, TimeNs now,
                                         std::optional<TimeNs> previous_round, TimeNs period) {
  if (!previous_round || now <= *previous_round || now - *previous_round >= period) return vm_keys;
  std::set<std::string> due;
  for (const std::string& key : vm_keys) {
    // FNV-1a: the same place in the period for a key in every run and on every machine.
    uint64_t h = 14695981039346656037ULL;
    for (const char c : key) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    const TimeNs offset = static_cast<TimeNs>(h % static_cast<uint64_t>(period));
    if ((now + offset) / period != (*previous_round + offset) / period) due.insert(key);
  }
  return due;
}

}  // namespace vrecon
