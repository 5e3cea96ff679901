#include "models/process_windows.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/flag_text.h"
#include "models/interval.h"

namespace vrecon::models {
namespace {

// w's relative variance in window w (models/interval.h): the guest total's tick-sampling error
// (none where `exact`, an event trace's), the window's edges off by the clock fit's residual, and
// the host's samples cut by the edges.
double WRelVariance(const VmSeries& vm, const WindowSeries* guest_total, bool exact, int w, const WindowResult& r,
                    double guest_covered_s, double k, double shift_s, const CorrectionConfig& cfg) {
  if (!r.guest_util_pct || *r.guest_util_pct <= 0) return 0;
  const double g = *r.guest_util_pct;
  const double window_s = static_cast<double>(r.end - r.start) / kNsPerSec;
  double rel = 0;
  if (guest_total && guest_total->at(w).covered_s > 0) {
    const WindowStats& total = guest_total->at(w);
    if (!exact) rel += TickMeanError(total, guest_covered_s, 100, cfg.ticks_per_second * k).variance / (g * g);
    rel += ShiftVariance(total, shift_s, window_s) / (g * g);
  } else {
    const double n = cfg.ticks_per_second * k * std::max(1.0, guest_covered_s);
    const double p = std::clamp(g / 100, 0.0, 1.0);
    rel += 100 * 100 * p * (1 - p) / n / (g * g);
  }
  if (!vm.host_interval_s) return rel;
  if (vm.host == HostSource::kHyperV) {
    double sum = 0;
    int n = 0;
    for (const WindowSeries& vp : vm.host_vps) {
      const std::optional<double> m = vp.Mean(w);
      if (!m) continue;
      sum += HostEdgeRelVariance(vp.at(w), *m, *vm.host_interval_s, window_s);
      ++n;
    }
    if (n > 0) rel += sum / n;
  } else if (vm.host_group && vm.host_group->Mean(w)) {
    rel += HostEdgeRelVariance(vm.host_group->at(w), *vm.host_group->Mean(w), *vm.host_interval_s, window_s);
  }
  return rel;
}

double WindowSeconds(const WindowResult& r) { return static_cast<double>(r.end - r.start) / kNsPerSec; }

// The seconds of the window the guest covers, at least one: what the tick counts rest on.
double CoveredSeconds(const WindowResult& r) { return std::max(1.0, r.guest_coverage * WindowSeconds(r)); }

}  // namespace

double ProcessMeans(const ProcessList& procs, int w, int windows, double guest_covered_s, std::optional<int> vcpus,
                    const CorrectionConfig& cfg, std::vector<ProcessMean>* means, WindowResult* r) {
  double process_sum = 0;
  means->clear();
  for (uint32_t i = 0; i < procs.size(); ++i) {
    const WindowSeries& s = *procs[i].second;
    // The next window of each process series: its stats are a cache line apiece, one per
    // series, too many streams for the hardware prefetcher.
    if (w + 1 < windows) __builtin_prefetch(&s.at(w + 1));
    const WindowStats& st = s.at(w);
    if (st.covered_s <= 0 && st.samples == 0) continue;
    // Its CPU over the seconds the guest has data for: absent = 0. Where the guest has none
    // (or the process outlasts it) the process's own span is the window.
    const double span = std::max(guest_covered_s, st.covered_s);
    const std::optional<double> m = st.covered_s > 0 ? std::optional<double>(st.weighted_sum / span) : std::nullopt;
    means->push_back(ProcessMean{m && !std::isnan(*m) ? *m : -1, i, m, st.covered_s});  // NaN would break the sort
    if (m) process_sum += *m;
    if (vcpus && st.max > 100.0 * *vcpus * (1 + cfg.processor_tolerance_pct / 100)) {
      AddFlag(r, "impossible-value", Severity::kError,
              "Process(" + *procs[i].first + ") reads " + FlagPct(st.max) + " of one CPU, more than " +
                  std::to_string(*vcpus) + " vCPUs can give; that sample is bad");
    }
  }
  return process_sum;
}

void CorrectProcesses(const VmSeries& vm, const ProcessList& procs, const WindowSeries* guest_total, bool exact, int w,
                      std::optional<int> vcpus, double guest_covered_s, const CorrectionConfig& cfg,
                      std::vector<ProcessMean>* means, WindowResult* r) {
  // The 95% intervals need the tick count, so the vCPU count: unknown vCPUs give no interval
  // (never a guess of 1 vCPU).
  const double window_s = WindowSeconds(*r);
  const double k = vcpus.value_or(1);
  const double covered = CoveredSeconds(*r);
  // A Linux guest with a steal clock already charges processes real time (domain.md section 7):
  // w stays in the report, but applying it would correct twice.
  const std::optional<double> scale = r->steal_pct ? std::optional<double>(1.0) : r->w;
  std::sort(means->begin(), means->end(), [](const ProcessMean& a, const ProcessMean& b) {
    return a.key > b.key || (a.key == b.key && a.index < b.index);
  });
  r->processes.reserve(means->size());
  std::optional<double> w_rel_variance;  // computed at the first process with an interval
  // How far the window's guest edges may be from the host's: the clock fit's residual.
  const double shift_s = vm.clock ? vm.clock->ResidualAt(r->start + (r->end - r->start) / 2) : 0;
  for (const ProcessMean& o : *means) {
    // A sample's worth of slack: sample edges and the clock shift do not make a process partial.
    const bool partial = o.present_s + std::max(1.0, 0.02 * window_s) < guest_covered_s;
    ProcessResult& p = r->processes.emplace_back();
    p.name = *procs[o.index].first;
    p.guest_pct = o.mean;
    p.present_s = o.present_s;
    p.partial = partial;
    if (!scale || !p.guest_pct) continue;
    p.corrected_pct = *scale * *p.guest_pct;
    if (!vcpus) continue;
    if (!w_rel_variance)
      w_rel_variance = r->steal_pct ? 0.0 : WRelVariance(vm, guest_total, exact, w, *r, covered, k, shift_s, cfg);
    const WindowStats& st = procs[o.index].second->at(w);
    // Events measure CPU time at each switch: no tick-sampling error, but each stall of the VM is
    // charged to one thread; and the clock's error, as for samples.
    MeanError g_error = exact ? MeanError{} : TickMeanError(st, covered, 100.0 * k, cfg.ticks_per_second * k);
    if (exact && r->w && r->guest_util_pct)
      g_error.variance = StallAttributionVariance(*p.guest_pct, *r->guest_util_pct, static_cast<int>(k), *r->w, covered,
                                                  cfg.stall_chunk_s);
    const double present = std::min(1.0, st.covered_s / covered);
    g_error.variance += present * present * ShiftVariance(st, shift_s, window_s);
    const CiBounds ci =
        CorrectedInterval(*scale, *p.guest_pct, g_error, *w_rel_variance, p.partial ? UnseenEdges(st, covered) : 0);
    p.ci_lo = ci.lo;
    p.ci_hi = ci.hi;
    if (*p.corrected_pct > 100.0 * *vcpus * (1 + cfg.processor_tolerance_pct / 100)) {
      AddFlag(r, "impossible-value", Severity::kError,
              "Process(" + p.name + ") corrects to " + FlagPct(*p.corrected_pct) + " of one CPU, more than " +
                  std::to_string(*vcpus) + " vCPUs can give: w or the guest's figures are wrong in this window");
    }
  }
}

void FlagProcessSum(double process_sum, bool any_process, std::optional<int> vcpus, const CorrectionConfig& cfg,
                    WindowResult* r) {
  if (!r->guest_util_pct || !any_process || !vcpus) return;
  const double k = *vcpus;
  const double n_ticks = cfg.ticks_per_second * CoveredSeconds(*r) * k;
  const double total = *r->guest_util_pct * k;
  const double share = std::clamp(*r->guest_util_pct / 100.0, 0.0, 1.0);
  const double se = 100.0 * k * std::sqrt(share * (1 - share) / n_ticks);
  const double tolerance = 3 * se + 1.0;
  if (process_sum > total + tolerance) {
    AddFlag(r, "processes-exceed-total", Severity::kWarning,
            "processes sum to " + FlagPct(process_sum) + " of one CPU, more than the guest's total " + FlagPct(total) +
                " beyond sampling tolerance (" + FlagPct(tolerance) + ")");
  }
}

void FlagSlotReuse(const VmSeries& vm, int w, WindowResult* r) {
  for (const auto& [name, ids] : vm.process_ids) {
    const WindowStats& s = ids.at(w);
    if (s.samples > 1 && s.max != s.min) {
      char b[160];
      std::snprintf(
          b, sizeof b,
          "Process(%s) changed owner in this window (ID Process %.0f and %.0f): its series mixes two processes",
          name.c_str(), s.min, s.max);
      AddFlag(r, "instance-slot-reuse", Severity::kWarning, b);
    }
  }
}

}  // namespace vrecon::models
