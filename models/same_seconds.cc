#include "models/same_seconds.h"

#include <algorithm>

#include "models/spans.h"

namespace vrecon::models {

std::vector<std::optional<double>> HostOverGuestSeconds(const WindowGrid& grid, const std::vector<TimedValue>& guest,
                                                        const std::vector<TimedValue>& host) {
  std::vector<std::optional<double>> out(static_cast<size_t>(std::max(grid.count, 0)));
  std::vector<Span> spans;  // the guest's covered seconds, disjoint, in time order
  for (const TimedValue& g : guest)
    if (g.end > g.start) AddSpan(&spans, g.start, g.end);
  // Host samples sorted by start with the running maximum of their ends, for the first sample
  // that can reach a span.
  std::vector<TimeNs> max_end(host.size());
  for (size_t i = 0; i < host.size(); ++i) max_end[i] = std::max(i ? max_end[i - 1] : host[i].end, host[i].end);
  size_t first_span = 0;
  for (int w = 0; w < grid.count; ++w) {
    const TimeNs from = grid.Start(w), to = grid.End(w);
    while (first_span < spans.size() && spans[first_span].to <= from) ++first_span;
    std::vector<Span> in;
    TimeNs covered = 0;
    for (size_t s = first_span; s < spans.size() && spans[s].from < to; ++s) {
      in.push_back(Span{std::max(spans[s].from, from), std::min(spans[s].to, to)});
      covered += in.back().to - in.back().from;
    }
    if (covered == 0 || static_cast<double>(covered) >= 0.99 * static_cast<double>(to - from)) continue;
    double sum = 0, secs = 0;
    // First host sample whose end can reach the window.
    size_t h = static_cast<size_t>(std::lower_bound(max_end.begin(), max_end.end(), from + 1) - max_end.begin());
    for (; h < host.size() && host[h].start < to; ++h) {
      for (const Span& s : in) {
        const TimeNs lo = std::max(s.from, host[h].start), hi = std::min(s.to, host[h].end);
        if (hi <= lo) continue;
        const double d = static_cast<double>(hi - lo) / kNsPerSec;
        sum += host[h].value * d;
        secs += d;
      }
    }
    if (secs > 0) out[static_cast<size_t>(w)] = sum / secs;
  }
  return out;
}

}  // namespace vrecon::models
