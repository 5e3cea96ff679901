#include "src/serve/capacity_cache.h"

#include <limits>

namespace vrecon::serve {

std::vector<CapacityMetric> CapacityMetricsOf(const std::vector<CapacityEntity>& entities) {
  std::vector<CapacityMetric> out;
  out.reserve(entities.size());
  for (const CapacityEntity& e : entities) {
    CapacityMetric m{e.scope, e.name, e.key, e.source, e.usable_cores, e.demand_p95_cores, std::nullopt};
    if (e.time_remaining_days) m.time_remaining_days = *e.time_remaining_days;
    else if (e.usable_cores && !e.forecast.empty()) m.time_remaining_days = std::numeric_limits<double>::infinity();
    out.push_back(std::move(m));
  }
  return out;
}

StatusOr<std::shared_ptr<const std::vector<CapacityMetric>>> CapacityCache::Get(Store* store, Clock::time_point now) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (metrics_ && (computing_ || now - computed_at_ < max_age_)) return metrics_;
    computing_ = true;
  }
  CapacityRequest req;
  req.keep_digests = false;
  StatusOr<std::vector<CapacityEntity>> entities = RunCapacity(store, req);
  std::lock_guard<std::mutex> lock(mu_);
  computing_ = false;
  if (!entities.ok()) return entities.status();
  metrics_ = std::make_shared<const std::vector<CapacityMetric>>(CapacityMetricsOf(*entities));
  computed_at_ = now;
  return metrics_;
}

}  // namespace vrecon::serve
