// Reader of WPA's "CPU Usage (Precise)" table exported to CSV (Windows Performance Analyzer:
// right-click the table, Export; or `wpaexporter -i trace.etl -profile P.wpaProfile`), one row per
// context switch seen from the thread it switched in (docs/formats/etw.md):
//
//   New Process,New Thread Id,Cpu,Switch-In Time (s),Next Switch-Out Time (s),Ready (µs),...
//   sqlservr.exe (1200),1202,1,0.400000000,0.700000000,"50,000.000",...
//
// Columns are found by name, with or without WPA 10's blanks and hyphens and with the unit the
// header gives (s, ms, µs, ns). Rows come in the view's order, not in time order: they are kept
// as compact runs (PreciseRuns), sorted at the end, and replayed into CpuAccounting; the figures
// are those of the xperf dumper reader for the same context switches. Times count from the
// trace's start, which the export does not carry: ReaderOptions::trace_start (ingest
// --trace-start) gives it, and ReaderOptions::default_machine (--machine) the computer. The table
// has no DPC or interrupt time: those series are not stored. Pure: no file or store.
#ifndef VRECON_ADAPTERS_ETW_WPA_PRECISE_H_
#define VRECON_ADAPTERS_ETW_WPA_PRECISE_H_

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/etw/cpu_accounting.h"
#include "adapters/etw/event_series.h"
#include "adapters/etw/precise_runs.h"
#include "adapters/etw/wpa_csv.h"
#include "src/core/reader.h"

namespace vrecon::etw {

class WpaPreciseReader : public LineReader {
 public:
  WpaPreciseReader(ReaderOptions options, SampleSink* sink);

 private:
  // The columns read; kEnd and kDuration are alternatives, as are kReady and kReadyTime.
  enum Field { kProcess, kThread, kCpu, kIn, kEnd, kDuration, kReady, kReadyTime, kCount, kFields };

  Status OnLine(std::string_view line) override;
  Status EndLines() override;
  Status OnHeader(std::string_view line);
  void OnRow(std::string_view line);
  // A time or duration cell in its column's unit as microseconds; false (with an issue) when it
  // is not a number.
  bool Micros(Field f, std::string_view cell, int64_t* us);
  int64_t ReadyOf(std::string_view ready, std::string_view ready_time, int64_t in_us);
  Status Replay();
  void Issue(int64_t line, Severity severity, const char* code, std::string message);

  bool header_done_ = false;
  std::array<int, kFields> column_{};  // index of each field's column, or -1
  std::array<wpa::Unit, kFields> unit_{};
  size_t needed_cells_ = 0;
  wpa::CsvCells cells_;
  PreciseRuns runs_;
  bool quiet_ = false;             // an earlier ingest stored this very file
  bool lookup_done_ = false;       // the resume lookup has answered
  std::vector<ImportIssue> held_;  // issue details until then
  std::string last_line_;

  std::unique_ptr<CpuAccounting> accounting_;
  std::unique_ptr<EventSeriesWriter> writer_;
  Status sink_status_;
};

}  // namespace vrecon::etw

#endif  // VRECON_ADAPTERS_ETW_WPA_PRECISE_H_
