// Event-based CPU (issue 18) against the simulator's truth (docs/accuracy.md): the
// `ETW Process(name:pid)\% Processor Time` series vrecon stored from the simulated trace, as
// `vrecon samples --format csv` lists them, averaged per 300 s window and compared with both
// truths of a window: the slots each process held a vCPU while the VM ran (occupancy_pct, what a
// trace switching at slot boundaries measures) and the time-sliced demand (process_pct).
#ifndef VRECON_TESTS_SIM_EVENT_CPU_H_
#define VRECON_TESTS_SIM_EVENT_CPU_H_

#include <map>
#include <string>
#include <vector>

#include "tests/sim/simulator.h"

namespace vrecon::sim {

struct EventWindow {
  TimeNs start = 0;                           // the guest's clock, on 300 s marks
  std::map<std::string, double> process_pct;  // by name, a name's pids summed; % of one CPU
};

// The windows the series cover whole, in time order.
std::vector<EventWindow> EventCpuFromSamplesCsv(const std::string& csv);

struct EventAccuracy {
  int windows = 0;  // event windows with a truth window of the same start
  // Against each truth: the mean over windows of the per-window error (the mean over the truth's
  // processes of |events - truth|, a process missing from the events counting as 0), the largest
  // per-window error, and the largest error of one process in one window (points of one CPU).
  double occupancy_mae = 0, occupancy_worst = 0, occupancy_worst_process = 0;
  double demand_mae = 0, demand_worst = 0, demand_worst_process = 0;
  std::vector<std::string> misses;  // windows whose error against occupancy passes the limit
};

EventAccuracy ScoreEventCpu(const std::vector<EventWindow>& events, const std::vector<TruthWindow>& truth,
                            double limit_pts = 0.2);

}  // namespace vrecon::sim

#endif  // VRECON_TESTS_SIM_EVENT_CPU_H_
