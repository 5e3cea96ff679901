#include "src/serve/metrics_snapshot.h"

#include <algorithm>
#include <map>

#include "src/store/latest_window.h"
#include "src/store/read_snapshot.h"

namespace vrecon::serve {
namespace {

// Largest corrected first; a process without a corrected value by its guest value, after them.
bool Larger(const ProcessAggregate& a, const ProcessAggregate& b) {
  const auto ac = a.MeanCorrected(), bc = b.MeanCorrected();
  if (ac.has_value() != bc.has_value()) return ac.has_value();
  if (ac && *ac != *bc) return *ac > *bc;
  const double ag = a.MeanGuest().value_or(-1), bg = b.MeanGuest().value_or(-1);
  if (ag != bg) return ag > bg;
  return a.name < b.name;
}

}  // namespace

StatusOr<MetricsSnapshot> ReadMetricsSnapshot(Store* store, int top) {
  ReadSnapshot snapshot(store);  // one consistent view of the three reads
  MetricsSnapshot out;
  const size_t keep = static_cast<size_t>(std::max(top, 0));
  RETURN_IF_ERROR(ForEachLatestWindow(store, [&](const LatestWindow& latest) {
    VmMetrics m;
    m.vm = latest.vm;
    m.window = latest.window;
    m.processes = latest.processes;
    const size_t n = std::min(keep, m.processes.size());
    std::partial_sort(m.processes.begin(), m.processes.begin() + static_cast<std::ptrdiff_t>(n), m.processes.end(),
                      Larger);
    m.processes.resize(n);
    out.vms.push_back(std::move(m));
    return Status::Ok();
  }));
  ASSIGN_OR_RETURN(const auto ready, LoadAllReady(store));
  for (VmMetrics& m : out.vms) {
    const auto [first, last] = ready.equal_range(m.vm.id);
    for (auto it = first; it != last; ++it)
      m.dispatch.push_back({it->second.source, it->second.wait_dispatch_us_mean, it->second.wait_dispatch_us_p95});
  }
  ASSIGN_OR_RETURN(out.sources, SourceStatuses(store));
  return out;
}

}  // namespace vrecon::serve
