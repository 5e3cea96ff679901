// Retention (`vrecon prune`, fleet keys retain_samples / retain_corrections): removes samples
// and stored corrections older than a cutoff, and remembers how far back each was removed
// (table store_pruned) so that reports can say their older windows come from stored
// corrections and recomputing never replaces corrections whose samples are gone.
// docs/storage.md "Retention".
#ifndef VRECON_SRC_STORE_RETENTION_H_
#define VRECON_SRC_STORE_RETENTION_H_

#include <cstdint>
#include <optional>

#include "src/core/time_util.h"
#include "src/store/store.h"

namespace vrecon {

struct PruneRequest {
  // Remove the sample blocks whose last sample ended before this (blocks of 256 rows: a block
  // that straddles the cutoff stays whole). Source file rows, import issues and collection
  // marks stay, so a pruned file is not ingested again and a collector does not fetch it again.
  std::optional<TimeNs> samples_before;
  // Remove the stored correction windows that ended before this, and their process hours.
  // Ready-Time summaries and the VMs' rows stay.
  std::optional<TimeNs> corrections_before;
  bool dry_run = false;  // count what would go; change nothing
  TimeNs now = 0;        // recorded as when it was pruned
};

struct PruneResult {
  int64_t time_blocks = 0;         // sample blocks (timestamps of up to 256 rows each)
  int64_t sample_rows = 0;         // their rows (one timestamp with a value per series)
  int64_t partitions_dropped = 0;  // PostgreSQL: whole months of value blocks dropped
  int64_t windows = 0;             // stored correction windows
  int64_t process_hours = 0;       // stored hourly process aggregates (rows of per-VM hours)
};

// What "keep `keep`" removes before: `now - keep`, down to the start of its UTC day, so that a
// prune run every round moves the cutoff once a day and whole hours and days go together.
TimeNs RetentionCutoff(TimeNs now, TimeNs keep);

// One transaction; on PostgreSQL, under a lock that makes two prunes run one after the other.
StatusOr<PruneResult> Prune(Store* store, const PruneRequest& req);

struct PruneHorizon {
  std::optional<TimeNs> samples_before, samples_pruned_at;
  std::optional<TimeNs> corrections_before, corrections_pruned_at;
};
// How far back the store has been pruned (nothing set: never).
StatusOr<PruneHorizon> PrunedBefore(Store* store);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_RETENTION_H_
