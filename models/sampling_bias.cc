#include "models/sampling_bias.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <utility>

#include "models/interval.h"
#include "src/core/text_util.h"

namespace vrecon::models {
namespace {

using Pairs = std::vector<std::pair<double, double>>;  // (sampled, precise) per window

// The ratio estimator's variance: (1 / (n (n - 1) mean(s)^2)) x sum of (e - R s)^2.
ProcessBias BiasOf(const Pairs& pairs) {
  ProcessBias b;
  b.windows = static_cast<int>(pairs.size());
  double sum_s = 0, sum_e = 0;
  for (const auto& [s, e] : pairs) {
    sum_s += s;
    sum_e += e;
  }
  const auto n = static_cast<double>(pairs.size());
  b.ratio = sum_e / sum_s;
  b.sampled_mean_pct = sum_s / n;
  b.precise_mean_pct = sum_e / n;
  double resid = 0;
  for (const auto& [s, e] : pairs) resid += (e - b.ratio * s) * (e - b.ratio * s);
  const double se = std::sqrt(resid / ((n - 1) * n)) / b.sampled_mean_pct;
  const double half = T95(n - 1) * se;
  b.lo = std::max(0.0, b.ratio - half);
  b.hi = b.ratio + half;
  return b;
}

std::optional<ProcessBias> Believed(const Pairs& pairs, const SamplingBiasConfig& config) {
  const bool any_sampled = std::any_of(pairs.begin(), pairs.end(), [](const auto& p) { return p.first > 0; });
  if (!any_sampled || static_cast<int>(pairs.size()) < std::max(2, config.min_windows)) return std::nullopt;
  return BiasOf(pairs);
}

double RelativeHalfWidth(const ProcessBias& b) { return b.ratio > 0 ? (b.hi - b.lo) / (2 * b.ratio) : 0; }

// corrected x factor, its interval widened by the factor's (relative half-widths add in
// quadrature).
void Scale(double factor, double factor_rel, ProcessResult* p) {
  const double c = *p->corrected_pct;
  const double scaled = c * factor;
  const double rel_c = c > 0 && p->ci_lo && p->ci_hi ? (*p->ci_hi - *p->ci_lo) / (2 * c) : 0;
  const double half = scaled * std::sqrt(rel_c * rel_c + factor_rel * factor_rel);
  p->corrected_pct = scaled;
  p->ci_lo = std::max(0.0, scaled - half);
  p->ci_hi = scaled + half;
  p->bias_ratio = factor;
}

std::string Describe(const std::string& name, const ProcessBias& b) {
  return name + ": ETW context switches measured " + FormatFixed(b.ratio, 2) + "x Perfmon's figure (95% interval " +
         FormatFixed(b.lo, 2) + "-" + FormatFixed(b.hi, 2) + ", " + std::to_string(b.windows) +
         " windows with both: Perfmon " + FormatFixed(b.sampled_mean_pct, 1) + "%, events " +
         FormatFixed(b.precise_mean_pct, 1) + "% of one CPU on average)";
}

// A biased process biases the guest's total, and w with it: the ticks that went to it wrongly
// came from idle time or from other processes. The total is 100 less idle, and idle is measured
// like a process: calibrated, the total is 100 less Perfmon's idle x idle's ratio, w is the host's
// figure over it, every process's corrected figure follows the new w, and a flagged process's
// is Perfmon's x its own ratio besides.
void CalibrateWindow(const SamplingBias& bias, const std::set<std::string>& flagged, WindowResult* w) {
  double total_factor = 1, total_rel = 0;
  if (bias.idle && w->guest_util_pct) {
    const double idle = 100 - *w->guest_util_pct;
    const double total = 100 - idle * bias.idle->ratio;
    if (total > 0) {
      total_factor = *w->guest_util_pct / total;
      total_rel = idle * (bias.idle->hi - bias.idle->lo) / 2 / total;
    }
  }
  if (w->w) w->w = *w->w * total_factor;
  for (ProcessResult& p : w->processes) {
    if (!p.corrected_pct) continue;
    if (!flagged.contains(p.name)) {
      Scale(total_factor, total_rel, &p);
      continue;
    }
    const ProcessBias& own = bias.processes.at(p.name);
    Scale(own.ratio * total_factor, std::hypot(RelativeHalfWidth(own), total_rel), &p);
  }
}

}  // namespace

SamplingBias EstimateSamplingBias(const std::vector<WindowResult>& windows, const SamplingBiasConfig& config) {
  std::map<std::string, Pairs> pairs;
  Pairs idle;  // % of the VM's capacity
  for (const WindowResult& w : windows) {
    if (w.basis != Basis::kEvents && w.basis != Basis::kCycles) continue;  // counted, not sampled
    if (w.sampled_guest_util_pct && w.guest_util_pct && 100 - *w.sampled_guest_util_pct >= config.min_sampled_pct)
      idle.emplace_back(100 - *w.sampled_guest_util_pct, 100 - *w.guest_util_pct);
    for (const ProcessResult& p : w.processes)
      if (p.sampled_pct && p.guest_pct && !p.sampled_name.empty() && *p.sampled_pct >= config.min_sampled_pct)
        pairs[p.sampled_name].emplace_back(*p.sampled_pct, *p.guest_pct);
  }
  SamplingBias out;
  out.idle = Believed(idle, config);
  for (const auto& [name, list] : pairs)
    if (std::optional<ProcessBias> b = Believed(list, config)) out.processes.emplace(name, *b);
  return out;
}

void ApplySamplingBias(const SamplingBiasConfig& config, std::vector<WindowResult>* windows) {
  const SamplingBias bias = EstimateSamplingBias(*windows, config);
  if (bias.processes.empty()) return;
  for (WindowResult& w : *windows) {
    if (w.basis != Basis::kSamples) continue;
    std::string named;
    std::set<std::string> flagged;
    for (const ProcessResult& p : w.processes) {
      const auto it = bias.processes.find(p.name);
      if (it == bias.processes.end() || (it->second.ratio >= config.low && it->second.ratio <= config.high)) continue;
      flagged.insert(p.name);
      named += (named.empty() ? "" : "; ") + Describe(p.name, it->second);
    }
    if (named.empty()) continue;
    std::string m = "Perfmon's tick sampling is biased for processes this window has no trace for: " + named +
                    ". A tick charges the thread running at that instant, so a thread that runs in step with "
                    "the tick is over- or under-counted; the 95% interval covers random tick error, not this";
    if (config.calibrate) {
      CalibrateWindow(bias, flagged, &w);
      m += ". Calibrated (--calibrate-bias): their figures are Perfmon's x their ratio";
      if (bias.idle)
        m += ", and w is the host's figure over the guest total as 100 less Perfmon's idle x " +
             FormatFixed(bias.idle->ratio, 3) + " (idle's ratio, measured the same way), for every process";
    } else {
      m += ". --calibrate-bias corrects them as the trace would have (their figures x their ratio, w over the "
           "guest total the same way)";
    }
    w.flags.push_back(Flag{"sampling-bias", config.calibrate ? Severity::kInfo : Severity::kWarning, std::move(m)});
  }
}

}  // namespace vrecon::models
