// What the simulated guest runs (docs/accuracy.md): processes with a true CPU demand that changes
// each minute around a base, optional batch jobs that start and end at any moment, and which
// process each vCPU is running in each slice of a tick. A thread keeps its vCPU for a geometric
// number of slices (mean `run_ticks` ticks), as real threads do for a quantum or until they block,
// so consecutive ticks are correlated; at run_ticks 1 and one slice per tick each tick is drawn
// afresh.
#ifndef VRECON_TESTS_SIM_WORKLOAD_H_
#define VRECON_TESTS_SIM_WORKLOAD_H_

#include <random>
#include <string>
#include <vector>

#include "tests/sim/simulator.h"

namespace vrecon::sim {

class Workload {
 public:
  Workload(const Scenario& s, std::mt19937_64* rng);

  int processes() const { return static_cast<int>(names_.size()); }
  const std::string& name(int i) const { return names_[i]; }
  double demand(int i) const { return demand_[i]; }  // CPUs
  double total_demand() const { return total_; }
  // The batch job running at true second t (index into Scenario::jobs), -1 when none; the batch
  // process exists only while a job runs.
  int JobAt(double t) const;
  int batch_index() const { return batch_; }  // -1 without batch jobs
  int job() const { return job_; }            // the job as of the last Advance (-1: none)

  // Call at each tick's true time: draws the minute's demands and follows job starts and ends.
  void Advance(double t);
  // The process vCPU v runs in slice `slice` of a tick where the VM runs (-1: idle): the
  // tick-locked ticker where it holds the slice, else the previous one kept with probability
  // 1 - 1/(mean run in slices) unless its demand has gone.
  int Running(int v, int slice);

 private:
  void NewMinute(double t);
  void Rescale();
  int Draw();

  const Scenario& s_;
  std::mt19937_64* rng_;
  std::vector<std::string> names_;
  std::vector<double> base_, minute_, demand_;
  double total_ = 0;
  int batch_ = -1;
  int ticker_ = -1;  // the tick-locked process (Scenario::tick_locked_slices), -1 without
  int minute_at_ = -1;
  int job_ = -1;
  std::vector<int> current_;  // per vCPU: the running process (-1 idle), -2 before the first draw
};

}  // namespace vrecon::sim

#endif  // VRECON_TESTS_SIM_WORKLOAD_H_
