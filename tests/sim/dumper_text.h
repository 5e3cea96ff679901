// The simulated guest's kernel trace as `xperf -i trace.etl -a dumper` prints it (issue 18; the
// layout of docs/formats/etw.md and fixtures/etw/web01-cswitch.txt), so that event-based CPU can
// be checked against the simulator's truth. What it holds:
//   - a CSwitch on a vCPU at each slot boundary where the thread it runs changes (Idle is pid 0),
//     stamped on the guest's apparent clock: a stall stops that clock's ticks but not the running
//     thread's interval, so the thread on a vCPU when the VM was descheduled appears to run
//     through the stall (deferred ticks catch the clock up when it resumes);
//   - P-DCStart rundown lines at the start, P-Start / P-End / T-End for each batch job;
//   - no ReadyThread: the simulated guest has no run queue of its own (a thread that is switched
//     out is Waiting), so the queue-time counters stay empty.
// Each process has a stable pid and one thread per vCPU; each batch job is a process of its own.
#ifndef VRECON_TESTS_SIM_DUMPER_TEXT_H_
#define VRECON_TESTS_SIM_DUMPER_TEXT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/core/time_util.h"

namespace vrecon::sim {

class DumperText {
 public:
  // `names`: the workload's process names by index; `batch`: the batch process's index (-1: none).
  // At `start` (the guest's clock, UTC: the Trace Start FILETIME) vCPU v runs process running[v]
  // (-1: idle) and batch job `job` exists (-1: none).
  DumperText(const std::vector<std::string>& names, int batch, TimeNs start, const std::vector<int>& running, int job);

  // A slot in which the VM runs begins `t_us` after the start (guest's clock): vCPU v runs
  // running[v] and batch job `job` exists.
  void Slot(int64_t t_us, const std::vector<int>& running, int job);
  // The trace ends `t_us` after the start: every vCPU switches to Idle then. The whole text.
  std::string Finish(int64_t t_us);

  // A process's pid: 1200 + 400 x its index; batch job j's: 10000 + 64 j. On vCPU v it runs the
  // thread pid + 4 (v + 1).
  static uint32_t Pid(int process, int batch, int job);

 private:
  struct Thread {
    int process = -1;  // -1: Idle
    uint32_t pid = 0, tid = 0;
  };
  Thread ThreadOf(int process, int job, int vcpu) const;
  std::string Image(const Thread& t) const;
  void Switch(int64_t t_us, int cpu, const Thread& to);
  void ProcessLine(const char* event, int64_t t_us, int process, int job);

  std::vector<std::string> names_;
  int batch_;
  TimeNs start_;
  int job_;
  std::vector<Thread> on_cpu_;
  std::string body_;
  int64_t events_ = 0;
};

}  // namespace vrecon::sim

#endif  // VRECON_TESTS_SIM_DUMPER_TEXT_H_
