// Exact CPU accounting from context-switch events (seed 000, "Using xperf to analyze CSwitch
// events"; seed 002's ratios), shared by the ETW readers: each CSwitch ends one thread's run on a
// CPU and starts another's, so a thread's CPU time is the sum of its switch-in to switch-out
// intervals. Per process and bucket of trace time (1 s by default) it adds up:
//   cpu_us      its threads' running time, summed over CPUs (heater: cpu_us / bucket = CPUs used),
//               less the DPCs and ISRs that interrupted them (as Perfmon's Process counters);
//   union_us    the time in which at least one of its threads ran (bottleneck ratio's numerator);
//   queue_us, switch_ins   CPU queue time of its switch-ins: ReadyThread to switch-in, and
//               preempted (switched out still Ready) to redispatch;
// per CPU: busy (not the Idle process, or a DPC or ISR), DPC and ISR time, and time that is unknown
// because the switch sequence is broken (a CSwitch whose old thread is not the one the CPU was running: events
// were lost there). Unknown time is never counted as idle or as any process's.
// Per process and window (5 minutes of absolute time by default) it keeps the queue times'
// distribution for their p95. Events must come in time order, as xperf and WPA write them.
// Memory: the threads and processes seen, and one bucket; not the number of events.
// Pure: no file or store.
#ifndef VRECON_ADAPTERS_ETW_CPU_ACCOUNTING_H_
#define VRECON_ADAPTERS_ETW_CPU_ACCOUNTING_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/core/quantile_sketch.h"

namespace vrecon::etw {

// No trace read is longer than this (a busy 8-CPU guest writes a million events every few seconds;
// WPA's table of a busy minute already holds millions of rows): a time further on is damage, and
// would make hours of empty buckets. Both ETW readers refuse such a time.
constexpr int64_t kLongestTraceUs = int64_t{6} * 3600 * 1'000'000;

// A thread's state when it was switched out, as CSwitch's OldThreadState gives it. Ready means it
// was preempted or its quantum ended: it queues for a CPU at once.
enum class OldState { kReady, kOther };

struct SwitchEvent {
  int64_t t_us = 0;  // from the trace start
  int cpu = 0;
  uint32_t new_pid = 0, new_tid = 0;
  std::string_view new_process;  // image name as the event writes it ("svchost.exe")
  uint32_t old_pid = 0, old_tid = 0;
  std::string_view old_process;
  OldState old_state = OldState::kOther;
};

struct ProcessFigures {
  uint32_t pid = 0;
  std::string name;  // image name without ".exe", as Perfmon names processes
  double cpu_us = 0, union_us = 0, queue_us = 0;
  int64_t switch_ins = 0;
};

struct CpuFigures {
  int cpu = 0;  // its number
  double busy_us = 0, dpc_us = 0, isr_us = 0, unknown_us = 0;
};

// One bucket [start_us, end_us): every process alive in it (with zeros where it did not run) and
// every CPU seen so far.
struct Bucket {
  int64_t start_us = 0, end_us = 0;
  std::vector<ProcessFigures> processes;
  std::vector<CpuFigures> cpus;  // the CPUs seen so far, by number
};

struct QueueWindow {
  int64_t start_us = 0, end_us = 0;  // clipped to the trace
  struct Entry {
    uint32_t pid;
    std::string name;
    int64_t switch_ins;
    double p95_us;
  };
  std::vector<Entry> processes;  // those with a switch-in in the window
};

class CpuAccounting {
 public:
  struct Options {
    int64_t bucket_us = 1'000'000;
    int64_t window_us = 300'000'000;
    // Trace time on the grid of both (window_us a multiple of bucket_us): where the grid meets
    // whole seconds and 5-minute marks of absolute time.
    int64_t phase_us = 0;
  };
  using BucketFn = std::function<void(const Bucket&)>;
  using WindowFn = std::function<void(const QueueWindow&)>;
  // A broken switch sequence: the CPU, the time, the thread it expected, the one the event names.
  using BreakFn = std::function<void(int cpu, int64_t t_us, uint32_t expected_tid, uint32_t found_tid)>;

  CpuAccounting(Options options, BucketFn on_bucket, WindowFn on_window, BreakFn on_break);

  // The first event's time: buckets and the known time of every CPU start here.
  void Begin(int64_t t_us);
  void Switch(const SwitchEvent& e);
  void Ready(int64_t t_us, uint32_t tid);
  void Deferred(int64_t t_us, int cpu, double elapsed_us, bool isr);      // a DPC or an ISR
  void ProcessStart(int64_t t_us, uint32_t pid, std::string_view image);  // a start, or rundown
  void ProcessEnd(int64_t t_us, uint32_t pid);
  void ThreadEnd(uint32_t tid);  // forgets it (a thread id may be reused)
  // Closes every open interval at `t_us` (the last event) and delivers what is left.
  void End(int64_t t_us);

 private:
  struct Thread {
    uint32_t pid = 0;
    int64_t ready_since = -1;  // queued since (-1: not queued, or not known to be)
  };
  struct Process {
    std::string name;
    int running = 0;         // its threads running now, over all CPUs
    int64_t union_from = 0;  // when `running` went from 0 to 1
    bool alive = true;
    int64_t ended_at = -1;
    ProcessFigures bucket;  // this bucket's sums
    int64_t window_switch_ins = 0;
    QuantileSketch window_queue;
  };
  struct Cpu {
    bool seen = false;   // a switch on it has been seen
    bool known = false;  // a thread is known to be running on it
    uint32_t tid = 0, pid = 0;
    int64_t since = 0;  // of the current run (or of the unknown stretch)
    // DPC and ISR time begun here and not yet taken out of the runs it interrupted (Charge).
    double deferred_us = 0;
    CpuFigures bucket;
  };

  void AdvanceTo(int64_t t_us);  // delivers every bucket and window that ends at or before t_us
  void FlushBucket();
  void FlushWindow(int64_t end_us);
  Process& ProcessOf(uint32_t pid, std::string_view image);
  Cpu& CpuOf(int cpu);
  void Charge(Cpu& c, int64_t to);  // the CPU's current run (or unknown stretch) up to `to`
  void StartRun(Process& p, int64_t t);
  void StopRun(Process& p, int64_t t);

  Options options_;
  BucketFn on_bucket_;
  WindowFn on_window_;
  BreakFn on_break_;
  bool begun_ = false;
  int64_t begin_us_ = 0;
  int64_t bucket_start_ = 0, bucket_end_ = 0;
  int64_t window_start_ = 0, window_end_ = 0;
  std::unordered_map<uint32_t, Thread> threads_;
  std::unordered_map<uint32_t, Process> processes_;
  // Ended processes whose pid a new one took before their last bucket or queue window was out.
  std::vector<Process> retired_;
  std::vector<Cpu> cpus_;        // in the order they were first seen
  std::vector<int> slot_;        // CPU number -> index in cpus_, or -1
  Bucket out_;                   // the bucket FlushBucket fills and hands out
  std::vector<uint32_t> ended_;  // FlushBucket's ended pids
};

// "svchost.exe" -> "svchost": Perfmon's process instance names have no extension.
std::string ProcessBaseName(std::string_view image);

}  // namespace vrecon::etw

#endif  // VRECON_ADAPTERS_ETW_CPU_ACCOUNTING_H_
