// Each VM's latest complete window, with its processes' own values (schema migration 12): what
// `vrecon serve` exports to Prometheus, read in one query however many days are kept. The hour
// aggregates (corr_process_hour) keep only sums, so a window's processes are kept here once.
#ifndef VRECON_SRC_STORE_LATEST_WINDOW_H_
#define VRECON_SRC_STORE_LATEST_WINDOW_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "src/core/status.h"
#include "src/core/time_util.h"
#include "src/store/correction_tables.h"
#include "src/store/store.h"

namespace vrecon {

// A window is complete when each side covers at least this share of it (the correction's
// minimum coverage: w is known).
inline constexpr double kCompleteCoverage = 0.8;
bool IsCompleteWindow(const StoredWindow& w);

struct LatestWindow {
  CorrVm vm;
  StoredWindow window;
  // The window's processes, largest guest % first: n_guest and n_corr are 0 or 1, the sums the
  // values themselves.
  std::vector<ProcessAggregate> processes;
};

// Keeps `w` as the VM's latest complete window when it starts at or after the one stored, or
// when the one stored starts in [recomputed_from, recomputed_to) (it was just computed again).
// The caller holds a transaction.
Status PutLatestWindow(Store* store, int64_t vm_id, const StoredWindow& w, const std::vector<ProcessAggregate>& procs,
                       TimeNs recomputed_from, TimeNs recomputed_to);

// Calls fn for every VM that has a latest complete window, ordered by VM name and key; stops at
// the first error fn returns. A corrupt row is a ParseError naming the VM.
Status ForEachLatestWindow(Store* store, const std::function<Status(const LatestWindow&)>& fn);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_LATEST_WINDOW_H_
