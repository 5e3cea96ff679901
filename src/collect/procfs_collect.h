// `vrecon collect procfs`: samples /proc at an interval (adapters/linux_proc) and records the
// rows into the store (one transaction per flush) or into a PDH-CSV 4.0 file.
#ifndef VRECON_SRC_COLLECT_PROCFS_COLLECT_H_
#define VRECON_SRC_COLLECT_PROCFS_COLLECT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "adapters/linux_proc/proc_sampler.h"
#include "src/store/store.h"

namespace vrecon {

struct ProcfsCollectOptions {
  double interval_s = 15;
  std::optional<double> duration_s;      // stop after this long
  std::optional<int64_t> count;          // or after this many rows (samples after the priming one)
  int flush_rows = 20;                   // store mode: rows per transaction
  std::string out;                       // PDH-CSV file instead of the store
  linux_proc::FileSystem* fs = nullptr;  // default: the real /proc
  std::string proc = "/proc";
  std::string machine;                      // default: the host name
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: finish the flush and return
  std::function<void(int64_t done, std::optional<int64_t> total)> progress;
};

struct ProcfsCollectResult {
  std::string machine;
  int64_t rows = 0;
  int64_t columns_max = 0;
  int64_t flushes = 0;
  int64_t processes_last = 0;
  std::optional<TimeNs> first_end, last_end;
  bool stopped = false;  // ended by the stop flag
};

// The store the rows go into, asked for at the first flush: a store that does not exist yet is
// published only then, when there are rows for it (src/store/staged_store.h).
using StoreOpener = std::function<StatusOr<Store*>()>;

// open_store is called when options.out is empty.
StatusOr<ProcfsCollectResult> CollectProcfs(const StoreOpener& open_store, const ProcfsCollectOptions& options);

// UTC - local in minutes at `t`, and the local zone's name (tm_zone), from the C library.
struct LocalZone {
  std::string name;
  int bias_minutes = 0;
};
LocalZone LocalZoneAt(TimeNs utc);

}  // namespace vrecon

#endif  // VRECON_SRC_COLLECT_PROCFS_COLLECT_H_
