#include "models/host_sources.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "models/flag_text.h"
#include "src/core/host_counters.h"

namespace vrecon::models {
namespace {

bool Covers(const WindowResult& r, const CorrectionConfig& cfg) {
  return r.host_util_pct && r.host_coverage >= cfg.min_coverage;
}

std::string Named(const HostFigure& f) { return std::string(HostSourceName(f.source)) + " " + f.counter; }

// The chosen window's source against each other source that covers the window too.
void CrossCheck(const std::vector<const WindowResult*>& others, const CorrectionConfig& cfg, WindowResult* r) {
  if (!Covers(*r, cfg)) return;
  for (const WindowResult* o : others) {
    if (!Covers(*o, cfg) || !HostFiguresDisagree(*r->host_util_pct, *o->host_util_pct)) continue;
    const HostFigure used{r->host, r->host_counter, *r->host_util_pct, r->host_coverage};
    const HostFigure other{o->host, o->host_counter, *o->host_util_pct, o->host_coverage};
    std::string why = "a clock apart between the host and vCenter, or two VMs of one name taken for one";
    if (IsTimeCounter(used.counter) != IsTimeCounter(other.counter))
      why = "one counts time and the other work scaled by the cores' clock (turbo, hyper-threading)";
    AddFlag(r, "host-sources-disagree", Severity::kWarning,
            Named(used) + " reads " + FlagPct(used.pct) + " of the VM's capacity but " + Named(other) + " " +
                FlagPct(other.pct) + " (more than 10% and 2 points apart): " + why + "; w uses " + Named(used));
  }
}

}  // namespace

bool IsTimeCounter(const std::string& counter) {
  return counter == kEsxtopRunCounter || counter == kVsphereRunCounter || counter.ends_with("Run Time");
}

std::vector<size_t> HostPreference(const std::vector<HostSourceWindows>& sources) {
  std::vector<size_t> order(sources.size());
  std::iota(order.begin(), order.end(), 0);
  auto finer = [&](size_t a, size_t b) {  // a's interval shorter than b's by more than 5%
    const std::optional<double> x = sources[a].interval_s, y = sources[b].interval_s;
    if (!x || !y) return x.has_value() && !y.has_value();
    return *x < *y * 0.95;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (finer(a, b) || finer(b, a)) return finer(a, b);
    return IsTimeCounter(sources[a].counter) && !IsTimeCounter(sources[b].counter);
  });
  return order;
}

bool HostFiguresDisagree(double a, double b) { return std::fabs(a - b) > std::max(2.0, 0.10 * std::max(a, b)); }

std::vector<WindowResult> JoinHostSources(std::vector<HostSourceWindows> sources, const CorrectionConfig& cfg) {
  const std::vector<size_t> order = HostPreference(sources);
  // Each window start's results, in preference order.
  std::map<TimeNs, std::vector<WindowResult*>> by_start;
  for (size_t i : order)
    for (WindowResult& r : sources[i].windows) by_start[r.start].push_back(&r);
  std::vector<WindowResult> out;
  out.reserve(by_start.size());
  for (auto& [start, results] : by_start) {
    auto chosen = std::find_if(results.begin(), results.end(), [&](auto* r) { return Covers(*r, cfg); });
    if (chosen == results.end())
      chosen = std::find_if(results.begin(), results.end(), [](auto* r) { return r->host_util_pct.has_value(); });
    if (chosen == results.end()) chosen = results.begin();
    std::vector<const WindowResult*> others;
    for (auto it = results.begin(); it != results.end(); ++it)
      if (it != chosen) others.push_back(*it);
    WindowResult r = std::move(**chosen);
    if (r.host_util_pct)
      r.host_sources.push_back(HostFigure{r.host, r.host_counter, *r.host_util_pct, r.host_coverage});
    for (const WindowResult* o : others)
      if (o->host_util_pct)
        r.host_sources.push_back(HostFigure{o->host, o->host_counter, *o->host_util_pct, o->host_coverage});
    CrossCheck(others, cfg, &r);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace vrecon::models
