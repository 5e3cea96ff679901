// Scores `vrecon correct --format json` output against the simulator's truth (docs/accuracy.md).
// Event-basis processes (an ETW trace covers the window) are named "name:pid": they are matched
// to the truth's process by name, a name's pids summed.
#ifndef VRECON_TESTS_SIM_ACCURACY_H_
#define VRECON_TESTS_SIM_ACCURACY_H_

#include <string>
#include <vector>

#include "tests/sim/simulator.h"

namespace vrecon::sim {

struct AccuracyTargets {
  double hard_naive_pts = 10.0;      // a window whose naive error is this large ...
  double corrected_max_pts = 1.5;    // ... must be corrected to within this
  double event_tolerance_s = 300;    // a flag this close to an injected event counts
  std::vector<TimeNs> only_windows;  // score only the windows starting there (empty: all)
};

struct Accuracy {
  int windows = 0;                                 // windows in the output that have a truth window
  int corrected = 0;                               // of them, windows with corrected values (w known)
  double naive_mae = 0;                            // mean over windows of the per-window mean |guest - truth|
  double corrected_mae = 0;                        // same for |corrected - truth|, over corrected windows
  int hard = 0;                                    // windows with naive error >= hard_naive_pts
  int hard_missed = 0;                             // hard windows not corrected, or corrected worse than the target
  double hard_worst = 0;                           // largest corrected error among hard windows
  int clock_events = 0, clock_events_flagged = 0;  // injected clock-step and dst-shift
  int idle_queue_events = 0, idle_queue_flagged = 0;
  int flagged_windows = 0;  // windows with any flag
  // The 95% intervals: process-windows with an interval, how many hold the truth, the median
  // width (points of one CPU), and process-windows corrected without an interval.
  int ci_n = 0, ci_covered = 0, ci_missing = 0;
  double ci_median_width = 0;
  // The batch job (process "batch") in windows where it ran or was seen and w is known: MAE of
  // the guest's figure, the corrected one, and the floor (the guest's figure x the true w, the
  // true CPU of all processes over the guest's total: what a perfect w gives).
  int job_windows = 0;
  double job_naive_mae = 0, job_corrected_mae = 0, job_floor_mae = 0;
  // The corrected MAE against the occupancy truth (TruthWindow::occupancy_pct), over corrected
  // windows whose truth has it.
  double corrected_occupancy_mae = 0;
  // Windows on the events basis, their starts, and over them the MAE of the trace's figure
  // (naive), of the corrected one (against the truth, and against the occupancy truth), and
  // their 95% intervals: how many there are and how many hold the truth.
  int event_windows = 0;
  std::vector<TimeNs> event_window_starts;
  double event_naive_mae = 0, event_corrected_mae = 0, event_corrected_occupancy_mae = 0;
  int event_ci_n = 0, event_ci_covered = 0;
  std::vector<std::string> misses;  // one line per hard window missed or event not flagged
};

// The starts of the output's windows on the events basis.
std::vector<TimeNs> EventWindowStarts(const std::string& correct_json);

// One line per window of the JSON output is what src/report/correction_report.cc writes.
Accuracy Score(const std::string& correct_json, const std::vector<TruthWindow>& truth,
               const std::vector<TruthEvent>& events, const AccuracyTargets& targets = {});

}  // namespace vrecon::sim

#endif  // VRECON_TESTS_SIM_ACCURACY_H_
