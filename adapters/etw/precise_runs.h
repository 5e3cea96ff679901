// The runs of WPA's CPU Usage (Precise) table put back into time order and replayed into
// CpuAccounting as the context switches that made them (docs/formats/etw.md). Each row of that
// table is one context switch seen from the thread it switched in: the thread ran on a CPU from
// its switch-in to its next switch-out, after queueing `ready` for it. The rows come in the view's
// order (grouped by process, sorted by a column), so they are kept as compact records, sorted,
// and replayed:
//   - at each switch-in, a CSwitch from the CPU's run that ends there (or from Idle, when the CPU
//     was between runs), after a ReadyThread `ready` earlier when the queue time is known;
//   - where a run ends and no run starts on its CPU, a CSwitch to Idle.
// A run whose process or thread could not be read still holds its CPU: its time is unknown
// ("% Unknown Time"), never idle or anyone's.
// Memory: 40 bytes per run (sorted in chunks of 64 Ki runs, then merged) and the processes' names.
// Pure: no file or store.
#ifndef VRECON_ADAPTERS_ETW_PRECISE_RUNS_H_
#define VRECON_ADAPTERS_ETW_PRECISE_RUNS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "adapters/etw/cpu_accounting.h"

namespace vrecon::etw {

struct Run {
  int64_t in_us = 0, out_us = 0;  // from the trace's start
  int64_t ready_us = -1;          // queue time before the switch-in; -1: not known
  uint32_t tid = 0;
  uint32_t line = 0;   // of the row, for issues found once the runs are in order
  uint32_t proc : 20;  // PreciseRuns::Process's index, or kUnreadable
  uint32_t cpu : 12;   // 0..4095
  Run() : proc(0), cpu(0) {}
};
static_assert(sizeof(Run) == 40, "docs/formats/etw.md and docs/performance.md give 40 bytes per row");

class PreciseRuns {
 public:
  static constexpr uint32_t kUnreadable = (1U << 20) - 1;  // a run whose process or thread is not known
  static constexpr int kMaxCpu = 4095;

  // The index of a "New Process" cell ("sqlservr.exe (1234)", "Idle (0)"), interned; kUnreadable
  // when it is not that shape, or when a millionth process would not fit.
  uint32_t Process(std::string_view cell);
  void Add(const Run& r);
  bool empty() const { return runs_ == 0; }
  int64_t runs() const { return runs_; }
  // The earliest time a run tells of: a switch-in, or the start of its queue time.
  int64_t first_us() const { return first_us_; }

  // A run to report: its row's line, an issue code and the message.
  using IssueFn = std::function<void(int64_t line, const char* code, std::string message)>;
  // Replays every run in switch-in order into `acc`, which has begun (Begin) at or before
  // first_us(); ends it (End) at the last switch-out and returns that time. Runs that overlap the
  // run before them on their CPU are left out, with an `overlapping-run` issue each. The runs are
  // consumed.
  int64_t Replay(CpuAccounting* acc, const IssueFn& issue);
  // True while Replay ends an unreadable run: the CSwitch it makes breaks the switch sequence on
  // purpose (that is how its time becomes unknown), and the break is no lost event.
  bool ending_unreadable() const { return ending_unreadable_; }

 private:
  struct Proc {
    std::string image;  // "sqlservr.exe"
    uint32_t pid = 0;
    int open = 0;  // its runs under way during Replay
  };
  struct CpuState {
    bool open = false;  // a run is under way (Idle's included)
    int64_t out_us = 0;
    uint32_t tid = 0, proc = 0;
  };

  void SortChunk();
  void SwitchAt(CpuAccounting* acc, int64_t t, int cpu, const Run* next, const IssueFn& issue);

  std::vector<std::vector<Run>> chunks_;  // each sorted once full
  int64_t runs_ = 0;
  int64_t first_us_ = INT64_MAX;
  std::vector<Proc> procs_;
  struct CellHash {  // looks a cell up without copying it
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, uint32_t, CellHash, std::equal_to<>> proc_index_;  // by the cell's text
  std::string last_cell_;             // the last cell looked up, and its index:
  uint32_t last_proc_ = kUnreadable;  // a view groups a process's rows together

  std::vector<CpuState> cpus_;                    // during Replay, by CPU number
  std::unordered_map<uint32_t, uint32_t> owner_;  // pid -> the process that had it last
  bool ending_unreadable_ = false;
};

}  // namespace vrecon::etw

#endif  // VRECON_ADAPTERS_ETW_PRECISE_RUNS_H_
