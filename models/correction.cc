#include "models/correction.h"
#include "models/event_correction.h"
#include "models/interval.h"
#include "models/ready_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vrecon::models {
namespace {

std::string Pct(double v) {
  char b[48];
  // Beyond a billion %, fixed notation would be cut off at the buffer's end (1e30 showed as a
  // 31-digit number): a sample that far out is shown in exponent form.
  std::snprintf(b, sizeof b, std::fabs(v) < 1e9 ? "%.1f%%" : "%.3g%%", v);
  return b;
}

// Mean of the per-series window means, over series that have a value; coverage is the
// smallest among them (every CPU must be covered for the mean to mean anything). A series with no
// sample in the window is a CPU that did not exist then (before a vCPU hot-add): left out.
struct Combined {
  std::optional<double> mean;
  double coverage = 0;
  double max = -INFINITY;
};
Combined MeanOver(const std::vector<WindowSeries>& series, int w) {
  Combined c;
  double sum = 0;
  int n = 0;
  int existing = 0;
  c.coverage = 1;
  for (const WindowSeries& s : series) {
    if (s.at(w).samples == 0) continue;
    ++existing;
    auto m = s.Mean(w);
    c.coverage = std::min(c.coverage, s.Coverage(w));
    c.max = std::max(c.max, s.at(w).max);
    if (!m) continue;
    sum += *m;
    ++n;
  }
  if (n > 0) c.mean = sum / n;
  if (existing == 0 || n < existing) c.coverage = 0;
  return c;
}

// The series with data in window w: the vCPUs (or VPs) the VM had then.
std::optional<int> CountWithData(const std::vector<WindowSeries>& series, int w) {
  const auto n =
      std::count_if(series.begin(), series.end(), [w](const WindowSeries& s) { return s.at(w).samples > 0; });
  return n > 0 ? std::optional<int>(static_cast<int>(n)) : std::nullopt;
}

std::string Seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f s", s);
  return b;
}

void AddFlag(WindowResult* r, const char* code, Severity severity, std::string message) {
  r->flags.push_back(Flag{code, severity, std::move(message)});
}

// vSphere's cpu.usage is scaled by the cores' clock (turbo lifts it above run, hyper-threading
// and power saving push it below) while the guest's ticks count time: where usage and run per
// vCPU differ by more than 10% the choice of counter (--vsphere-counter) changes w.
void FrequencyScaled(const VmSeries& vm, int w, std::optional<int> vcpus, WindowResult* r) {
  if (!vm.vsphere_usage || !vm.vsphere_run || !vcpus) return;
  const std::optional<double> usage = vm.vsphere_usage->Mean(w), run_sum = vm.vsphere_run->Mean(w);
  if (!usage || !run_sum) return;
  const double run = *run_sum / *vcpus;
  const double larger = std::max(*usage, run);
  if (larger <= 0 || std::fabs(*usage - run) <= 0.10 * larger) return;
  AddFlag(r, "frequency-scaled", Severity::kInfo,
          "vSphere cpu.usage.average reads " + Pct(*usage) + " of capacity but cpu.run.summation " + Pct(run) +
              " per vCPU: usage is scaled by the cores' clock (turbo, hyper-threading), run counts time as the "
              "guest's ticks do; w uses " +
              vm.host_counter + " (--vsphere-counter)");
}

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

}  // namespace

const char* HostSourceName(HostSource s) {
  switch (s) {
    case HostSource::kNone: return "none";
    case HostSource::kHyperV: return "hyperv";
    case HostSource::kVsphere: return "vsphere";
    case HostSource::kEsxtop: return "esxtop";
    case HostSource::kVmTools: return "vmtools";
  }
  return "none";
}

std::vector<WindowResult> CorrectVm(const VmSeries& vm, const WindowGrid& grid, const CorrectionConfig& cfg) {
  std::vector<WindowResult> out;
  const double window_s = static_cast<double>(grid.width) / kNsPerSec;
  // The process series in name order, indexable (the map's nodes are walked once, not per window):
  // Perfmon's, and an ETW trace's for the windows it covers.
  std::vector<std::pair<const std::string*, const WindowSeries*>> sampled_procs, event_procs;
  sampled_procs.reserve(vm.processes.size());
  for (const auto& [name, s] : vm.processes) sampled_procs.emplace_back(&name, &s);
  for (const auto& [name, e] : vm.events.processes)
    if (e.cpu) event_procs.emplace_back(&name, &*e.cpu);
  // Per window: the processes with data as (sort key, index into procs), reused across windows.
  struct Keyed {
    double key;  // guest % (-1 without a value: only samples without length)
    uint32_t index;
    std::optional<double> mean;  // over the guest's covered seconds (ProcessResult::guest_pct)
    double present_s;
  };
  std::vector<Keyed> order;

  for (int w = 0; w < grid.count; ++w) {
    // The guest's figures: an event trace's where it covers the window, else Perfmon's.
    const bool events = UseEvents(vm, w, cfg);
    const WindowSeries* guest_total = events ? &*vm.events.total : vm.guest_total ? &*vm.guest_total : nullptr;
    const auto& procs = events ? event_procs : sampled_procs;
    // The vCPU count of this window, from what each side says then (a hot-add changes it): the
    // guest's Processor(n) series with data (Perfmon's, else the trace's), else the host's VPs with
    // data, else the inventory's.
    std::optional<int> guest_vcpus = CountWithData(vm.guest_cpus, w);
    if (!guest_vcpus) guest_vcpus = CountWithData(vm.events.cpus, w);
    const std::optional<int> host_vps = CountWithData(vm.host_vps, w);
    const std::optional<int> host_vcpus = host_vps ? host_vps : vm.host_vps.empty() ? vm.host_vcpus : std::nullopt;
    const std::optional<int> vcpus = guest_vcpus ? guest_vcpus : host_vcpus;
    WindowResult r;
    r.vm = vm.vm;
    r.guest_machine = vm.guest_machine;
    r.start = grid.Start(w);
    r.end = grid.End(w);
    r.vcpus = vcpus;
    r.host = vm.host;
    r.host_counter = vm.host_counter;

    // Guest side: _Total when present, else the mean of the per-CPU series.
    double guest_max_cpu = -INFINITY;
    double guest_covered_s = 0;  // seconds of the window the guest has data for
    if (guest_total && guest_total->Mean(w)) {
      r.guest_util_pct = guest_total->Mean(w);
      r.guest_coverage = guest_total->Coverage(w);
      guest_max_cpu = guest_total->at(w).max;
      guest_covered_s = guest_total->at(w).covered_s;
    }
    if (!vm.guest_cpus.empty()) {
      Combined g = MeanOver(vm.guest_cpus, w);
      guest_max_cpu = std::max(guest_max_cpu, g.max);
      if (!r.guest_util_pct && g.mean) {
        r.guest_util_pct = g.mean;
        r.guest_coverage = g.coverage;
        guest_covered_s = g.coverage * window_s;
      }
    }

    // Host side, over the seconds the guest has data for where it has only part of the window.
    const auto& on_seconds = events ? vm.events.host_on_seconds : vm.host_on_guest_seconds;
    const std::optional<double> same_seconds = w < static_cast<int>(on_seconds.size()) ? on_seconds[w] : std::nullopt;
    if (vm.host == HostSource::kHyperV) {
      Combined h = MeanOver(vm.host_vps, w);
      r.host_util_pct = h.mean && same_seconds ? same_seconds : h.mean;
      r.host_coverage = h.mean ? h.coverage : 0;
    } else if (vm.host_group && vm.host_group->Mean(w)) {
      r.host_coverage = vm.host_group->Coverage(w);
      const double raw = same_seconds.value_or(*vm.host_group->Mean(w));
      if (vm.host == HostSource::kEsxtop || vm.host_counter == "cpu.run.summation") {
        // esxtop's group % Used and vSphere's cpu.run.summation are summed over the VM's vCPUs.
        if (vcpus) r.host_util_pct = raw / *vcpus;
      } else {
        r.host_util_pct = raw;
      }
    }

    // Process means for this window, in name order; the results are built once w is known, by
    // guest % descending with ties in name order (what a stable sort by guest % gives).
    double process_sum = 0;
    order.clear();
    for (uint32_t i = 0; i < procs.size(); ++i) {
      const WindowSeries& s = *procs[i].second;
      // The next window of each process series: its stats are a cache line apiece, one per
      // series, too many streams for the hardware prefetcher.
      if (w + 1 < grid.count) __builtin_prefetch(&s.at(w + 1));
      const WindowStats& st = s.at(w);
      if (st.covered_s <= 0 && st.samples == 0) continue;
      // Its CPU over the seconds the guest has data for: absent = 0. Where the guest has none
      // (or the process outlasts it) the process's own span is the window.
      const double span = std::max(guest_covered_s, st.covered_s);
      const std::optional<double> m = st.covered_s > 0 ? std::optional<double>(st.weighted_sum / span) : std::nullopt;
      order.push_back(Keyed{m && !std::isnan(*m) ? *m : -1, i, m, st.covered_s});  // NaN would break the sort's order
      if (m) process_sum += *m;
      if (vcpus && s.at(w).max > 100.0 * *vcpus * (1 + cfg.processor_tolerance_pct / 100)) {
        AddFlag(&r, "impossible-value", Severity::kError,
                "Process(" + *procs[i].first + ") reads " + Pct(s.at(w).max) + " of one CPU, more than " +
                    std::to_string(*vcpus) + " vCPUs can give; that sample is bad");
      }
    }
    const bool any_guest = r.guest_util_pct.has_value() || !order.empty();
    const bool any_host = r.host_util_pct.has_value() || (vm.host_group && vm.host_group->at(w).samples > 0);
    if (!any_guest && !any_host) continue;

    if (guest_max_cpu > 100 + cfg.processor_tolerance_pct) {
      AddFlag(&r, "impossible-value", Severity::kError,
              "the guest's % Processor Time reads " + Pct(guest_max_cpu) + ", above 100% beyond tolerance");
    }
    if (!r.guest_util_pct) {
      AddFlag(&r, "missing-guest", Severity::kError,
              "no guest Processor % Processor Time in this window: nothing to correct");
    } else if (r.guest_coverage < cfg.min_coverage) {
      AddFlag(&r, "low-coverage", Severity::kWarning,
              "guest data covers " + Pct(100 * r.guest_coverage) + " of the window (under " +
                  Pct(100 * cfg.min_coverage) + "): w rests on part of the window" +
                  (same_seconds ? ", and compares the host's figure over those same seconds" : ""));
    }
    if (r.host_util_pct && vm.host_interval_s && *vm.host_interval_s > window_s * 1.01) {
      AddFlag(&r, "host-coarser-than-window", Severity::kWarning,
              "the host side samples every " + Seconds(*vm.host_interval_s) + ", longer than this " +
                  Seconds(window_s) +
                  " window: its value here is part of one longer average, so w cannot show what changed inside the "
                  "window; use --window " +
                  Seconds(*vm.host_interval_s) + " or longer");
    }
    if (!r.host_util_pct) {
      std::string why = vm.host == HostSource::kNone
                            ? "no host-side data (Hyper-V, vSphere, esxtop or VMware Tools) matches this VM"
                            : "no host-side value in this window";
      if (vm.host == HostSource::kEsxtop && !vcpus)
        why = "esxtop % Used needs the vCPU count, and no guest Processor(n) shows it";
      if (vm.host_counter == "cpu.run.summation" && !vcpus)
        why = "cpu.run.summation needs the vCPU count, and neither the guest nor the inventory shows it";
      AddFlag(&r, "missing-host", Severity::kError, why + ": nothing to correct with");
    } else if (r.host_coverage < cfg.min_coverage) {
      AddFlag(&r, "low-coverage", Severity::kWarning,
              "host data covers " + Pct(100 * r.host_coverage) + " of the window (under " +
                  Pct(100 * cfg.min_coverage) + "): w rests on part of the window");
    }

    if (r.guest_util_pct && !vcpus) {
      AddFlag(&r, "vcpus-unknown", Severity::kWarning,
              "nothing says how many vCPUs this VM has (no guest Processor(n), no host VP count or inventory numCPU): "
              "the 95% intervals and the processes-exceed-total check need it and are left out; log Processor(*) "
              "in the guest or collect the VM from vCenter");
    }
    if (guest_vcpus && host_vcpus && *guest_vcpus != *host_vcpus && (r.guest_util_pct || r.host_util_pct)) {
      AddFlag(&r, "vcpu-count-mismatch", Severity::kWarning,
              "the guest shows " + std::to_string(*guest_vcpus) + " processors but the host side " +
                  std::to_string(*host_vcpus) +
                  " vCPUs: a vCPU hot-add, a guest that does not use every vCPU, or "
                  "guest and host that are not the same VM; per-vCPU figures use the guest's count");
    }
    if (r.guest_util_pct && r.host_util_pct) {
      if (*r.guest_util_pct < cfg.idle_guest_pct) {
        AddFlag(&r, "idle-guest", Severity::kInfo,
                "the guest reports " + Pct(*r.guest_util_pct) + " busy, under " + Pct(cfg.idle_guest_pct) +
                    ": w = H/G is undefined and processes are not corrected");
      } else {
        r.w = *r.host_util_pct / *r.guest_util_pct;
      }
    }

    // The 95% intervals (models/interval.h) need the tick count, so the vCPU count: unknown
    // vCPUs give no interval (never a guess of 1 vCPU).
    const double k = vcpus.value_or(1);
    const double covered = std::max(1.0, r.guest_coverage * window_s);
    const double n_ticks = cfg.ticks_per_second * covered * k;
    // A Linux guest with a steal clock already charges processes real time (domain.md section 7):
    // w stays in the report, but applying it would correct twice.
    if (vm.guest_steal) r.steal_pct = vm.guest_steal->Mean(w);
    const std::optional<double> scale = r.steal_pct ? std::optional<double>(1.0) : r.w;
    if (r.steal_pct) {
      AddFlag(&r, "linux-steal-corrected", Severity::kInfo,
              "the Linux guest reports steal (" + Pct(*r.steal_pct) +
                  " in this window): its kernel already leaves steal out of process CPU, so processes are not "
                  "rescaled by w");
    }
    std::sort(order.begin(), order.end(),
              [](const Keyed& a, const Keyed& b) { return a.key > b.key || (a.key == b.key && a.index < b.index); });
    r.processes.reserve(order.size());
    std::optional<double> w_rel_variance;  // computed at the first process with an interval
    // How far the window's guest edges may be from the host's: the clock fit's residual.
    const double shift_s = vm.clock ? vm.clock->ResidualAt(r.start + grid.width / 2) : 0;
    for (const Keyed& o : order) {
      // A sample's worth of slack: sample edges and the clock shift do not make a process partial.
      const bool partial = o.present_s + std::max(1.0, 0.02 * window_s) < guest_covered_s;
      ProcessResult& p = r.processes.emplace_back();
      p.name = *procs[o.index].first;
      p.guest_pct = o.mean;
      p.present_s = o.present_s;
      p.partial = partial;
      if (!scale || !p.guest_pct) continue;
      p.corrected_pct = *scale * *p.guest_pct;
      if (!vcpus) continue;
      if (!w_rel_variance)
        w_rel_variance = r.steal_pct ? 0.0 : WRelVariance(vm, guest_total, events, w, r, covered, k, shift_s, cfg);
      const WindowStats& st = procs[o.index].second->at(w);
      // Events measure CPU time at each switch: no tick-sampling error, but each stall of the VM is
      // charged to one thread; and the clock's error, as for samples.
      MeanError g_error = events ? MeanError{} : TickMeanError(st, covered, 100.0 * k, cfg.ticks_per_second * k);
      if (events && r.w && r.guest_util_pct)
        g_error.variance = StallAttributionVariance(*p.guest_pct, *r.guest_util_pct, static_cast<int>(k), *r.w, covered,
                                                    cfg.stall_chunk_s);
      const double present = std::min(1.0, st.covered_s / covered);
      g_error.variance += present * present * ShiftVariance(st, shift_s, window_s);
      const CiBounds ci =
          CorrectedInterval(*scale, *p.guest_pct, g_error, *w_rel_variance, p.partial ? UnseenEdges(st, covered) : 0);
      p.ci_lo = ci.lo;
      p.ci_hi = ci.hi;
      if (vcpus && *p.corrected_pct > 100.0 * *vcpus * (1 + cfg.processor_tolerance_pct / 100)) {
        AddFlag(&r, "impossible-value", Severity::kError,
                "Process(" + p.name + ") corrects to " + Pct(*p.corrected_pct) + " of one CPU, more than " +
                    std::to_string(*vcpus) + " vCPUs can give: w or the guest's figures are wrong in this window");
      }
    }

    if (r.guest_util_pct && !order.empty() && vcpus) {
      const double total = *r.guest_util_pct * k;
      const double share = std::clamp(*r.guest_util_pct / 100.0, 0.0, 1.0);
      const double se = 100.0 * k * std::sqrt(share * (1 - share) / n_ticks);
      const double tolerance = 3 * se + 1.0;
      if (process_sum > total + tolerance) {
        AddFlag(&r, "processes-exceed-total", Severity::kWarning,
                "processes sum to " + Pct(process_sum) + " of one CPU, more than the guest's total " + Pct(total) +
                    " beyond sampling tolerance (" + Pct(tolerance) + ")");
      }
    }

    for (const auto& [name, ids] : vm.process_ids) {
      const WindowStats& s = ids.at(w);
      if (s.samples > 1 && s.max != s.min) {
        char b[160];
        std::snprintf(
            b, sizeof b,
            "Process(%s) changed owner in this window (ID Process %.0f and %.0f): its series mixes two processes",
            name.c_str(), s.min, s.max);
        AddFlag(&r, "instance-slot-reuse", Severity::kWarning, b);
      }
    }

    if (events) {
      AddEventFigures(vm, w, &r);
    } else {
      FlagPartialTrace(vm, w, cfg, &r);
    }
    FrequencyScaled(vm, w, vcpus, &r);

    // Ready-Time (models/ready_analysis.h): per-vCPU window means and their flags.
    const std::optional<int> ready_vcpus = host_vcpus ? host_vcpus : vcpus;
    if (vm.host_ready) r.ready_pct_per_vcpu = PerVcpu(vm.host_ready->Mean(w), ready_vcpus);
    if (vm.host_costop) r.costop_pct = PerVcpu(vm.host_costop->Mean(w), ready_vcpus);
    std::optional<double> wait_us;
    if (vm.host_dispatch_wait) {
      if (auto ns = vm.host_dispatch_wait->Mean(w)) wait_us = *ns / 1000.0;
    }
    for (Flag& f : ReadyWindowFlags(r.ready_pct_per_vcpu, r.costop_pct, ReadyThresholds{}, wait_us))
      r.flags.push_back(std::move(f));

    // Alignment: the offset at the window's middle in guest time (one fixed-point step from host
    // time; offsets change by far less than a window) and the clock flags of the window.
    if (vm.clock) {
      const TimeNs mid = r.start + grid.width / 2;
      const double guess = vm.clock->OffsetAt(mid).value_or(0);
      r.clock_offset_s = vm.clock->OffsetAt(mid + static_cast<TimeNs>(guess * kNsPerSec));
    }
    if (w < static_cast<int>(vm.interval_flags.size())) {
      // An unknown offset only matters where the CPU moves within the window: with both sides
      // flat (every sample within a point of the others) any offset gives the same figures.
      auto flat = [w](const WindowSeries& s) { return s.at(w).samples == 0 || s.at(w).max - s.at(w).min <= 1.0; };
      bool host_flat = !vm.host_group || flat(*vm.host_group);
      for (const WindowSeries& vp : vm.host_vps) host_flat = host_flat && flat(vp);
      const bool still = guest_total && flat(*guest_total) && host_flat;
      for (const Flag& f : vm.interval_flags[w])
        if (!(still && f.code == "alignment-unknown")) r.flags.push_back(f);
    }

    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace vrecon::models
