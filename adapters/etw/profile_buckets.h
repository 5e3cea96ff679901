// A sampled CPU profile's per-second accounting (WPA's CPU Usage (Sampled) table,
// docs/formats/etw.md): each sample stands for its Weight of CPU time on its CPU, charged to its
// process (or to idle). Samples come in any order; their weights are summed per whole second of
// absolute time (a sample stands for the interval before its time: one on a whole second closes
// that second), per process and per CPU, and written at the end as guest series of one machine:
//   ETW Profile Process(name:pid)\% Processor Time     its samples' weight / second, % of one CPU
//   ETW Profile Processor(n | _Total)\% Processor Time the CPU's non-idle weight / second
// A second without any sample (idle included) is a gap: no row, missing rather than zero.
// Memory: the seconds times the processes and CPUs sampled in each, not the number of samples.
// Pure: no file or store.
#ifndef VRECON_ADAPTERS_ETW_PROFILE_BUCKETS_H_
#define VRECON_ADAPTERS_ETW_PROFILE_BUCKETS_H_

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "src/core/reader.h"
#include "src/core/sample_sink.h"

namespace vrecon::etw {

inline constexpr const char* kProfileProcessObject = "ETW Profile Process";
inline constexpr const char* kProfileProcessorObject = "ETW Profile Processor";

class ProfileBuckets {
 public:
  static constexpr uint32_t kIdle = std::numeric_limits<uint32_t>::max();  // the Idle process (pid 0)
  // A sample whose process cannot be read: its CPU was busy, for no known process.
  static constexpr uint32_t kUnknown = kIdle - 1;

  explicit ProfileBuckets(TimeNs trace_start);

  // The process of an "image (pid)" cell, interned; kIdle for pid 0.
  uint32_t Process(std::string_view image, uint32_t pid);
  // A sample at `t_us` from the trace's start that stands for `weight_us` of CPU time.
  void Add(int64_t t_us, double weight_us, int cpu, uint32_t process);
  bool empty() const { return seconds_.empty(); }

  // The series, one row per second that holds a sample, into `sink` (or only counted in
  // summary->rows_already when `quiet`: an earlier ingest stored them).
  Status Write(const std::string& machine, bool quiet, SampleSink* sink, ReadSummary* summary) const;

 private:
  struct Second {
    std::unordered_map<uint32_t, double> process_us;  // weight per process, idle left out
    std::map<int, double> cpu_busy_us;                // non-idle weight per CPU sampled (0: only idle)
  };
  struct Proc {
    std::string name;  // without ".exe"
    uint32_t pid;
    int64_t first = 0;  // its first second
  };
  std::vector<SeriesKey> Columns(const std::string& machine) const;
  // The second's span, absolute: the whole second, clipped to the samples' reach (from the first
  // one's interval, never before the trace's start, to the last one's time).
  std::pair<TimeNs, TimeNs> Span(int64_t second) const;

  TimeNs trace_start_;
  TimeNs second_zero_;  // the whole second of absolute time holding the trace's start
  std::map<int64_t, Second> seconds_;
  std::vector<Proc> procs_;
  std::map<std::pair<std::string, uint32_t>, uint32_t, std::less<>> proc_index_;
  std::map<int, int64_t> cpu_first_;  // per CPU: its first second
  int64_t reach_from_us_ = std::numeric_limits<int64_t>::max(), reach_to_us_ = 0;
};

}  // namespace vrecon::etw

#endif  // VRECON_ADAPTERS_ETW_PROFILE_BUCKETS_H_
