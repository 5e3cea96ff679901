#include "models/correction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/event_correction.h"
#include "models/flag_text.h"
#include "models/process_windows.h"
#include "models/ready_analysis.h"
#include "src/core/host_counters.h"

namespace vrecon::models {
namespace {

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

// A clock-scaled figure and a time figure of one VM that differ by more than 10% of the larger:
// the choice of counter then changes w.
bool ClockApart(double scaled, double time) {
  const double larger = std::max(scaled, time);
  return larger > 0 && std::fabs(scaled - time) > 0.10 * larger;
}

// esxtop's % Used is % Run scaled by the cores' clock, plus the VM's % System (time the VMkernel
// spent for it, charged to it), less overlap wait; the guest's ticks count time. Where % Used less
// % System and % Run differ by more than 10%, the clock is what differs, and the choice of counter
// (--esxtop-counter) changes w.
void EsxtopFrequencyScaled(const VmSeries& vm, int w, WindowResult* r) {
  if (!vm.esxtop_used || !vm.esxtop_run) return;
  const std::optional<double> used = vm.esxtop_used->Mean(w), run = vm.esxtop_run->Mean(w);
  if (!used || !run) return;
  const double system = vm.esxtop_system ? vm.esxtop_system->Mean(w).value_or(0) : 0;
  const double scaled = *used - system;
  if (!ClockApart(scaled, *run)) return;
  AddFlag(r, "frequency-scaled", Severity::kInfo,
          "esxtop % Used less % System reads " + FlagPct(scaled) + " but % Run " + FlagPct(*run) +
              " (summed over vCPUs): % Used is scaled by the cores' clock (turbo, hyper-threading), % Run counts "
              "time as the guest's ticks do; w uses " +
              vm.host_counter + " (--esxtop-counter)");
}

// vSphere's cpu.usage is scaled by the cores' clock (turbo lifts it above run, hyper-threading
// and power saving push it below) while the guest's ticks count time: where usage and run per
// vCPU differ by more than 10% the choice of counter (--vsphere-counter) changes w.
void VsphereFrequencyScaled(const VmSeries& vm, int w, std::optional<int> vcpus, WindowResult* r) {
  if (!vm.vsphere_usage || !vm.vsphere_run || !vcpus) return;
  const std::optional<double> usage = vm.vsphere_usage->Mean(w), run_sum = vm.vsphere_run->Mean(w);
  if (!usage || !run_sum) return;
  const double run = *run_sum / *vcpus;
  if (!ClockApart(*usage, run)) return;
  AddFlag(r, "frequency-scaled", Severity::kInfo,
          "vSphere cpu.usage.average reads " + FlagPct(*usage) + " of capacity but cpu.run.summation " + FlagPct(run) +
              " per vCPU: usage is scaled by the cores' clock (turbo, hyper-threading), run counts time as the "
              "guest's ticks do; w uses " +
              vm.host_counter + " (--vsphere-counter)");
}

// The vCPU count of window w, from what each side says then (a hot-add changes it).
struct WindowVcpus {
  std::optional<int> guest;  // the guest's Processor(n) series with data (Perfmon's, else the trace's)
  std::optional<int> host;   // the host's VPs with data, else the inventory's
  std::optional<int> count;  // the guest's, else the host's
};
WindowVcpus VcpusIn(const VmSeries& vm, int w) {
  WindowVcpus v;
  v.guest = CountWithData(vm.guest_cpus, w);
  if (!v.guest) v.guest = CountWithData(vm.events.cpus, w);
  if (!v.guest) v.guest = CountWithData(vm.profile.cpus, w);
  const std::optional<int> host_vps = CountWithData(vm.host_vps, w);
  v.host = host_vps ? host_vps : vm.host_vps.empty() ? vm.host_vcpus : std::nullopt;
  v.count = v.guest ? v.guest : v.host;
  return v;
}

// What the guest side gives beyond r's figures.
struct GuestSide {
  double max_cpu = -INFINITY;  // the highest % Processor Time sample
  double covered_s = 0;        // seconds of the window the guest has data for
};
// The guest's busy %: _Total when present, else the mean of the per-CPU series.
GuestSide SetGuest(const VmSeries& vm, const WindowSeries* guest_total, int w, double window_s, WindowResult* r) {
  GuestSide g;
  if (guest_total && guest_total->Mean(w)) {
    r->guest_util_pct = guest_total->Mean(w);
    r->guest_coverage = guest_total->Coverage(w);
    g.max_cpu = guest_total->at(w).max;
    g.covered_s = guest_total->at(w).covered_s;
  }
  if (!vm.guest_cpus.empty()) {
    Combined c = MeanOver(vm.guest_cpus, w);
    g.max_cpu = std::max(g.max_cpu, c.max);
    if (!r->guest_util_pct && c.mean) {
      r->guest_util_pct = c.mean;
      r->guest_coverage = c.coverage;
      g.covered_s = c.coverage * window_s;
    }
  }
  return g;
}

// VMware Tools' VM Processor(_Total) is read as a percent of the VM's capacity: its instances'
// mean. Where two or more instances have data and _Total sits nearer their sum than their mean
// (by more than 2 points and 10%), the log says otherwise: it is read as the sum, divided by the
// instances, and the window says so.
void VmToolsScale(const VmSeries& vm, int w, WindowResult* r) {
  if (vm.host != HostSource::kVmTools || vm.vmtools_cpus.size() < 2 || !r->host_util_pct) return;
  double sum = 0;
  int n = 0;
  for (const WindowSeries& s : vm.vmtools_cpus) {
    if (const std::optional<double> v = s.Mean(w)) {
      sum += *v;
      ++n;
    }
  }
  if (n < 2) return;
  const double total = *r->host_util_pct, mean = sum / n;
  const double off_mean = std::fabs(total - mean), off_sum = std::fabs(total - sum);
  if (off_sum >= off_mean || off_mean <= std::max(2.0, 0.10 * std::max(total, mean))) return;
  r->host_util_pct = total / n;
  AddFlag(r, "vm-processor-scale", Severity::kWarning,
          "VMware Tools VM Processor(_Total) reads " + FlagPct(total) + ", the sum of its " + std::to_string(n) +
              " vCPU instances (" + FlagPct(sum) + "), not their mean (" + FlagPct(mean) +
              "): read as the sum and divided by " + std::to_string(n));
}

// The host's figure for the VM, over the seconds the guest has data for where it has only part
// of the window. Returns that same-seconds figure (none where the guest covers the window).
std::optional<double> SetHost(const VmSeries& vm, Basis basis, int w, std::optional<int> vcpus, WindowResult* r) {
  const auto& on_seconds = basis == Basis::kEvents    ? vm.events.host_on_seconds
                           : basis == Basis::kCycles  ? vm.cycles.host_on_seconds
                           : basis == Basis::kProfile ? vm.profile.host_on_seconds
                                                      : vm.host_on_guest_seconds;
  const std::optional<double> same_seconds = w < static_cast<int>(on_seconds.size()) ? on_seconds[w] : std::nullopt;
  if (vm.host == HostSource::kHyperV) {
    Combined h = MeanOver(vm.host_vps, w);
    r->host_util_pct = h.mean && same_seconds ? same_seconds : h.mean;
    r->host_coverage = h.mean ? h.coverage : 0;
  } else if (vm.host_group && vm.host_group->Mean(w)) {
    r->host_coverage = vm.host_group->Coverage(w);
    const double raw = same_seconds.value_or(*vm.host_group->Mean(w));
    if (vm.host == HostSource::kEsxtop || vm.host_counter == kVsphereRunCounter) {
      // esxtop's group % Used and vSphere's cpu.run.summation are summed over the VM's vCPUs.
      if (vcpus) r->host_util_pct = raw / *vcpus;
    } else {
      r->host_util_pct = raw;
    }
  }
  VmToolsScale(vm, w, r);
  return same_seconds;
}

// The flags on what the window's inputs are: values beyond 100%, a side missing or covering
// too little, a host coarser than the window, the vCPU count unknown or disagreeing.
void FlagInputs(const VmSeries& vm, const WindowVcpus& vcpus, const GuestSide& guest,
                std::optional<double> same_seconds, double window_s, const CorrectionConfig& cfg, WindowResult* r) {
  if (guest.max_cpu > 100 + cfg.processor_tolerance_pct) {
    AddFlag(r, "impossible-value", Severity::kError,
            "the guest's % Processor Time reads " + FlagPct(guest.max_cpu) + ", above 100% beyond tolerance");
  }
  if (!r->guest_util_pct) {
    AddFlag(r, "missing-guest", Severity::kError,
            "no guest Processor % Processor Time in this window: nothing to correct");
  } else if (r->guest_coverage < cfg.min_coverage) {
    AddFlag(r, "low-coverage", Severity::kWarning,
            "guest data covers " + FlagPct(100 * r->guest_coverage) + " of the window (under " +
                FlagPct(100 * cfg.min_coverage) + "): w rests on part of the window" +
                (same_seconds ? ", and compares the host's figure over those same seconds" : ""));
  }
  if (r->host_util_pct && vm.host_interval_s && *vm.host_interval_s > window_s * 1.01) {
    AddFlag(r, "host-coarser-than-window", Severity::kWarning,
            "the host side samples every " + Seconds(*vm.host_interval_s) + ", longer than this " + Seconds(window_s) +
                " window: its value here is part of one longer average, so w cannot show what changed inside the "
                "window; use --window " +
                Seconds(*vm.host_interval_s) + " or longer");
  }
  if (!r->host_util_pct) {
    std::string why = vm.host == HostSource::kNone
                          ? "no host-side data (Hyper-V, vSphere, esxtop or VMware Tools) matches this VM"
                          : "no host-side value in this window";
    if (vm.host == HostSource::kEsxtop && !vcpus.count)
      why = "esxtop " + vm.host_counter + " needs the vCPU count, and no guest Processor(n) shows it";
    if (vm.host_counter == kVsphereRunCounter && !vcpus.count)
      why = "cpu.run.summation needs the vCPU count, and neither the guest nor the inventory shows it";
    AddFlag(r, "missing-host", Severity::kError, why + ": nothing to correct with");
  } else if (r->host_coverage < cfg.min_coverage) {
    AddFlag(r, "low-coverage", Severity::kWarning,
            "host data covers " + FlagPct(100 * r->host_coverage) + " of the window (under " +
                FlagPct(100 * cfg.min_coverage) + "): w rests on part of the window");
  }
  if (r->guest_util_pct && !vcpus.count) {
    AddFlag(r, "vcpus-unknown", Severity::kWarning,
            "nothing says how many vCPUs this VM has (no guest Processor(n), no host VP count or inventory numCPU): "
            "the 95% intervals and the processes-exceed-total check need it and are left out; log Processor(*) "
            "in the guest or collect the VM from vCenter");
  }
  if (vcpus.guest && vcpus.host && *vcpus.guest != *vcpus.host && (r->guest_util_pct || r->host_util_pct)) {
    AddFlag(r, "vcpu-count-mismatch", Severity::kWarning,
            "the guest shows " + std::to_string(*vcpus.guest) + " processors but the host side " +
                std::to_string(*vcpus.host) +
                " vCPUs: a vCPU hot-add, a guest that does not use every vCPU, or "
                "guest and host that are not the same VM; per-vCPU figures use the guest's count");
  }
}

// w = H / G, where the guest is busy enough for it to mean anything.
void SetW(const CorrectionConfig& cfg, WindowResult* r) {
  if (!r->guest_util_pct || !r->host_util_pct) return;
  if (*r->guest_util_pct < cfg.idle_guest_pct) {
    AddFlag(r, "idle-guest", Severity::kInfo,
            "the guest reports " + FlagPct(*r->guest_util_pct) + " busy, under " + FlagPct(cfg.idle_guest_pct) +
                ": w = H/G is undefined and processes are not corrected");
  } else {
    r->w = *r->host_util_pct / *r->guest_util_pct;
  }
}

// A Linux guest's steal in the window, which makes CorrectProcesses leave processes as they are;
// and a Windows guest's frequency-scaled utility, which is only reported.
void SetSteal(const VmSeries& vm, int w, WindowResult* r) {
  if (vm.guest_utility) r->guest_utility_pct = vm.guest_utility->Mean(w);
  if (vm.guest_steal) r->steal_pct = vm.guest_steal->Mean(w);
  if (!r->steal_pct) return;
  AddFlag(r, "linux-steal-corrected", Severity::kInfo,
          "the Linux guest reports steal (" + FlagPct(*r->steal_pct) +
              " in this window): its kernel already leaves steal out of process CPU, so processes are not "
              "rescaled by w");
}

// Ready-Time (models/ready_analysis.h): per-vCPU window means and their flags.
void SetReady(const VmSeries& vm, int w, std::optional<int> vcpus, WindowResult* r) {
  if (vm.host_ready) r->ready_pct_per_vcpu = PerVcpu(vm.host_ready->Mean(w), vcpus);
  if (vm.host_costop) r->costop_pct = PerVcpu(vm.host_costop->Mean(w), vcpus);
  std::optional<double> wait_us;
  if (vm.host_dispatch_wait) {
    if (auto ns = vm.host_dispatch_wait->Mean(w)) wait_us = *ns / 1000.0;
  }
  for (Flag& f : ReadyWindowFlags(r->ready_pct_per_vcpu, r->costop_pct, ReadyThresholds{}, wait_us))
    r->flags.push_back(std::move(f));
}

// Alignment: the offset at the window's middle in guest time (one fixed-point step from host
// time; offsets change by far less than a window) and the clock flags of the window.
void SetAlignment(const VmSeries& vm, int w, const WindowSeries* guest_total, WindowResult* r) {
  if (vm.clock) {
    const TimeNs mid = r->start + (r->end - r->start) / 2;
    const double guess = vm.clock->OffsetAt(mid).value_or(0);
    r->clock_offset_s = vm.clock->OffsetAt(mid + static_cast<TimeNs>(guess * kNsPerSec));
  }
  if (w >= static_cast<int>(vm.interval_flags.size())) return;
  // An unknown offset only matters where the CPU moves within the window: with both sides
  // flat (every sample within a point of the others) any offset gives the same figures.
  auto flat = [w](const WindowSeries& s) { return s.at(w).samples == 0 || s.at(w).max - s.at(w).min <= 1.0; };
  bool host_flat = !vm.host_group || flat(*vm.host_group);
  for (const WindowSeries& vp : vm.host_vps) host_flat = host_flat && flat(vp);
  const bool still = guest_total && flat(*guest_total) && host_flat;
  for (const Flag& f : vm.interval_flags[w])
    if (!(still && f.code == "alignment-unknown")) r->flags.push_back(f);
}

// A trace's or profile's process series in name order.
ProcessList TraceProcesses(const EventSeries& trace) {
  ProcessList procs;
  for (const auto& [name, e] : trace.processes)
    if (e.cpu) procs.emplace_back(&name, &*e.cpu);
  return procs;
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
  // The process series: Perfmon's, and an ETW trace's or a profile's for the windows they cover.
  ProcessList sampled_procs;
  sampled_procs.reserve(vm.processes.size());
  for (const auto& [name, s] : vm.processes) sampled_procs.emplace_back(&name, &s);
  const ProcessList event_procs = TraceProcesses(vm.events), profile_procs = TraceProcesses(vm.profile),
                    cycle_procs = TraceProcesses(vm.cycles);
  // A profile's samples have the binomial error of its rate where Perfmon's have the tick's.
  CorrectionConfig profile_cfg = cfg;
  profile_cfg.ticks_per_second = cfg.profile_samples_per_second;
  std::vector<ProcessMean> means;  // reused across windows

  for (int w = 0; w < grid.count; ++w) {
    // The guest's figures: an event trace's where it covers the window, else the agent's cycle
    // counts', else a sampled profile's, else Perfmon's.
    const Basis basis = UseEvents(vm, w, cfg)    ? Basis::kEvents
                        : UseCycles(vm, w, cfg)  ? Basis::kCycles
                        : UseProfile(vm, w, cfg) ? Basis::kProfile
                                                 : Basis::kSamples;
    const bool events = basis == Basis::kEvents;
    const bool counted = events || basis == Basis::kCycles;  // no tick-sampling error
    const EventSeries* trace = events                     ? &vm.events
                               : basis == Basis::kCycles  ? &vm.cycles
                               : basis == Basis::kProfile ? &vm.profile
                                                          : nullptr;
    const WindowSeries* guest_total = trace ? &*trace->total : vm.guest_total ? &*vm.guest_total : nullptr;
    const ProcessList& procs = events                     ? event_procs
                               : basis == Basis::kCycles  ? cycle_procs
                               : basis == Basis::kProfile ? profile_procs
                                                          : sampled_procs;
    const CorrectionConfig& rate_cfg = basis == Basis::kProfile ? profile_cfg : cfg;
    const WindowVcpus vcpus = VcpusIn(vm, w);
    WindowResult r;
    r.vm = vm.vm;
    r.guest_machine = vm.guest_machine;
    r.start = grid.Start(w);
    r.end = grid.End(w);
    r.vcpus = vcpus.count;
    r.host = vm.host;
    r.host_counter = vm.host_counter;

    const GuestSide guest = SetGuest(vm, guest_total, w, window_s, &r);
    const std::optional<double> same_seconds = SetHost(vm, basis, w, vcpus.count, &r);
    const double process_sum = ProcessMeans(procs, w, grid.count, guest.covered_s, vcpus.count, cfg, &means, &r);
    const bool any_guest = r.guest_util_pct.has_value() || !means.empty();
    const bool any_host = r.host_util_pct.has_value() || (vm.host_group && vm.host_group->at(w).samples > 0);
    if (!any_guest && !any_host) continue;

    FlagInputs(vm, vcpus, guest, same_seconds, window_s, cfg, &r);
    SetW(cfg, &r);
    SetSteal(vm, w, &r);
    CorrectProcesses(vm, procs, guest_total, counted, w, vcpus.count, guest.covered_s, rate_cfg, &means, &r);
    FlagProcessSum(process_sum, !means.empty(), vcpus.count, rate_cfg, &r);
    FlagSlotReuse(vm, w, &r);
    r.basis = basis;
    for (ProcessResult& p : r.processes) p.basis = basis;
    if (events) {
      AddEventFigures(vm, w, &r);
    } else if (basis == Basis::kCycles || basis == Basis::kProfile) {
      AddPerfmonFigures(vm, w, &r);
    } else if (basis == Basis::kSamples) {
      FlagPartialTrace(vm, w, cfg, &r);
    }
    AddOtherBases(vm, w, &r);
    VsphereFrequencyScaled(vm, w, vcpus.count, &r);
    EsxtopFrequencyScaled(vm, w, &r);
    SetReady(vm, w, vcpus.host ? vcpus.host : vcpus.count, &r);
    SetAlignment(vm, w, guest_total, &r);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace vrecon::models
