// An entity's capacity day digests kept up to date with its samples (src/store/capacity_tables.h,
// models/capacity_digest.h), and the history a forecast reads from them. An update reads only
// what changed: nothing when no sample block of the entity's series is newer than the latest
// day's; the samples from the latest day's open bins on when every new sample starts there (a
// collector's round); else the days from the earliest new sample's on, whole. Days before the
// samples retention kept are never built again: they live on in their digests.
#ifndef VRECON_SRC_ENGINE_CAPACITY_DAYS_H_
#define VRECON_SRC_ENGINE_CAPACITY_DAYS_H_

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/capacity_digest.h"
#include "src/engine/capacity_parts.h"
#include "src/store/capacity_tables.h"

namespace vrecon {

// What an entity's demand is made of.
struct DemandPlan {
  std::string entity, source;
  std::string counter;              // names how demand is computed; a change builds the days again
  std::vector<int64_t> ids;         // every series the demand reads
  std::vector<int64_t> costop_ids;  // co-stop, % summed over vCPUs (VMs)
  // The 5-minute demand of the samples read (models::FiveMinuteDemand's bins).
  std::function<std::vector<models::DemandBin>(const Samples&)> bins;
};

struct DayUpdate {
  bool persist = true;              // false: a read-only store; the days are computed, not written
  bool then_read = true;            // false: no history is read after (the latest day is all it needs)
  std::optional<TimeNs> kept_from;  // samples before this were pruned
  // The run's reader: one for every entity, so that where each range's blocks start in the store
  // is looked up once for the run, not per entity (a fleet round's thousands of VMs).
  BlockReader* reader = nullptr;
};

// The days an update computed, from `from` on (nothing when from is unset): written already when
// persisting, else to be read over the stored ones.
struct UpdatedDays {
  std::optional<TimeNs> from;
  std::vector<StoredCapacityDay> days;
  bool written = false;
  // The latest days stored before the update (a month and two days, with blobs, oldest first):
  // what the history reads of its last 30 days when the update changed nothing.
  std::vector<StoredCapacityDay> latest;
};

// The row a day is stored as (its figures and its digest's blob).
StoredCapacityDay CapacityDayRow(const models::DemandDay& d, const std::string& counter);

StatusOr<UpdatedDays> UpdateDemandDays(Store* store, const DemandPlan& plan, const DayUpdate& u);

// What a forecast and a right size read: each day's p95 (days with at least 12 bins), the end of
// the data, and the bins of the days that overlap its last 30 days; a rollup day's scaled.
struct DemandHistory {
  std::vector<models::DailyDemand> days;
  std::optional<TimeNs> as_of;
  std::vector<int32_t> recent;  // thousandths of a core
  std::optional<double> recent_costop_pct;
  // Days of rollups (docs/capacity.md, "Backfill"): their p95s (and, among the last 30 days,
  // their values) scaled by the ratio its 5-minute days show for their interval (by interval,
  // s), or read as they are when no 5-minute day says (unscaled).
  std::map<int, double> rollup_factor;
  int rollup_days = 0, rollup_days_unscaled = 0;
};

// The history of the entity's days, `unstored` read over the stored ones; with `as_of`, the whole
// UTC days that end by it.
StatusOr<DemandHistory> ReadDemandHistory(Store* store, const DemandPlan& plan, const UpdatedDays& unstored,
                                          std::optional<TimeNs> as_of);

// Which of a fleet round's VMs bring their day digests up to date: each VM once a `period`, at
// a place in it that its key gives, so that a collector running every 5 minutes updates a twelfth
// of its VMs a round and every VM's digests stay at most a period behind its samples (whoever
// reads them, `vrecon capacity`, the report, /metrics, digests the rest first). All of them when
// the previous round is unknown or a period or more before `now`.
std::set<std::string> CapacityDigestsDue(const std::set<std::string>& vm_keys, TimeNs now,
                                         std::optional<TimeNs> previous_round, TimeNs period = kNsPerHour);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CAPACITY_DAYS_H_
