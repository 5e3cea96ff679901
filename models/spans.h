// Time spans: the seconds a series has data for, merged as samples arrive. Used to tell whether
// two host logs saw a VM at once (models/vm_identity.h) and which seconds of a window the guest
// covers (models/same_seconds.h).
#ifndef VRECON_MODELS_SPANS_H_
#define VRECON_MODELS_SPANS_H_

#include <vector>

#include "src/core/time_util.h"

namespace vrecon::models {

struct Span {
  TimeNs from = 0, to = 0;
};
// Adds [from, to] to time-ordered, disjoint spans, merging it with the last when they touch.
void AddSpan(std::vector<Span>* spans, TimeNs from, TimeNs to);
// Total time both span lists cover.
TimeNs OverlapNs(const std::vector<Span>& a, const std::vector<Span>& b);
// Total time the spans cover.
TimeNs PresentNs(const std::vector<Span>& spans);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_SPANS_H_
