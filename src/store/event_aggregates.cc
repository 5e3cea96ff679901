#include "src/store/event_aggregates.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "src/store/blob_codec.h"

namespace vrecon {

using blob::Put;
using blob::Take;

std::string EncodeEventAggregates(const std::vector<ProcessAggregate>& procs) {
  std::string out;
  for (const ProcessAggregate& p : procs) {
    if (p.n_events == 0) continue;
    const uint16_t n = static_cast<uint16_t>(std::min<size_t>(p.name.size(), 65535));
    Put(&out, n);
    out.append(p.name.data(), n);
    for (int64_t v : {p.n_events, p.n_bottleneck, p.n_queue, p.n_paired}) Put(&out, v);
    for (double v : {p.sum_bottleneck, p.sum_queue_ms, p.sum_sampled, p.sum_paired_events,
                     p.max_queue_p95.value_or(std::numeric_limits<double>::quiet_NaN())})
      Put(&out, v);
  }
  return out;
}

Status DecodeEventAggregates(std::string_view in, const std::function<ProcessAggregate*(std::string_view)>& find) {
  while (!in.empty()) {
    uint16_t n = 0;
    std::string_view name;
    ProcessAggregate e;
    double p95 = 0;
    if (!Take(&in, &n) || !blob::TakeBytes(&in, n, &name) || !Take(&in, &e.n_events) || !Take(&in, &e.n_bottleneck) ||
        !Take(&in, &e.n_queue) || !Take(&in, &e.n_paired) || !Take(&in, &e.sum_bottleneck) ||
        !Take(&in, &e.sum_queue_ms) || !Take(&in, &e.sum_sampled) || !Take(&in, &e.sum_paired_events) ||
        !Take(&in, &p95))
      return Status::ParseError("corrupt process event aggregate blob");
    if (!std::isnan(p95)) e.max_queue_p95 = p95;
    if (ProcessAggregate* p = find(name)) p->Add(e);
  }
  return Status::Ok();
}

}  // namespace vrecon
