// What `vrecon serve` exports on /metrics (docs/metrics.md), read from the store in a few
// queries: each VM's latest complete window (src/store/latest_window.h) with its top processes,
// its Ready-Time summaries' wait per dispatch, and each collection source's status.
#ifndef VRECON_SRC_SERVE_METRICS_SNAPSHOT_H_
#define VRECON_SRC_SERVE_METRICS_SNAPSHOT_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/store/correction_tables.h"
#include "src/store/source_tables.h"
#include "src/store/store.h"

namespace vrecon::serve {

struct DispatchWait {
  std::string source;                     // the Ready-Time summary's source (vsphere, esxtop, ...)
  std::optional<double> mean_us, p95_us;  // wait per dispatch over the stored period, microseconds
};

struct VmMetrics {
  CorrVm vm;
  StoredWindow window;
  std::vector<ProcessAggregate> processes;  // the top ones, largest corrected (else guest) first
  std::vector<DispatchWait> dispatch;
};

// One capacity entity's answers with `vrecon capacity`'s defaults (src/serve/capacity_cache.h).
struct CapacityMetric {
  std::string scope, name, key, source;
  std::optional<double> usable_cores, demand_p95_cores;
  std::optional<double> time_remaining_days;  // +inf: a forecast that does not cross within the horizon
};

struct MetricsSnapshot {
  std::vector<VmMetrics> vms;
  // Computed every few minutes, not per scrape (capacity_cache.h); null: not computed.
  std::shared_ptr<const std::vector<CapacityMetric>> capacity;
  std::vector<SourceStatus> sources;
  std::string version, commit;  // of the vrecon serving them (vrecon_build_info); "" leaves it out
};

// `top`: processes kept per VM (0: none).
StatusOr<MetricsSnapshot> ReadMetricsSnapshot(Store* store, int top);

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_METRICS_SNAPSHOT_H_
