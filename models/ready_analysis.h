// Ready-Time analysis (issue 4), pure: per VM and sample the time its vCPUs spent ready
// (runnable, waiting for a physical CPU), co-stopped, running and waiting, per vCPU; Hyper-V's
// CPU Wait Time Per Dispatch and host logical-processor load; per-VM summaries and right-sizing
// hints. Inputs are already in percent of the sample interval (vSphere summation counters,
// esxtop Group Cpu), summed over the VM's vCPUs; see docs/ready.md.
#ifndef VRECON_MODELS_READY_ANALYSIS_H_
#define VRECON_MODELS_READY_ANALYSIS_H_

#include <optional>
#include <string>
#include <vector>

#include "models/correction.h"
#include "src/core/severity.h"
#include "src/core/time_util.h"

namespace vrecon::models {

struct ReadyThresholds {
  double ready_warn_pct = 5.0;  // ready % per vCPU
  double ready_crit_pct = 10.0;
  double costop_pct = 3.0;              // co-stop % per vCPU
  double low_usage_pct = 50.0;          // usage per vCPU under this counts as low (fewer-vcpus hint)
  double wait_dispatch_warn_us = 60.0;  // Hyper-V CPU Wait Time Per Dispatch
  double wait_dispatch_crit_us = 100.0;
  double host_load_warn_pct = 75.0;  // host logical-processor / physical CPU load (PAL)
  double host_load_crit_pct = 90.0;
};

// One stored interval of one counter.
struct Interval {
  TimeNs start = 0, end = 0;
  double value = 0;
};

// What the store holds for one VM, as intervals. Aggregate counters are summed over vCPUs.
struct ReadyInput {
  std::string vm;
  std::string source;  // vsphere | esxtop | hyperv
  std::optional<int> vcpus;
  std::vector<Interval> ready, costop, run, wait;  // % of the interval, summed over vCPUs
  std::vector<Interval> used;                      // esxtop % Used, summed over vCPUs
  std::vector<Interval> usage;                     // vSphere cpu.usage.average, % of the VM's capacity
  std::vector<Interval> wait_per_dispatch_ns;      // Hyper-V, one entry per VP sample
  std::string host;                                // the host's name, when known
  std::vector<Interval> host_load;                 // host LP / physical CPU load, 0-100
};

// One sample (interval) of the VM, every value per vCPU (0-100), unknown = nullopt.
struct StateSample {
  TimeNs start = 0, end = 0;
  std::optional<double> ready, costop, run, wait, usage;
};

// Per-sample states, joined on the interval; per-vCPU values need the vCPU count.
std::vector<StateSample> PerVcpuStates(const ReadyInput& in);

// Aggregate % summed over vCPUs -> % per vCPU; nullopt without a value or a vCPU count.
std::optional<double> PerVcpu(std::optional<double> aggregate_pct, std::optional<int> vcpus);

struct Summary {
  int samples = 0;
  std::optional<double> mean, p95;
  // share (0..1) of samples strictly above each threshold, in the order they were asked for
  std::vector<double> share_above;
};
// p95 by linear interpolation between closest ranks (R type 7).
std::optional<double> Percentile(std::vector<double> values, double p);
Summary Summarize(const std::vector<double>& values, const std::vector<double>& thresholds);

struct Hint {
  std::string code;
  Severity severity = Severity::kWarning;
  std::string message;
};

struct VmReadySummary {
  std::string vm, source, host;
  std::string vm_key, vm_source;  // the VM's identity (src/engine/vm_directory.h); set by the caller
  bool vm_name_shared = false;
  std::optional<int> vcpus;
  int samples = 0;
  Summary ready, costop;                                  // % per vCPU; thresholds {warn, crit} and {costop}
  std::optional<double> run_mean, wait_mean, usage_mean;  // % per vCPU
  std::optional<Summary> wait_per_dispatch_us;            // Hyper-V only; {warn, crit}
  std::optional<Summary> host_load;                       // {warn, crit}
  std::vector<Hint> hints;
};

VmReadySummary AnalyzeVm(const ReadyInput& in, const ReadyThresholds& t = {});

// The right-sizing hints of a summary whose figures are set (AnalyzeVm's last step).
void AddReadyHints(VmReadySummary* r, const ReadyThresholds& t);

// Window flags for `vrecon correct`: high-ready / high-costop (per-vCPU window means), and for
// Hyper-V, which has no ready counter, high-dispatch-wait (the window's mean CPU Wait Time Per
// Dispatch, microseconds, above the warning threshold of `vrecon ready`).
std::vector<Flag> ReadyWindowFlags(std::optional<double> ready, std::optional<double> costop,
                                   const ReadyThresholds& t = {},
                                   std::optional<double> wait_per_dispatch_us = std::nullopt);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_READY_ANALYSIS_H_
