// Sampling bias, not only sampling error (issue 39 part 4; seeds 000, 001 and 002). Perfmon's
// Process counters charge each clock tick to the thread running at that instant: a thread that
// runs just before the tick is overcharged, one that wakes after it and blocks before the next is
// never charged. The 95% interval of a samples-basis window covers the ticks' random error, not
// that bias. Where a process has windows with both Perfmon's figure and a precise one (an ETW
// trace's context switches), their ratio measures its bias: precise / sampled, summed over those
// windows, with a 95% interval from their scatter. Its samples-only windows are flagged
// `sampling-bias` when the ratio lies outside [0.9, 1.1] over at least 6 windows. With
// --calibrate-bias such a window is corrected as the trace would have: each flagged process's
// figure is Perfmon's x its ratio, and since its wrongly charged ticks came from idle time too,
// the guest total is 100 less Perfmon's idle x idle's ratio (measured the same way), and w is
// the host's figure over it. Pure: no store.
#ifndef VRECON_MODELS_SAMPLING_BIAS_H_
#define VRECON_MODELS_SAMPLING_BIAS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/correction.h"

namespace vrecon::models {

struct SamplingBiasConfig {
  int min_windows = 6;  // windows with both figures before a ratio is believed
  double low = 0.9;     // a ratio within [low, high] is no bias worth a flag
  double high = 1.1;
  double min_sampled_pct = 1.0;  // % of one CPU: windows where Perfmon saw less say little of a ratio
  bool calibrate = false;        // --calibrate-bias: apply the ratio to samples-only windows
};

// One process's bias: precise / sampled over `windows` windows holding both, and its 95% interval.
struct ProcessBias {
  int windows = 0;
  double ratio = 1, lo = 1, hi = 1;
  double sampled_mean_pct = 0, precise_mean_pct = 0;  // over those windows, % of one CPU
};

struct SamplingBias {
  std::map<std::string, ProcessBias> processes;  // by Perfmon process name (ProcessResult::sampled_name)
  // Idle time, % of the VM's capacity: 100 - guest_util_pct over 100 - sampled_guest_util_pct.
  std::optional<ProcessBias> idle;
};

// From the events-basis windows that carry Perfmon's figures beside the trace's. A process (or
// idle) with fewer than config.min_windows such windows is left out.
SamplingBias EstimateSamplingBias(const std::vector<WindowResult>& windows, const SamplingBiasConfig& config);

// Flags `sampling-bias` on each samples-basis window holding a process whose ratio is outside
// [low, high] (one flag per window, naming each such process). With config.calibrate, in such a
// window the guest total is 100 - (100 - guest_util_pct) x idle's ratio, w is the host's figure
// over it, every process's corrected_pct and interval follow, and a flagged process's are
// multiplied by its own ratio besides (intervals widened by the ratios'); bias_ratio holds each
// process's factor.
void ApplySamplingBias(const SamplingBiasConfig& config, std::vector<WindowResult>* windows);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_SAMPLING_BIAS_H_
