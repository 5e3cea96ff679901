#include "models/spans.h"

#include <algorithm>
#include <utility>

namespace vrecon::models {

void AddSpan(std::vector<Span>* spans, TimeNs from, TimeNs to) {
  if (to < from) std::swap(from, to);
  if (!spans->empty() && from <= spans->back().to) {
    spans->back().to = std::max(spans->back().to, to);
    spans->back().from = std::min(spans->back().from, from);
    return;
  }
  spans->push_back(Span{from, to});
}

TimeNs OverlapNs(const std::vector<Span>& a, const std::vector<Span>& b) {
  TimeNs total = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const TimeNs lo = std::max(a[i].from, b[j].from), hi = std::min(a[i].to, b[j].to);
    if (hi > lo) total += hi - lo;
    (a[i].to < b[j].to) ? ++i : ++j;
  }
  return total;
}

TimeNs PresentNs(const std::vector<Span>& spans) {
  TimeNs total = 0;
  for (const Span& s : spans) total += s.to - s.from;
  return total;
}

}  // namespace vrecon::models
