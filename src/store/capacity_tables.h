// Capacity day digests (schema 17, and 19 for where its rollups end; docs/capacity.md "Day
// digests"): per entity (a VM's vm_key, or a host log's host key), source and UTC day, the figures of its 5-minute
// demand (capacity_day) and the digest blob a later update adds to (capacity_day_state, apart: a forecast reads every
// day's figures and a month's blobs; src/engine/capacity_day_codec.h, kept here as bytes).
// Sample retention leaves them: a forecast reads a row a day, for as long as they are kept.
#ifndef VRECON_SRC_STORE_CAPACITY_TABLES_H_
#define VRECON_SRC_STORE_CAPACITY_TABLES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/core/sample.h"
#include "src/store/store.h"

namespace vrecon {

struct StoredCapacityDay {
  TimeNs day = 0;
  std::string counter;  // how the demand was computed: a change means the days are built again
  int64_t bins = 0;
  double sum_cores = 0, max_cores = 0;
  std::optional<double> p95_cores, costop_pct;
  TimeNs end = 0;  // the end of the day's last bin
  // The longest sample its values were read from (s; 0: not known, a store before 19), and the
  // first place from which its values are 5-minute (models::DemandDay).
  int64_t sample_s = 0, fine_from = 0;
  std::string state;  // the digest; empty when read without it
};

// An entity's days from `from_day` on, oldest first; with `with_state` false, only what a
// forecast reads of every day: its day, bins, p95 and end.
StatusOr<std::vector<StoredCapacityDay>> LoadCapacityDays(Store* store, const std::string& entity,
                                                          const std::string& source, TimeNs from_day, bool with_state);
// Its latest `count` days, with the blobs, oldest first.
StatusOr<std::vector<StoredCapacityDay>> LatestCapacityDays(Store* store, const std::string& entity,
                                                            const std::string& source, int count);
// Replaces the entity's days from `from_day` on by `days`. Inside the caller's transaction.
Status ReplaceCapacityDays(Store* store, const std::string& entity, const std::string& source, TimeNs from_day,
                           const std::vector<StoredCapacityDay>& days);
// Writes `days` over the entity's days of the same dates (a round's: its latest day and after).
Status UpsertCapacityDays(Store* store, const std::string& entity, const std::string& source,
                          const std::vector<StoredCapacityDay>& days);

// Every entity with stored days, with its source and how its latest day's demand was computed.
struct CapacityEntityRow {
  std::string entity, source, counter;
};
StatusOr<std::vector<CapacityEntityRow>> CapacityEntities(Store* store);

// What sample blocks newer than `after_block` hold of `series_ids`: the newest block's id and the
// earliest sample start among them; nullopt when there are none.
struct NewBlocks {
  int64_t newest = 0;
  TimeNs first_start = 0;
};
StatusOr<std::optional<NewBlocks>> NewBlocksOf(Store* store, const std::vector<int64_t>& series_ids,
                                               int64_t after_block);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_CAPACITY_TABLES_H_
