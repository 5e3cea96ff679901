#include "models/sampling_bias.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "models/interval.h"
#include "src/core/text_util.h"

namespace vrecon::models {
namespace {

// The ratio estimator's variance: (1 / (n (n - 1) mean(s)^2)) x sum of (e - R s)^2.
ProcessBias BiasOf(const std::vector<std::pair<double, double>>& pairs) {
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

// corrected x ratio, its interval widened by the ratio's: relative half-widths add in quadrature.
void Calibrate(const ProcessBias& b, ProcessResult* p) {
  const double c = *p->corrected_pct;
  const double scaled = c * b.ratio;
  const double rel_c = c > 0 && p->ci_lo && p->ci_hi ? (*p->ci_hi - *p->ci_lo) / (2 * c) : 0;
  const double rel_r = b.ratio > 0 ? (b.hi - b.lo) / (2 * b.ratio) : 0;
  const double half = scaled * std::sqrt(rel_c * rel_c + rel_r * rel_r);
  p->corrected_pct = scaled;
  p->ci_lo = std::max(0.0, scaled - half);
  p->ci_hi = scaled + half;
  p->bias_ratio = b.ratio;
}

std::string Describe(const std::string& name, const ProcessBias& b) {
  return name + ": ETW context switches measured " + FormatFixed(b.ratio, 2) + "x Perfmon's figure (95% interval " +
         FormatFixed(b.lo, 2) + "-" + FormatFixed(b.hi, 2) + ", " + std::to_string(b.windows) +
         " windows with both: Perfmon " + FormatFixed(b.sampled_mean_pct, 1) + "%, events " +
         FormatFixed(b.precise_mean_pct, 1) + "% of one CPU on average)";
}

}  // namespace

std::map<std::string, ProcessBias> EstimateSamplingBias(const std::vector<WindowResult>& windows,
                                                        const SamplingBiasConfig& config) {
  std::map<std::string, std::vector<std::pair<double, double>>> pairs;  // (sampled, precise) per window
  for (const WindowResult& w : windows) {
    if (w.basis != Basis::kEvents) continue;
    for (const ProcessResult& p : w.processes)
      if (p.sampled_pct && p.guest_pct && !p.sampled_name.empty() && *p.sampled_pct >= config.min_sampled_pct)
        pairs[p.sampled_name].emplace_back(*p.sampled_pct, *p.guest_pct);
  }
  std::map<std::string, ProcessBias> out;
  for (const auto& [name, list] : pairs) {
    const bool any_sampled = std::any_of(list.begin(), list.end(), [](const auto& p) { return p.first > 0; });
    if (any_sampled && static_cast<int>(list.size()) >= std::max(2, config.min_windows))
      out.emplace(name, BiasOf(list));
  }
  return out;
}

void ApplySamplingBias(const SamplingBiasConfig& config, std::vector<WindowResult>* windows) {
  const std::map<std::string, ProcessBias> bias = EstimateSamplingBias(*windows, config);
  if (bias.empty()) return;
  for (WindowResult& w : *windows) {
    if (w.basis != Basis::kSamples) continue;
    std::string named;
    for (ProcessResult& p : w.processes) {
      const auto it = bias.find(p.name);
      if (it == bias.end() || (it->second.ratio >= config.low && it->second.ratio <= config.high)) continue;
      if (config.calibrate && p.corrected_pct) Calibrate(it->second, &p);
      named += (named.empty() ? "" : "; ") + Describe(p.name, it->second);
    }
    if (named.empty()) continue;
    std::string m = "Perfmon's tick sampling is biased for processes this window has no trace for: " + named +
                    ". A tick charges the thread running at that instant, so a thread that runs in step with "
                    "the tick is over- or under-counted; the 95% interval covers random tick error, not this";
    m += config.calibrate ? ". Their corrected figures are multiplied by the ratio (--calibrate-bias)"
                          : ". --calibrate-bias multiplies their corrected figures by the ratio";
    w.flags.push_back(Flag{"sampling-bias", config.calibrate ? Severity::kInfo : Severity::kWarning, std::move(m)});
  }
}

}  // namespace vrecon::models
