// /metrics' capacity answers (docs/metrics.md, "Capacity"): `vrecon capacity` with its defaults
// reads every entity's day digests and fits a forecast each, seconds for a large fleet, while its
// answers move by the day; so they are computed at most every few minutes and shared by the
// scrapes in between. A scrape that finds them stale recomputes them while the others answer
// with the previous ones.
#ifndef VRECON_SRC_SERVE_CAPACITY_CACHE_H_
#define VRECON_SRC_SERVE_CAPACITY_CACHE_H_

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "src/engine/capacity_job.h"
#include "src/serve/metrics_snapshot.h"

namespace vrecon::serve {

// The metrics of `vrecon capacity`'s answers: time remaining +inf where a forecast crosses
// nothing within the horizon, absent where there is no forecast or no capacity.
std::vector<CapacityMetric> CapacityMetricsOf(const std::vector<CapacityEntity>& entities);

class CapacityCache {
 public:
  using Clock = std::chrono::steady_clock;
  explicit CapacityCache(Clock::duration max_age) : max_age_(max_age) {}

  // The answers computed within max_age, else computed now from `store` (the day digests are not
  // stored: a scrape only reads). While one caller recomputes, the others get the previous ones.
  StatusOr<std::shared_ptr<const std::vector<CapacityMetric>>> Get(Store* store, Clock::time_point now = Clock::now());

 private:
  const Clock::duration max_age_;
  std::mutex mu_;
  std::shared_ptr<const std::vector<CapacityMetric>> metrics_;  // guarded by mu_
  Clock::time_point computed_at_;                               // guarded by mu_
  bool computing_ = false;                                      // guarded by mu_
};

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_CAPACITY_CACHE_H_
