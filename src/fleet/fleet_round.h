// One collection round over the whole fleet: every source collected independently (a failing
// vCenter or folder does not stop the others), at most `parallel_sources` at once, transient
// faults retried with backoff, each outcome recorded in source_status; then the correction
// and Ready-Time results for the new windows are stored.
#ifndef VRECON_SRC_FLEET_FLEET_ROUND_H_
#define VRECON_SRC_FLEET_FLEET_ROUND_H_

#include <atomic>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/fleet/fleet_config.h"
#include "src/fleet/fleet_log.h"
#include "src/store/store.h"

namespace vrecon::fleet {

struct SourceOutcome {
  std::string source, kind;
  bool ok = false;
  int attempts = 0;
  int64_t rows = 0;    // samples (vCenter) or rows (files) stored
  std::string detail;  // "40 VMs" / "3 files ingested, 1 waiting"
  std::string error;
  std::optional<TimeNs> first_new_end, last_new_end;
  // The VMs (vm_keys) whose samples it stored; unset when it cannot tell (a drop folder's logs
  // may be any VM's guest or host side), so the round recomputes every VM.
  std::optional<std::set<std::string>> vm_keys;
  int rollups_due = 0;  // vCenter: VMs whose planned 300 s rollup range is still not stored
  std::string claim;    // what collectors sharing a store claim: the vCenter's URL, the folder's path
  std::string held_by;  // another collector held the source (a shared store): skipped, not failed
  double seconds = 0;
};

struct RoundResult {
  TimeNs started = 0;
  double seconds = 0;
  std::vector<SourceOutcome> sources;
  int64_t windows_stored = 0;
  std::string correction_error;                 // empty when the corrections were stored (or nothing was new)
  int64_t pruned_rows = 0, pruned_windows = 0;  // retention (retain_samples / retain_corrections)
  std::string retention_error;                  // empty when retention succeeded or is not set
  bool stopped = false;                         // a stop signal cut the round short
  bool ok() const;                              // every source and the correction step succeeded
};

struct RoundContext {
  const FleetConfig* config = nullptr;
  std::string db;  // the store (its schema already migrated)
  Logger* log = nullptr;
  const std::atomic<bool>* stop = nullptr;
  std::optional<int> round_interval_s;  // recorded with each status row (--every)
  // The runner's own connection, kept between rounds for the corrections and retention (the
  // sources open theirs: a PostgreSQL source claim lasts as long as its connection). Opened by
  // the round when empty, opened again when it no longer answers. Null: the round's own.
  std::unique_ptr<Store>* store = nullptr;
  // When the collector's previous round started (this run's, else the newest attempt on record):
  // which VMs' capacity digests the round brings up to date (CapacityDigestsDue). Unset: all.
  std::optional<TimeNs> previous_round;
};

// Never fails as a whole: a store that cannot be opened is every source's error.
RoundResult RunRound(const RoundContext& ctx);

}  // namespace vrecon::fleet

#endif  // VRECON_SRC_FLEET_FLEET_ROUND_H_
