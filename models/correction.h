// The correction of seed 003: w = mean(host virtual-processor run %) / mean(guest % Processor
// Time) per window, and each process's corrected CPU = w * its guest % Processor Time, with a
// 95% interval from the tick-sampling error and flags that say when not to trust a window.
#ifndef VRECON_MODELS_CORRECTION_H_
#define VRECON_MODELS_CORRECTION_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/clock_alignment.h"
#include "models/window_series.h"
#include "src/core/severity.h"

namespace vrecon::models {

struct CorrectionConfig {
  double idle_guest_pct = 5.0;           // G below this: w is undefined, nothing is corrected
  double min_coverage = 0.8;             // each side must cover this share of the window
  double processor_tolerance_pct = 5.0;  // guest processor above 100 + this is impossible
  double ticks_per_second = 64.0;        // Windows clock tick rate (15.625 ms)
  // A sampled CPU profile's rate per CPU (WPA's CPU Usage (Sampled): the kernel's profile
  // interrupt, 1 kHz by default): its figures' binomial sampling error, as ticks_per_second's.
  double profile_samples_per_second = 1000.0;
  // E[L^2] / E[L] of the VM's stalls (models/interval.h, StallAttributionVariance), for the
  // intervals of event-based windows: an assumption, stalls of about 50 ms on average and
  // exponential, since neither the guest nor the host's counters give the stalls' lengths.
  double stall_chunk_s = 0.1;
  double z95 = 1.959964;
};

enum class HostSource { kNone, kHyperV, kVsphere, kEsxtop, kVmTools };
const char* HostSourceName(HostSource s);

struct Flag {
  std::string code;
  Severity severity = Severity::kWarning;
  std::string message;
};

// One guest's ETW context-switch figures (adapters/etw/event_series.h) on the grid: CPU time
// measured at each switch, so without the tick-sampling error of Perfmon's counters. Its
// timestamps are the guest's, shifted by the same clock estimate as Perfmon's.
struct EventProcessSeries {
  std::optional<WindowSeries> cpu;         // % Processor Time, % of one CPU
  std::optional<WindowSeries> bottleneck;  // % Bottleneck Time: at least one of its threads ran
  std::optional<WindowSeries> queue;       // % Queue Time: its switch-ins' queue time / time
  std::optional<WindowSeries> switch_ins;  // Queued Switch-ins/sec
  std::optional<WindowSeries> queue_p95;   // Queue Time p95, ms, one value per 5-minute window
};
struct EventSeries {
  std::optional<WindowSeries> total;                    // ETW Processor(_Total)\% Processor Time
  std::optional<WindowSeries> unknown;                  // ETW Processor(_Total)\% Unknown Time (events lost)
  std::optional<WindowSeries> dpc, isr;                 // ETW Processor(_Total)\% DPC Time, % Interrupt Time
  std::vector<WindowSeries> cpus;                       // ETW Processor(n)\% Processor Time
  std::map<std::string, EventProcessSeries> processes;  // by instance, "name:pid"
  // Per window (empty, or one per window): the host's mean over the seconds the trace covers where
  // it covers part of the window, as VmSeries::host_on_guest_seconds.
  std::vector<std::optional<double>> host_on_seconds;
};

// Everything known about one VM, aggregated on one grid. Per-CPU and per-VP series are in
// instance order; process series are keyed by instance name as the guest wrote it.
struct VmSeries {
  std::string vm;                           // the hypervisor's name for the VM
  std::string guest_machine;                // the guest's computer name ("" when no guest data)
  std::vector<WindowSeries> guest_cpus;     // Processor(n) / Processor Information(x,n)
  std::optional<WindowSeries> guest_total;  // Processor(_Total)
  // Processor(_Total) % Steal Time of a Linux guest (procfs sampler, sar). Where it has a value
  // the kernel has a steal clock and process CPU is already in real terms: not rescaled.
  std::optional<WindowSeries> guest_steal;
  // Processor Information(_Total) % Processor Utility: busy time scaled by the clock's frequency
  // against its nominal one (Task Manager's Processes tab). Reported beside guest_util_pct, never
  // divided by w: it is in the clock's terms, not time's (docs/why-tools-disagree.md).
  std::optional<WindowSeries> guest_utility;
  std::optional<WindowSeries> guest_queue;          // System\Processor Queue Length (models/window_flags.h)
  std::map<std::string, WindowSeries> processes;    // Process(p) % Processor Time, without _Total/Idle
  std::map<std::string, WindowSeries> process_ids;  // Process(p) ID Process, for slot reuse
  HostSource host = HostSource::kNone;
  std::vector<WindowSeries> host_vps;  // Hyper-V: one per virtual processor
  // esxtop % Used (summed over vCPUs), vSphere cpu.usage.average (% of the VM's capacity) or
  // VMware Tools VM Processor(_Total) % Processor Time.
  std::optional<WindowSeries> host_group;
  // The counter host_group / host_vps hold ("cpu.usage.average", "cpu.run.summation", "% Used",
  // "% Total Run Time", ...). cpu.run.summation, like esxtop % Used, is summed over the vCPUs.
  std::string host_counter;
  // vSphere, when both are stored: cpu.usage.average (% of capacity, frequency-scaled) and
  // cpu.run.summation (% of the interval summed over vCPUs), for the frequency-scaled flag.
  std::optional<WindowSeries> vsphere_usage, vsphere_run;
  // esxtop, when % Used and % Run are both stored: the group's % Used (frequency-scaled, and with
  // its % System), % Run (time) and % System, each summed over vCPUs, for the same flag.
  std::optional<WindowSeries> esxtop_used, esxtop_run, esxtop_system;
  // VMware Tools: the VM Processor(n) instances beside _Total (host_group), one per vCPU, to check
  // whether _Total is their mean (% of the VM's capacity, as read) or their sum.
  std::vector<WindowSeries> vmtools_cpus;
  std::optional<int> host_vcpus;  // VP count the host side shows, when it shows one
  // The host side's typical sample length (median, seconds), when known: a window shorter than it
  // holds a piece of one host sample, so its w cannot show what changed inside the window.
  std::optional<double> host_interval_s;
  // vSphere cpu.ready/costop.summation aggregate or esxtop Group Cpu % Ready / % CoStop, % of the
  // interval summed over vCPUs (models/ready_analysis.h); per vCPU with the VM's vCPU count.
  std::optional<WindowSeries> host_ready, host_costop;
  // Hyper-V VP CPU Wait Time Per Dispatch (ns), all VPs' samples together: the contention Hyper-V
  // shows instead of ready time.
  std::optional<WindowSeries> host_dispatch_wait;
  // Per window (empty, or one per window): the host's mean over only the seconds the guest's total
  // covers where it covers part of the window (models/same_seconds.h), in the host series' units.
  std::vector<std::optional<double>> host_on_guest_seconds;
  // The guest clock against the host's when guest times were aligned (models/clock_alignment.h);
  // unset when alignment was off. Windows' clock_offset_s come from it.
  std::optional<ClockModel> clock;
  // Per window of the grid: the interval-level clock flags (models/interval_flags.h); empty or
  // one entry per window.
  std::vector<std::vector<Flag>> interval_flags;
  EventSeries events;  // empty without an ETW trace
  // A sampled CPU profile of the guest (WPA's CPU Usage (Sampled) export: ETW Profile Process and
  // ETW Profile Processor series): total, cpus and the processes' cpu only; empty without one.
  EventSeries profile;
  // The agent's cycle counts as shares (adapters/perfmon/cycle_shares.h: vrecon Process Cycles and
  // vrecon Processor Cycles(_Total), % Cycles): total and the processes' cpu only; empty without.
  EventSeries cycles;
};

// Where a window's guest figures come from, in order of preference: an ETW trace's context
// switches (models/event_correction.h), the agent's cycle counts (each process's share of all
// cycles charged, seed 004), a sampled CPU profile (1 kHz profile samples, their binomial error),
// or Perfmon's tick-sampled counters. Events and cycles are counted, not sampled: no tick error.
enum class Basis { kSamples, kEvents, kProfile, kCycles };
const char* BasisName(Basis b);

// Another basis's figure for what a window or process reports on its own basis: the guest total
// (% of all vCPUs) or a process (% of one CPU), as the guest measured it, before w.
struct BasisFigure {
  Basis basis = Basis::kSamples;
  double pct = 0;
};

struct ProcessResult {
  std::string name;
  // % of one CPU over the window, as the guest reported it: the process's CPU seconds over the
  // seconds the guest has data for, so the time it did not exist counts as 0 (a process alive
  // for 60 s of 300 at 50% is 10%).
  std::optional<double> guest_pct;
  std::optional<double> corrected_pct;  // % of one CPU, real
  std::optional<double> ci_lo, ci_hi;   // 95% interval of corrected_pct
  // Seconds of the window in which the process had data (existed); under the guest's covered
  // seconds for a process that started or ended inside the window.
  double present_s = 0;
  bool partial = false;  // started or ended inside the window (present_s short of the guest's data)
  Basis basis = Basis::kSamples;
  // Events basis only: the share of the window in which at least one of its threads ran (100: one
  // thread's worth of CPU would not be enough, it is bound by a single thread), and its switch-ins'
  // CPU queue time, mean and p95 (ms).
  std::optional<double> bottleneck_pct, queue_ms_mean, queue_ms_p95;
  // Events basis, where a Perfmon log of the same guest covers the window: Perfmon's figure for
  // the same process (same name and pid), on the same footing as guest_pct (sampled-vs-events),
  // and its instance name there (sqlservr, sqlservr#1), which samples-basis windows name it by.
  std::optional<double> sampled_pct;
  std::string sampled_name;
  // Samples basis, --calibrate-bias: the factor its corrected_pct and interval were multiplied by
  // (its own bias ratio, if flagged, over the guest total's; models/sampling_bias.h); unset where
  // none was applied.
  std::optional<double> bias_ratio;
  // Every other basis with a figure for the same process (same name and pid) in the window, in
  // the order events, cycles, profile, samples.
  std::vector<BasisFigure> other_bases;
};

// One host-side source's figure for a window: % of the VM's capacity, as host_util_pct.
struct HostFigure {
  HostSource source = HostSource::kNone;
  std::string counter;
  double pct = 0;
  double coverage = 0;
};

struct WindowResult {
  std::string vm;
  std::string guest_machine;
  // The VM's identity (src/engine/vm_directory.h): unique and stable, where `vm` is a name two
  // VMs may share; vm_source tells them apart for people ("vc01.example", "hv01 -> hv02").
  std::string vm_key, vm_source;
  bool vm_name_shared = false;
  std::string host_counter;  // the host-side counter the host figure comes from (VmSeries::host_counter)
  TimeNs start = 0, end = 0;
  std::optional<int> vcpus;
  std::optional<double> guest_util_pct, host_util_pct, w;
  std::optional<double> steal_pct;  // mean guest-reported steal, 0-100; unknown for non-Linux guests
  // Mean Processor Information(_Total) % Processor Utility (may exceed 100 with turbo); unknown
  // where the guest log does not have it.
  std::optional<double> guest_utility_pct;
  std::optional<double> ready_pct_per_vcpu, costop_pct;  // time-weighted, % per vCPU; unknown without data
  // Estimated guest clock minus host clock in this window, seconds (guest times were shifted by
  // -clock_offset_s before the windows were cut); unknown when not aligned or not estimable.
  std::optional<double> clock_offset_s;
  double guest_coverage = 0, host_coverage = 0;
  HostSource host = HostSource::kNone;
  Basis basis = Basis::kSamples;  // what guest_util_pct and the processes' guest_pct come from
  // Events basis, where a Perfmon log covers the window too: its Processor(_Total) figure.
  std::optional<double> sampled_guest_util_pct;
  // Events basis, from a trace that records DPCs and interrupts (the xperf dumper text): the time
  // they took, % of all vCPUs as guest_util_pct, which counts it; no process's guest_pct does.
  std::optional<double> dpc_isr_pct;
  std::vector<ProcessResult> processes;  // largest guest_pct first
  std::vector<Flag> flags;
  // A VM two host-side sources see (esxtop and vSphere, models/host_sources.h): each one's figure
  // in this window, the one host_util_pct is first; empty for a VM with one source.
  std::vector<HostFigure> host_sources;
  // Every other basis that covers the window: its guest total, in the order events, cycles,
  // profile, samples (models/event_correction.h, AddOtherBases).
  std::vector<BasisFigure> other_bases;
};

// One result per window of the grid that holds data on either side.
std::vector<WindowResult> CorrectVm(const VmSeries& vm, const WindowGrid& grid, const CorrectionConfig& config);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_CORRECTION_H_
