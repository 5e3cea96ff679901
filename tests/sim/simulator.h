// Ground-truth simulator of a virtualized Windows guest (issue 4, "Accuracy"): processes with a
// true CPU demand, a hypervisor that withholds the CPU in contention episodes, a guest that
// charges CPU by sampling the running process on 64 Hz clock ticks in its own apparent time
// (ticks deferred while the VM waits and delivered in a burst, or lost beyond a backlog cap),
// a guest clock that falls behind by the lost ticks and is stepped back by a resync, and a DST
// change in the log's local timestamps. Writes what vrecon ingests (a guest PDH-CSV log, a
// Hyper-V host PDH-CSV log) and the truth. Deterministic for a seed.
#ifndef VRECON_TESTS_SIM_SIMULATOR_H_
#define VRECON_TESTS_SIM_SIMULATOR_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/core/time_util.h"

namespace vrecon::sim {

// The hypervisor runs the VM a share `run_share` of the time in [from_s, to_s) (true seconds
// since the start), in stalls of `mean_stall_ticks` on average (geometric).
struct Episode {
  double from_s = 0, to_s = 0;
  double run_share = 1.0;
  double mean_stall_ticks = 1.0;
};

// A batch job: the process "batch" exists in [from_s, to_s) and demands `cpus` CPUs.
struct Job {
  double from_s = 0, to_s = 0;
  double cpus = 0;
};

struct Scenario {
  std::string name;
  uint64_t seed = 1;
  TimeNs start = 0;  // true UTC start, a multiple of 300 s
  int hours = 6;
  int vcpus = 2;
  Episode background{0, 0, 0.995, 1.0};  // outside episodes: almost never waiting
  std::vector<Episode> contention;
  int backlog_cap_ticks = 1 << 20;              // deferred ticks beyond this many are lost
  std::vector<double> resync_at_s;              // the guest clock is set to true time here
  std::vector<std::pair<double, double>> idle;  // demand drops to 15% (true seconds)
  bool dst = false;                             // guest log in US Eastern time across the 2026 fall-back
  int guest_interval_ticks = 960;               // 15 s of apparent time
  int host_interval_s = 60;                     // Hyper-V host log interval, true time
  // Mean ticks a thread keeps its vCPU (geometric); 1 with slices_per_tick 1: each tick picks a
  // process afresh.
  int run_ticks = 1;
  // Slices a tick is cut into: a thread run may end inside a tick (as one that blocks or is
  // preempted does), the trace switches at slice boundaries, and a tick charges the thread of the
  // slice it interrupts. 1: threads switch only on ticks, so the trace sees the slots ticks sample.
  int slices_per_tick = 1;
  // Mean slices a thread keeps its vCPU, when set (0: run_ticks x slices_per_tick): below
  // slices_per_tick, threads run for less than a tick, as ones that block on I/O or a lock soon
  // after they are dispatched do, and a tick sees one of several runs.
  int run_slices = 0;
  std::vector<Job> jobs;  // short-lived processes (the batch scenario)
  // > 0: a tick-locked thread (issue 39 part 4): the process "ticker" runs on vCPU 0 in the last
  // this many slices of every tick (it wakes on a timer just before the clock's interrupt, which
  // lands while it runs), so every tick on vCPU 0 charges it though it runs tick_locked_slices /
  // slices_per_tick of the time: Perfmon overcounts it, the trace does not.
  int tick_locked_slices = 0;
  // The guest log also holds each process's `ID Process` (its pid in the trace, DumperText::Pid),
  // as a Perfmon collector set that records it does: vrecon then pairs a Process instance with the
  // trace's process in the windows both cover (sampled-vs-events, sampling-bias).
  bool guest_process_ids = false;
  // > 0: the host log is an esxtop capture of the VM's group instead of Hyper-V's, its `% Used`
  // the clock's: `% Run` (time, the truth's basis) x this turbo factor, plus a `% System` of 2
  // points (docs/accuracy.md, "esxtop: % Used or % Run"); `% Ready` the demand the VM waited with.
  double esxtop_turbo = 0;
  // The guest's context-switch trace (SimOutput::etw_dumper) over [etw_from_s, etw_from_s +
  // etw_minutes) of true time; 0 minutes: none (an hour at run_ticks 1 is about 80 MB of text).
  double etw_from_s = 0, etw_minutes = 0;
};

// calm, contention, lost-ticks, resync, dst, mixed, batch; an unknown name gives an empty name.
// `run_ticks` sets Scenario::run_ticks.
Scenario MakeScenario(const std::string& name, uint64_t seed, int run_ticks = 1);
std::vector<std::string> ScenarioNames();

struct TruthEvent {
  std::string code;          // clock-step, dst-shift, contention, lost-ticks, idle-queue
  TimeNs at = 0, until = 0;  // true UTC; until == at for a moment
  double amount = 0;         // seconds for clock-step and lost-ticks, run share for contention
};

struct TruthWindow {
  TimeNs start = 0;                           // true UTC, 300 s windows
  std::map<std::string, double> process_pct;  // true CPU, % of one CPU
  // The slots a process held a vCPU while the VM ran, % of one CPU: what it got at the
  // granularity of a tick, where process_pct time-slices within the tick.
  std::map<std::string, double> occupancy_pct;
};

struct SimOutput {
  std::string guest_csv, host_csv;
  std::string etw_dumper;  // `xperf -a dumper` text when Scenario::etw_minutes > 0 (dumper_text.h)
  std::vector<TruthWindow> windows;
  std::vector<TruthEvent> events;
  int64_t lost_ticks = 0;
};

inline constexpr const char* kGuestName = "GUEST01";
inline constexpr const char* kHostName = "HV01";

SimOutput Simulate(const Scenario& scenario);

// "window,<start ISO>,<process>,<pct>", "occupancy,<start ISO>,<process>,<pct>" and
// "event,<code>,<at ISO>,<until ISO>,<amount>" lines.
std::string TruthCsv(const SimOutput& out);
bool ParseTruthCsv(const std::string& text, std::vector<TruthWindow>* windows, std::vector<TruthEvent>* events);

}  // namespace vrecon::sim

#endif  // VRECON_TESTS_SIM_SIMULATOR_H_
