#include "models/guest_timeline.h"

#include <algorithm>
#include <map>

#include "src/core/text_util.h"

namespace vrecon::models {
namespace {

bool HasGuest(const WindowResult& r) { return r.guest_coverage > 0; }

void Withhold(const std::vector<const WindowResult*>& claims, double tolerance, WindowResult* r) {
  double total = 0;
  std::vector<std::string> names;
  for (const WindowResult* c : claims) {
    total += c->guest_coverage;
    names.push_back(c->guest_machine);
  }
  if (total <= 1.0 + tolerance) return;  // one guest ended and the next began inside the window
  r->w.reset();
  for (ProcessResult& p : r->processes) p.corrected_pct = p.ci_lo = p.ci_hi = std::nullopt;
  r->flags.push_back(Flag{"guest-conflict", Severity::kError,
                          "guests " + Join(names, ", ") +
                              " both have data for this VM in this window; w is withheld. If one of "
                              "them is another machine, pin it to its own VM with --map or [[map]]"});
}

}  // namespace

std::vector<WindowResult> JoinGuestTimelines(std::vector<std::vector<WindowResult>> per_guest, double tolerance) {
  std::map<TimeNs, std::vector<WindowResult*>> by_start;
  for (auto& windows : per_guest)
    for (WindowResult& r : windows) by_start[r.start].push_back(&r);
  std::vector<WindowResult> out;
  out.reserve(by_start.size());
  for (auto& [start, results] : by_start) {
    std::vector<const WindowResult*> claims;
    for (const WindowResult* r : results)
      if (HasGuest(*r)) claims.push_back(r);
    if (claims.empty()) {
      out.push_back(std::move(*results.front()));
      continue;
    }
    const WindowResult* best = *std::max_element(
        claims.begin(), claims.end(), [](auto* a, auto* b) { return a->guest_coverage < b->guest_coverage; });
    WindowResult r = *best;
    if (claims.size() > 1) Withhold(claims, tolerance, &r);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace vrecon::models
