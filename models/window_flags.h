// Window-level flags that need more than one window or more than the correction's own inputs:
// too few clock ticks behind a window's numbers, a w outside what virtualization can produce, a
// w that jumps for one window and comes back, and a long run queue on an idle guest (the timer
// clumping of seed 000). Pure: appends to the WindowResults CorrectVm made for one VM.
#ifndef VRECON_MODELS_WINDOW_FLAGS_H_
#define VRECON_MODELS_WINDOW_FLAGS_H_

#include <vector>

#include "models/correction.h"

namespace vrecon::models {

struct WindowFlagConfig {
  double ticks_per_second = 64.0;  // Windows clock tick rate (15.625 ms)
  double z95 = 1.959964;
  double max_sampling_error_pts = 2.0;  // 95% half-width of the guest busy %, points of one CPU
  double min_sample_interval_s = 15.0;  // shorter guest samples carry fewer ticks each
  double w_min = 0.2, w_max = 1.5;      // plausible w = H / G (seed 003 itself has 1.21)
  double w_jump = 0.25;                 // relative departure from both neighbours' w
  double w_neighbours_agree = 0.10;     // neighbours' w within this of each other
  double ready_reason_pts = 5.0;        // a ready/co-stop change this large explains a jump
  double queue_per_vcpu = 2.0;          // Processor Queue Length per vCPU counted as long
  double queue_idle_busy_pct = 20.0;    // guest busy under this counts as idle for the queue
};

// `windows` are one VM's results in time order on `grid` (CorrectVm's output for `vm`).
void AddWindowFlags(const VmSeries& vm, const WindowGrid& grid, const WindowFlagConfig& config,
                    std::vector<WindowResult>* windows);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_WINDOW_FLAGS_H_
