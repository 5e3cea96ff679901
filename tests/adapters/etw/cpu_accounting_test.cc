// Context-switch accounting with hand-computed expectations: CPU per process summed over
// threads, the union of its threads' running time (seed 002's bottleneck), queue time from
// ReadyThread and from preemption (seed 000), bucket splits, broken switch sequences, p95s.
#include "adapters/etw/cpu_accounting.h"

#include <gtest/gtest.h>

#include <map>

namespace vrecon::etw {
namespace {

constexpr uint32_t kIdle = 0;

struct Recorder {
  std::vector<Bucket> buckets;
  std::vector<QueueWindow> windows;
  std::vector<std::string> breaks;

  CpuAccounting Make(int64_t bucket_us = 1'000'000, int64_t window_us = 1'000'000) {
    return CpuAccounting(
        CpuAccounting::Options{bucket_us, window_us, 0}, [this](const Bucket& b) { buckets.push_back(b); },
        [this](const QueueWindow& w) { windows.push_back(w); },
        [this](int cpu, int64_t t, uint32_t expected, uint32_t found) {
          breaks.push_back(std::to_string(cpu) + "@" + std::to_string(t) + ":" + std::to_string(expected) + "/" +
                           std::to_string(found));
        });
  }
  // Per pid over all buckets.
  std::map<uint32_t, ProcessFigures> Totals() const {
    std::map<uint32_t, ProcessFigures> t;
    for (const Bucket& b : buckets) {
      for (const ProcessFigures& p : b.processes) {
        ProcessFigures& s = t[p.pid];
        s.pid = p.pid;
        s.name = p.name;
        s.cpu_us += p.cpu_us;
        s.union_us += p.union_us;
        s.queue_us += p.queue_us;
        s.switch_ins += p.switch_ins;
      }
    }
    return t;
  }
};

SwitchEvent Sw(int64_t t, int cpu, uint32_t new_pid, uint32_t new_tid, uint32_t old_pid, uint32_t old_tid,
               OldState state = OldState::kOther) {
  SwitchEvent e;
  e.t_us = t;
  e.cpu = cpu;
  e.new_pid = new_pid;
  e.new_tid = new_tid;
  e.new_process = new_pid == 10 ? "a.exe" : new_pid == 20 ? "b.exe" : "Idle";
  e.old_pid = old_pid;
  e.old_tid = old_tid;
  e.old_process = old_pid == 10 ? "a.exe" : old_pid == 20 ? "b.exe" : "Idle";
  e.old_state = state;
  return e;
}

// Two CPUs for one second. Process a (pid 10: threads 11, 12), b (pid 20: thread 21).
//   cpu0: idle | a.11 100-600 ms | idle
//   cpu1: idle | a.12 200-400 (preempted) | b.21 400-700 (readied at 350) | a.12 700-900 | idle
void Feed(CpuAccounting& acc) {
  acc.Begin(0);
  acc.Switch(Sw(100'000, 0, 10, 11, kIdle, 0));
  acc.Switch(Sw(200'000, 1, 10, 12, kIdle, 0));
  acc.Ready(350'000, 21);
  acc.Switch(Sw(400'000, 1, 20, 21, 10, 12, OldState::kReady));
  acc.Switch(Sw(600'000, 0, kIdle, 0, 10, 11));
  acc.Switch(Sw(700'000, 1, 10, 12, 20, 21));
  acc.Switch(Sw(900'000, 1, kIdle, 0, 10, 12));
  acc.End(1'000'000);
}

TEST(CpuAccountingTest, SumsThreadsUnionsRunsAndQueuesSwitchIns) {
  Recorder r;
  CpuAccounting acc = r.Make();
  Feed(acc);
  ASSERT_EQ(r.buckets.size(), 1u);
  const Bucket& b = r.buckets[0];
  EXPECT_EQ(b.start_us, 0);
  EXPECT_EQ(b.end_us, 1'000'000);
  ASSERT_EQ(b.processes.size(), 2u);
  const ProcessFigures& a = b.processes[0];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.cpu_us, 900'000);    // 500 + 200 + 200 ms
  EXPECT_EQ(a.union_us, 700'000);  // 100-600 and 700-900
  EXPECT_EQ(a.switch_ins, 1);      // a.12 back at 700 after its preemption at 400
  EXPECT_EQ(a.queue_us, 300'000);
  const ProcessFigures& bp = b.processes[1];
  EXPECT_EQ(bp.name, "b");
  EXPECT_EQ(bp.cpu_us, 300'000);
  EXPECT_EQ(bp.union_us, 300'000);
  EXPECT_EQ(bp.switch_ins, 1);  // readied at 350, in at 400
  EXPECT_EQ(bp.queue_us, 50'000);
  ASSERT_EQ(b.cpus.size(), 2u);
  EXPECT_EQ(b.cpus[0].busy_us, 500'000);
  EXPECT_EQ(b.cpus[1].busy_us, 700'000);
  EXPECT_EQ(b.cpus[0].unknown_us + b.cpus[1].unknown_us, 0);
  ASSERT_EQ(r.windows.size(), 1u);
  ASSERT_EQ(r.windows[0].processes.size(), 2u);
  EXPECT_EQ(r.windows[0].processes[0].p95_us, 300'000);
  EXPECT_EQ(r.windows[0].processes[1].p95_us, 50'000);
  EXPECT_TRUE(r.breaks.empty());
}

TEST(CpuAccountingTest, BucketsSplitRunsAtTheirBoundariesAndAddUpToTheWhole) {
  Recorder r;
  CpuAccounting acc = r.Make(500'000, 1'000'000);
  Feed(acc);
  ASSERT_EQ(r.buckets.size(), 2u);
  EXPECT_EQ(r.buckets[0].processes[0].cpu_us, 600'000);  // a.11 100-500, a.12 200-400
  EXPECT_EQ(r.buckets[0].processes[0].union_us, 400'000);
  EXPECT_EQ(r.buckets[1].processes[0].cpu_us, 300'000);  // a.11 500-600, a.12 700-900
  EXPECT_EQ(r.buckets[1].processes[0].union_us, 300'000);
  EXPECT_EQ(r.buckets[0].processes[1].cpu_us, 100'000);
  EXPECT_EQ(r.buckets[1].processes[1].cpu_us, 200'000);
  const auto totals = r.Totals();
  EXPECT_EQ(totals.at(10).cpu_us, 900'000);
  EXPECT_EQ(totals.at(10).union_us, 700'000);
  EXPECT_EQ(totals.at(20).union_us, 300'000);
}

TEST(CpuAccountingTest, ABrokenSwitchSequenceMakesUnknownTimeNotIdleNorAnyProcesss) {
  Recorder r;
  CpuAccounting acc = r.Make();
  acc.Begin(0);
  acc.Switch(Sw(100'000, 0, 10, 11, kIdle, 0));
  // Thread 99 is switched out at 300 ms, but cpu0 was running a.11: the switches between were lost.
  acc.Switch(Sw(300'000, 0, 20, 21, 10, 99));
  acc.Switch(Sw(500'000, 0, kIdle, 0, 20, 21));
  acc.End(1'000'000);
  ASSERT_EQ(r.breaks, std::vector<std::string>{"0@300000:11/99"});
  const Bucket& b = r.buckets.at(0);
  EXPECT_EQ(b.cpus[0].unknown_us, 200'000);
  EXPECT_EQ(b.cpus[0].busy_us, 200'000);  // b.21 300-500
  const auto totals = r.Totals();
  EXPECT_EQ(totals.at(10).cpu_us, 0);
  EXPECT_EQ(totals.at(10).union_us, 0);
  EXPECT_EQ(totals.at(20).cpu_us, 200'000);
}

TEST(CpuAccountingTest, TheFirstSwitchOnACpuChargesItsOldThreadFromTheStart) {
  Recorder r;
  CpuAccounting acc = r.Make();
  acc.Begin(0);
  acc.Switch(Sw(250'000, 0, kIdle, 0, 10, 11));  // a.11 ran from the trace's start
  acc.End(1'000'000);
  EXPECT_EQ(r.Totals().at(10).cpu_us, 250'000);
  EXPECT_EQ(r.Totals().at(10).union_us, 250'000);
}

TEST(CpuAccountingTest, SingleThreadBoundAndSpreadProcessesShowEqualHeatersAndDifferentBottlenecks) {
  // Seed 002: on 4 CPUs, s runs one thread all the time; p runs four threads a quarter each, at
  // the same time. Both use one CPU's worth; s is bound (bottleneck 100%), p is not (25%).
  Recorder r;
  CpuAccounting acc = r.Make();
  acc.Begin(0);
  acc.Switch(Sw(0, 0, 10, 11, kIdle, 0));
  for (int cpu = 1; cpu < 4; ++cpu) acc.Switch(Sw(0, cpu, 20, static_cast<uint32_t>(20 + cpu), kIdle, 0));
  acc.Switch(Sw(0, 0, 20, 20, 10, 11));  // s yields cpu0 to p's fourth thread for a moment...
  acc.Switch(Sw(0, 0, 10, 11, 20, 20));  // ...and takes it back at once (zero-length run)
  for (int cpu = 1; cpu < 4; ++cpu) acc.Switch(Sw(250'000, cpu, kIdle, 0, 20, static_cast<uint32_t>(20 + cpu)));
  acc.End(1'000'000);
  const auto t = r.Totals();
  EXPECT_EQ(t.at(10).cpu_us, 1'000'000);
  EXPECT_EQ(t.at(10).union_us, 1'000'000);
  EXPECT_EQ(t.at(20).cpu_us, 750'000);
  EXPECT_EQ(t.at(20).union_us, 250'000);
}

TEST(CpuAccountingTest, DpcAndIsrTimeIsKeptPerCpu) {
  Recorder r;
  CpuAccounting acc = r.Make();
  acc.Begin(0);
  acc.Switch(Sw(10, 1, 10, 11, kIdle, 0));
  acc.Deferred(20, 1, 15.5, false);
  acc.Deferred(40, 1, 4, true);
  acc.Deferred(50, 0, 2, false);
  acc.End(1'000'000);
  const Bucket& b = r.buckets.at(0);
  ASSERT_EQ(b.cpus.size(), 2u);
  EXPECT_EQ(b.cpus[1].dpc_us, 15.5);
  EXPECT_EQ(b.cpus[1].isr_us, 4);
  EXPECT_EQ(b.cpus[0].dpc_us, 2);
}

// Perfmon's Process counters leave out the DPCs and ISRs that interrupted a process's threads
// (Windows charges them to the processor): the events do too (seed 000), and the CPU stays busy.
TEST(CpuAccountingTest, DpcAndIsrTimeIsNotTheInterruptedThreadsButIsBusy) {
  Recorder r;
  CpuAccounting acc = r.Make();
  acc.Begin(0);
  acc.Switch(Sw(0, 0, 10, 11, kIdle, 0));    // a runs on CPU 0 all second
  acc.Deferred(500'000, 0, 100'000, false);  // a DPC of 100 ms interrupts it
  acc.Deferred(700'000, 0, 20'000, true);    // and an ISR of 20 ms
  acc.Switch(Sw(0, 1, kIdle, 0, kIdle, 0));  // CPU 1 idles all second
  acc.Deferred(300'000, 1, 50'000, false);   // but for a DPC of 50 ms
  acc.End(1'000'000);
  ASSERT_EQ(r.buckets.size(), 1u);
  const Bucket& b = r.buckets[0];
  EXPECT_EQ(r.Totals().at(10).cpu_us, 880'000);
  ASSERT_EQ(b.cpus.size(), 2u);
  EXPECT_EQ(b.cpus[0].busy_us, 1'000'000);
  EXPECT_EQ(b.cpus[0].dpc_us, 100'000);
  EXPECT_EQ(b.cpus[0].isr_us, 20'000);
  EXPECT_EQ(b.cpus[1].busy_us, 50'000);
  EXPECT_EQ(b.cpus[1].dpc_us, 50'000);
}

// A DPC that outlasts the run it interrupted (the thread switched out while the DPC was
// accounted at its start) is taken from the runs after it on that CPU, never below zero, and in
// the bucket its time lies in.
TEST(CpuAccountingTest, ADpcLongerThanTheRunItInterruptedIsTakenFromTheNextRuns) {
  Recorder r;
  CpuAccounting acc = r.Make(1'000'000, 1'000'000);
  acc.Begin(0);
  acc.Switch(Sw(0, 0, 10, 11, kIdle, 0));
  acc.Deferred(900'000, 0, 300'000, false);  // 100 ms of a's second, then 200 ms of b's
  acc.Switch(Sw(1'000'000, 0, 20, 21, 10, 11));
  acc.Switch(Sw(1'500'000, 0, kIdle, 0, 20, 21));
  acc.End(2'000'000);
  ASSERT_EQ(r.buckets.size(), 2u);
  const auto t = r.Totals();
  EXPECT_EQ(t.at(10).cpu_us, 900'000);
  EXPECT_EQ(t.at(20).cpu_us, 300'000);
  EXPECT_EQ(r.buckets[0].cpus[0].busy_us, 1'000'000);
  EXPECT_EQ(r.buckets[1].cpus[0].busy_us, 500'000);
}

TEST(CpuAccountingTest, OnlyTheCpusEventsNameExist) {
  Recorder r;
  CpuAccounting acc = r.Make();
  acc.Begin(0);
  acc.Switch(Sw(100'000, 4000, 10, 11, kIdle, 0));  // a damaged CPU number is one CPU, not 4,001
  acc.Switch(Sw(200'000, 2, 20, 21, kIdle, 0));
  acc.End(1'000'000);
  const Bucket& b = r.buckets.at(0);
  ASSERT_EQ(b.cpus.size(), 2u);
  EXPECT_EQ(b.cpus[0].cpu, 2);
  EXPECT_EQ(b.cpus[0].busy_us, 800'000);
  EXPECT_EQ(b.cpus[1].cpu, 4000);
  EXPECT_EQ(b.cpus[1].busy_us, 900'000);
}

TEST(CpuAccountingTest, AnEndedProcessLeavesAfterItsLastBucketAndItsPidCanBeReused) {
  Recorder r;
  CpuAccounting acc = r.Make(500'000, 1'000'000);
  acc.Begin(0);
  acc.ProcessStart(0, 10, "a.exe");
  acc.Switch(Sw(100'000, 0, 10, 11, kIdle, 0));
  acc.Switch(Sw(200'000, 0, kIdle, 0, 10, 11));
  acc.ProcessEnd(300'000, 10);
  acc.ProcessStart(300'000, 10, "c.EXE");
  acc.Switch(Sw(600'000, 0, 10, 13, kIdle, 0));
  acc.End(1'000'000);
  ASSERT_EQ(r.buckets.size(), 2u);
  // The reuse came before the bucket's end: both processes are in it, a with what it ran.
  ASSERT_EQ(r.buckets[0].processes.size(), 2u);
  EXPECT_EQ(r.buckets[0].processes[0].name, "a");
  EXPECT_EQ(r.buckets[0].processes[0].cpu_us, 100'000);
  EXPECT_EQ(r.buckets[0].processes[1].name, "c");
  EXPECT_EQ(r.buckets[0].processes[1].cpu_us, 0);
  ASSERT_EQ(r.buckets[1].processes.size(), 1u);
  EXPECT_EQ(r.buckets[1].processes.at(0).name, "c");
  EXPECT_EQ(r.buckets[1].processes.at(0).cpu_us, 400'000);
}

// A pid that goes to a new process of the same image within a second is one series (name:pid):
// the bucket adds both up, and the queue window too.
TEST(CpuAccountingTest, APidReusedByTheSameImageWithinABucketAddsUp) {
  Recorder r;
  CpuAccounting acc = r.Make(1'000'000, 1'000'000);
  acc.Begin(0);
  acc.ProcessStart(0, 10, "a.exe");
  acc.Ready(50'000, 11);
  acc.Switch(Sw(100'000, 0, 10, 11, kIdle, 0));
  acc.Switch(Sw(200'000, 0, kIdle, 0, 10, 11));
  acc.ThreadEnd(11);
  acc.ProcessEnd(300'000, 10);
  acc.ProcessStart(300'000, 10, "a.exe");
  acc.Ready(500'000, 12);
  acc.Switch(Sw(600'000, 0, 10, 12, kIdle, 0));
  acc.Switch(Sw(900'000, 0, kIdle, 0, 10, 12));
  acc.End(1'000'000);
  ASSERT_EQ(r.buckets.size(), 1u);
  ASSERT_EQ(r.buckets[0].processes.size(), 1u);
  EXPECT_EQ(r.buckets[0].processes[0].cpu_us, 400'000);
  EXPECT_EQ(r.buckets[0].processes[0].union_us, 400'000);
  EXPECT_EQ(r.buckets[0].processes[0].switch_ins, 2);
  EXPECT_EQ(r.buckets[0].processes[0].queue_us, 150'000);
  ASSERT_EQ(r.windows.size(), 1u);
  ASSERT_EQ(r.windows[0].processes.size(), 1u);
  EXPECT_EQ(r.windows[0].processes[0].switch_ins, 2);
}

TEST(CpuAccountingTest, QueueP95IsPerWindowOfSwitchIns) {
  Recorder r;
  CpuAccounting acc = r.Make(1'000'000, 2'000'000);
  acc.Begin(0);
  acc.Switch(Sw(0, 0, kIdle, 0, kIdle, 0));
  int64_t t = 0;
  // 20 switch-ins of b.21 in the first window, queued 1..20 ms; one in the second, 7 ms.
  for (int i = 1; i <= 20; ++i) {
    acc.Ready(t + 1000, 21);
    t += 1000 + i * 1000;
    acc.Switch(Sw(t, 0, 20, 21, kIdle, 0));
    acc.Switch(Sw(t + 10, 0, kIdle, 0, 20, 21));
  }
  acc.Ready(2'100'000, 21);
  acc.Switch(Sw(2'107'000, 0, 20, 21, kIdle, 0));
  acc.End(3'000'000);
  ASSERT_EQ(r.windows.size(), 2u);
  EXPECT_EQ(r.windows[0].end_us, 2'000'000);
  ASSERT_EQ(r.windows[0].processes.size(), 1u);
  EXPECT_EQ(r.windows[0].processes[0].switch_ins, 20);
  // Closest ranks, linear between them: 19.05 ms; the sketch's buckets hold single values here.
  EXPECT_NEAR(r.windows[0].processes[0].p95_us, 19'050, 19'050 * 0.01);
  EXPECT_EQ(r.windows[1].start_us, 2'000'000);
  EXPECT_EQ(r.windows[1].end_us, 3'000'000);
  EXPECT_NEAR(r.windows[1].processes[0].p95_us, 7'000, 70);
}

}  // namespace
}  // namespace vrecon::etw
