// xperf dumper text (docs/formats/etw.md) for tests that write their own traces: thread runs on
// CPUs become the CSwitch events that start and end them, with Idle between, and ReadyThread
// events where a run says when its thread was readied. Times are microseconds from the trace's
// start, which the header gives as a FILETIME.
#ifndef VRECON_TESTS_SUPPORT_XPERF_TEXT_H_
#define VRECON_TESTS_SUPPORT_XPERF_TEXT_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace vrecon::testing {

struct ThreadRun {
  int cpu = 0;
  int64_t from_us = 0, to_us = 0;
  std::string image;  // "sqlservr.exe"
  uint32_t pid = 0, tid = 0;
  int64_t readied_us = -1;  // a ReadyThread for it at this time (-1: none)
};

// `trace_start_filetime`: 100 ns units since 1601 (134380872000000000 is 2026-11-02T10:00:00Z).
inline std::string XperfText(const std::vector<ThreadRun>& runs, int64_t trace_start_filetime = 134380872000000000) {
  std::string out =
      "BeginHeader\n"
      "CSwitch,  TimeStamp, New Process Name ( PID),    New TID, NPri, NQnt, TmSinceLast, WaitTime, Old Process "
      "Name ( PID),    Old TID, OPri, OQnt,        OldState,      Wait Reason, Swapable, InSwitchTime, CPU, "
      "IdealProc,  OldRemQnt, NewPriDecr, PrevCState\n"
      "ReadyThread,  TimeStamp,     Process Name ( PID),   ThreadID, Rdy Process Name ( PID),    Rdy TID, "
      "AdjustReason, AdjustIncrement, Flag, CPU\n"
      "EndHeader\n"
      "OS Version: 10.0.19045, Trace Size: 1024KB, Events Lost: 0, Buffers lost: 0, Trace Start: " +
      std::to_string(trace_start_filetime) + ", Trace Length: 1 sec, PointerSize: 8, Trace Name: test.etl\n";
  auto name = [](const ThreadRun* r) {
    return r ? r->image + " (" + std::to_string(r->pid) + ")" : std::string("Idle (   0)");
  };
  // Per CPU in time order: a switch in at each run's start, from the run before when it ended
  // then, else from Idle; a switch to Idle where a run ends before the next starts.
  std::map<std::tuple<int64_t, int, int>, std::string> lines;  // (time, kind, cpu): ReadyThread first
  std::map<int, std::vector<const ThreadRun*>> per_cpu;
  for (const ThreadRun& r : runs) per_cpu[r.cpu].push_back(&r);
  for (auto& [cpu, list] : per_cpu) {
    std::sort(list.begin(), list.end(), [](auto* a, auto* b) { return a->from_us < b->from_us; });
    const ThreadRun* prev = nullptr;
    auto cswitch = [&, cpu = cpu](int64_t t, const ThreadRun* in, const ThreadRun* out_run) {
      lines[{t, 1, cpu}] = "CSwitch, " + std::to_string(t) + ", " + name(in) + ", " + std::to_string(in ? in->tid : 0) +
                           ", 9, -1, 0, 0, " + name(out_run) + ", " + std::to_string(out_run ? out_run->tid : 0) +
                           ", 8, -1, Waiting, WrQueue, NonSwap, 0, " + std::to_string(cpu) + ", 0, 0, 0, 0\n";
    };
    for (const ThreadRun* r : list) {
      if (prev && prev->to_us < r->from_us) {
        cswitch(prev->to_us, nullptr, prev);
        prev = nullptr;
      }
      cswitch(r->from_us, r, prev);
      if (r->readied_us >= 0)
        lines[{r->readied_us, 0, cpu}] = "ReadyThread, " + std::to_string(r->readied_us) + ", System (   4), 12, " +
                                         name(r) + ", " + std::to_string(r->tid) + ", 1, 0, 0, " + std::to_string(cpu) +
                                         "\n";
      prev = r;
    }
    if (prev) cswitch(prev->to_us, nullptr, prev);
  }
  for (const auto& [key, line] : lines) out += line;
  return out;
}

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_XPERF_TEXT_H_
