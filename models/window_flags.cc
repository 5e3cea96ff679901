#include "models/window_flags.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace vrecon::models {
namespace {

std::string Num(const char* fmt, double v) {
  char b[48];
  std::snprintf(b, sizeof b, fmt, v);
  return b;
}

void Add(WindowResult* r, const char* code, Severity severity, std::string message) {
  r->flags.push_back(Flag{code, severity, std::move(message)});
}

int GridIndex(const WindowGrid& grid, const WindowResult& r) {
  return static_cast<int>((r.start - grid.origin) / grid.width);
}

// Tick sampling: the guest's busy % over n = 64 x seconds x vCPUs ticks has standard error
// 100 sqrt(p(1-p)/n) (points of one CPU per vCPU, summed over k vCPUs: x k).
void FewTicks(const WindowFlagConfig& cfg, double window_s, const WindowSeries* guest_total, int index,
              WindowResult* r) {
  if (!r->guest_util_pct) return;
  const double k = r->vcpus.value_or(1);
  const double covered_s = std::max(1.0, r->guest_coverage * window_s);
  const double n = cfg.ticks_per_second * covered_s * k;
  const double p = std::clamp(*r->guest_util_pct / 100.0, 0.0, 1.0);
  const double half = cfg.z95 * 100.0 * k * std::sqrt(std::max(p * (1 - p), 0.25 / n) / n);
  if (half > cfg.max_sampling_error_pts) {
    Add(r, "few-ticks", Severity::kWarning,
        "the window's guest figures rest on about " + Num("%.0f", n) + " clock ticks (" + Num("%.0f", covered_s) +
            " s on " + Num("%.0f", k) + " vCPUs): their sampling error is +-" + Num("%.1f", half) +
            " points of one CPU (95%)");
    return;
  }
  if (guest_total == nullptr || index < 0 || index >= guest_total->size()) return;
  const WindowStats& s = guest_total->at(index);
  // Samples touching the window include one that straddles its start: n samples span n - 1
  // intervals or a little more.
  if (s.samples < 3) return;
  const double interval_s = s.covered_s / (s.samples - 1);
  if (interval_s >= cfg.min_sample_interval_s - 0.5) return;
  const double per_sample = cfg.z95 * 100.0 * std::sqrt(0.25 / (cfg.ticks_per_second * interval_s));
  Add(r, "few-ticks", Severity::kInfo,
      "guest samples are " + Num("%.1f", interval_s) + " s apart (under " + Num("%.0f", cfg.min_sample_interval_s) +
          " s): each sample holds " + Num("%.0f", cfg.ticks_per_second * interval_s) +
          " ticks per vCPU, a sampling error of up to +-" + Num("%.1f", per_sample) +
          " points per sample (the window's mean stays usable)");
}

std::optional<double> ReadyLoad(const WindowResult& r) {
  if (!r.ready_pct_per_vcpu && !r.costop_pct) return std::nullopt;
  return r.ready_pct_per_vcpu.value_or(0) + r.costop_pct.value_or(0);
}

bool Contiguous(const WindowResult& a, const WindowResult& b) { return a.end == b.start && a.vm == b.vm; }

// A one-window departure of w from both neighbours, while the neighbours agree, that the
// host's ready/co-stop does not explain. A contention episode moves w for many windows (a step),
// so it is not flagged; a spike is what misaligned clocks or a bad sample produce.
void Unstable(const WindowFlagConfig& cfg, const WindowResult& prev, WindowResult* r, const WindowResult& next) {
  if (!prev.w || !r->w || !next.w) return;
  const double a = *prev.w, b = *r->w, c = *next.w;
  const double ref = (a + c) / 2;
  if (ref <= 0 || std::abs(a - c) > cfg.w_neighbours_agree * ref) return;
  if (std::abs(b - a) <= cfg.w_jump * a || std::abs(b - c) <= cfg.w_jump * c) return;
  const auto ra = ReadyLoad(prev), rb = ReadyLoad(*r), rc = ReadyLoad(next);
  if (rb && ra && rc && std::abs(*rb - (*ra + *rc) / 2) > cfg.ready_reason_pts) return;
  Add(r, "w-unstable", Severity::kWarning,
      "w is " + Num("%.2f", b) + " here but " + Num("%.2f", a) + " and " + Num("%.2f", c) +
          " in the windows either side, with no host-side ready or co-stop change to explain it: check the "
          "clocks of guest and host for this window");
}

// A low w with high ready, co-stop or dispatch wait is what contention looks like (seed 000: the
// guest counts the time its vCPU waited as busy; seed 000's case study has w ~ 0.23 under heavy
// ready): only a high w, or a low one the host does not explain, is implausible.
bool ContentionFlagged(const WindowResult& r) {
  return std::any_of(r.flags.begin(), r.flags.end(), [](const Flag& f) {
    return f.code == "high-ready" || f.code == "high-costop" || f.code == "high-dispatch-wait";
  });
}

void Implausible(const WindowFlagConfig& cfg, WindowResult* r) {
  if (!r->w || (*r->w >= cfg.w_min && *r->w <= cfg.w_max)) return;
  if (*r->w < cfg.w_min && ContentionFlagged(*r)) return;
  Add(r, "w-implausible", Severity::kWarning,
      "w = " + Num("%.2f", *r->w) + " is outside the plausible " + Num("%.2f", cfg.w_min) + " to " +
          Num("%.2f", cfg.w_max) + ": the guest and host series may not belong to the same VM or time span");
}

void QueueOnIdle(const WindowFlagConfig& cfg, const WindowSeries* queue, int index, WindowResult* r) {
  if (queue == nullptr || index < 0 || index >= queue->size() || !r->guest_util_pct) return;
  const auto q = queue->Mean(index);
  const double k = r->vcpus.value_or(1);
  if (!q || *q < cfg.queue_per_vcpu * k || *r->guest_util_pct >= cfg.queue_idle_busy_pct) return;
  // Seed 000: the queue is one observation taken at the clock tick, when the threads that slept
  // on that tick (Perfmon's own among them) have just woken together; an idle machine, native or
  // virtual, shows an inflated queue. The CPU figures are not what this says is wrong.
  Add(r, "queue-on-idle", Severity::kInfo,
      "Processor Queue Length averages " + Num("%.1f", *q) + " on " + Num("%.0f", k) +
          " vCPUs while the guest is only " + Num("%.1f", *r->guest_util_pct) +
          "% busy: on an idle machine the threads waiting on a clock tick wake together and the queue, sampled "
          "at that tick, is inflated (seed 000); not a CPU shortage. ETW's queue time (queue_p95_ms) measures "
          "waiting without this artefact");
}

}  // namespace

void AddWindowFlags(const VmSeries& vm, const WindowGrid& grid, const WindowFlagConfig& cfg,
                    std::vector<WindowResult>* windows) {
  const double window_s = static_cast<double>(grid.width) / kNsPerSec;
  const WindowSeries* total =
      vm.guest_total ? &*vm.guest_total : (vm.guest_cpus.empty() ? nullptr : vm.guest_cpus.data());
  const WindowSeries* queue = vm.guest_queue ? &*vm.guest_queue : nullptr;
  std::vector<WindowResult>& ws = *windows;
  // w-unstable looks at the neighbours' w before any flag of this pass is added.
  for (size_t i = 1; i + 1 < ws.size(); ++i) {
    if (Contiguous(ws[i - 1], ws[i]) && Contiguous(ws[i], ws[i + 1])) Unstable(cfg, ws[i - 1], &ws[i], ws[i + 1]);
  }
  for (WindowResult& r : ws) {
    const int index = GridIndex(grid, r);
    // An event trace's figures are timed at each switch, not counted in ticks: neither the tick
    // count nor clumped ticks make them wrong.
    const bool ticks = r.basis == Basis::kSamples;
    if (ticks) FewTicks(cfg, window_s, total, index, &r);
    Implausible(cfg, &r);
    if (ticks) QueueOnIdle(cfg, queue, index, &r);
  }
}

}  // namespace vrecon::models
