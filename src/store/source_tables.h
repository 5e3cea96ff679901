// The scheduled collector's (src/fleet/) bookkeeping in the store (migration 4): one status row per source
// (vCenter or drop folder) and the (size, mtime) of each drop-folder file last ingested.
#ifndef VRECON_SRC_STORE_SOURCE_TABLES_H_
#define VRECON_SRC_STORE_SOURCE_TABLES_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/core/time_util.h"
#include "src/store/store.h"

namespace vrecon {

// This process as a collector: "host:pid".
std::string ThisCollector();

struct SourceStatus {
  std::string source;  // the vCenter's name or URL, the drop folder's path
  std::string kind;    // "vcenter" | "drop_folder"
  std::optional<TimeNs> last_attempt, last_success;
  std::optional<TimeNs> newest_data;    // newest sample end stored from it; lag = now - this
  int64_t rows_added = 0;               // by the last attempt
  int64_t rows_total = 0;               // by every attempt of the collector
  int64_t failures = 0;                 // consecutive failed rounds (0: the last one succeeded)
  std::optional<int> round_interval_s;  // of the collector (--every); unset for --once
  std::string last_error;               // the newest error, kept after a recovery
  std::optional<TimeNs> last_error_at;
  int64_t rollups_due = 0;  // vCenter: VMs whose 300 s rollup range is still to be stored (retried each round)
  std::string collector;    // "host:pid" of the collector that ran the last attempt ("" before schema 9)
};

// One round's outcome for a source: `error` empty means success.
struct Attempt {
  std::string source, kind;
  TimeNs at = 0;
  std::optional<TimeNs> newest_data;
  int64_t rows_added = 0;
  std::optional<int> round_interval_s;
  std::string error;
  int64_t rollups_due = 0;
  std::string collector = ThisCollector();
};

Status RecordAttempt(Store* store, const Attempt& a);

// Claims `source` (a vCenter URL, a drop folder) for this collector until ReleaseSource or until
// the store is closed, so that collectors sharing a PostgreSQL store never collect one source at
// once. Returns who holds it ("host:pid since TIME") when another collector does. On SQLite it
// always succeeds: the collector holds the whole store's lock file (src/fleet/store_lock.h).
StatusOr<std::optional<std::string>> ClaimSource(Store* store, const std::string& source);
// Ends this connection's claim of `source` (the connection stays open for other work).
Status ReleaseSource(Store* store, const std::string& source);
StatusOr<std::vector<SourceStatus>> SourceStatuses(Store* store);

struct DropFileMark {
  int64_t size = 0;
  TimeNs mtime = 0;
};
StatusOr<std::map<std::string, DropFileMark>> DropFileMarks(Store* store, const std::string& folder);
Status SetDropFileMark(Store* store, const std::string& path, const DropFileMark& mark, TimeNs now);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_SOURCE_TABLES_H_
