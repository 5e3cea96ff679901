// /metrics: a MetricsSnapshot in Prometheus' text format. Every family and label is described in
// docs/metrics.md. A value the store does not have is left out, never written as 0.
#ifndef VRECON_SRC_SERVE_METRICS_TEXT_H_
#define VRECON_SRC_SERVE_METRICS_TEXT_H_

#include <string>

#include "src/serve/metrics_snapshot.h"

namespace vrecon::serve {

// Appends the exposition to `out`. `read_seconds`: how long reading the snapshot took.
void RenderMetrics(const MetricsSnapshot& snapshot, double read_seconds, std::string* out);

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_METRICS_TEXT_H_
