// What the ETW readers store: CpuAccounting's buckets and windows as guest series of one machine
// (docs/formats/etw.md), pushed into a SampleSink.
//   ETW Process(name:pid)\% Processor Time      its threads' CPU time / bucket, % of one CPU
//   ETW Process(name:pid)\% Bottleneck Time     time at least one of its threads ran / bucket
//   ETW Process(name:pid)\% Queue Time          its switch-ins' queue time / bucket (may pass 100)
//   ETW Process(name:pid)\Queued Switch-ins/sec switch-ins whose queue time is known
//   ETW Process(name:pid)\Queue Time p95        ms, over a window's switch-ins (rows span windows)
//   ETW Processor(n | _Total)\% Processor Time, % DPC Time, % Interrupt Time, % Unknown Time
//     (the DPC and interrupt counters only from inputs that record those events)
// A process's mean queue time per switch-in over any span is % Queue Time x 10 / Queued
// Switch-ins/sec (ms). Instances are "name:pid", as Perfmon's Process V2 names them, so that
// two processes of one name stay apart. Values are missing, not zero, where a process did not
// exist.
#ifndef VRECON_ADAPTERS_ETW_EVENT_SERIES_H_
#define VRECON_ADAPTERS_ETW_EVENT_SERIES_H_

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "adapters/etw/cpu_accounting.h"
#include "src/core/reader.h"
#include "src/core/sample_sink.h"

namespace vrecon::etw {

inline constexpr const char* kProcessObject = "ETW Process";
inline constexpr const char* kProcessorObject = "ETW Processor";

// Buckets of 1 s and windows of 5 minutes on whole seconds and 5-minute marks of absolute time,
// for a trace whose times count from `trace_start`.
CpuAccounting::Options AbsoluteGrid(TimeNs trace_start);

class EventSeriesWriter {
 public:
  // `summary` gets the columns, rows and span; the sink the rows.
  EventSeriesWriter(std::string machine, TimeNs trace_start, SampleSink* sink, ReadSummary* summary);

  // Quiet: rows an earlier ingest stored are counted, not delivered.
  void set_quiet(bool quiet) { quiet_ = quiet; }
  // Which of DPC and interrupt events the input records: WPA's CPU Usage (Precise) table neither,
  // a dumper text those its header declares. The CPUs' % DPC Time or % Interrupt Time of one it
  // does not record are not stored at all rather than stored as zero. Call it before the first
  // bucket.
  void set_deferred(bool dpc, bool isr) {
    counters_ = {0};
    if (dpc) counters_.push_back(1);
    if (isr) counters_.push_back(2);
    counters_.push_back(3);
  }
  Status AddBucket(const Bucket& b);
  void AddWindow(const QueueWindow& w);  // kept until Finish: a window's p95s go out at the end
  Status Finish();

 private:
  TimeNs Abs(int64_t t_us) const { return trace_start_ + t_us * 1000; }
  SeriesKey Key(const char* object, std::string instance, const char* counter, const char* unit) const;
  size_t ProcessColumn(uint32_t pid, const std::string& name);  // first of its 4 columns
  size_t CpuColumn(int cpu);                                    // first of its counters_ columns
  // One row of the columns last declared to the sink (the caller declares them), or counted when quiet.
  Status Emit(TimeNs start, TimeNs end, const std::vector<double>& values);

  std::string machine_;
  TimeNs trace_start_;
  SampleSink* sink_;
  ReadSummary* summary_;
  bool quiet_ = false;
  // The latest end of a row counted while quiet: the earlier ingest stored the p95 windows up to it.
  TimeNs quiet_through_ = std::numeric_limits<TimeNs>::min();

  std::vector<SeriesKey> columns_;
  size_t declared_ = 0;  // columns_ declared to the sink so far
  std::map<std::pair<uint32_t, std::string>, size_t> process_columns_;
  std::vector<size_t> counters_ = {0, 1, 2, 3};  // the CPU counters stored, of kCpuCounters
  std::map<int, size_t> cpu_first_;              // per CPU number: the first of its columns
  size_t total_first_ = 0;                       // _Total's first column (after the first bucket)
  bool have_total_ = false;
  std::vector<double> values_;
  std::vector<QueueWindow> windows_;
};

}  // namespace vrecon::etw

#endif  // VRECON_ADAPTERS_ETW_EVENT_SERIES_H_
