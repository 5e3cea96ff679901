// Reader of WPA's "CPU Usage (Precise)" table exported to CSV (Windows Performance Analyzer:
// right-click the table, Export; or `wpaexporter -i trace.etl -profile P.wpaProfile`), one row per
// context switch seen from the thread it switched in (docs/formats/etw.md):
//
//   New Process,New Thread Id,Cpu,Switch-In Time (s),Next Switch-Out Time (s),Ready (µs),...
//   sqlservr.exe (1200),1202,1,0.400000000,0.700000000,"50,000.000",...
//
// Columns are found by name, with or without WPA 10's blanks and hyphens and with the unit the
// header gives (s, ms, µs, ns; wpa_table.h). Rows come in the view's order, not in time order: they are kept
// as compact runs (PreciseRuns), sorted at the end, and replayed into CpuAccounting; the figures
// are those of the xperf dumper reader for the same context switches. Times count from the
// trace's start, which the export does not carry: ReaderOptions::trace_start (ingest
// --trace-start) gives it, and ReaderOptions::default_machine (--machine) the computer. The table
// has no DPC or interrupt time: those series are not stored. Pure: no file or store.
#ifndef VRECON_ADAPTERS_ETW_WPA_PRECISE_H_
#define VRECON_ADAPTERS_ETW_WPA_PRECISE_H_

#include <memory>
#include <string_view>

#include "adapters/etw/cpu_accounting.h"
#include "adapters/etw/event_series.h"
#include "adapters/etw/precise_runs.h"
#include "adapters/etw/wpa_table.h"

namespace vrecon::etw {

class WpaPreciseReader : public wpa::TableReader {
 public:
  WpaPreciseReader(ReaderOptions options, SampleSink* sink);

 private:
  // The columns read; kEnd and kDuration are alternatives, as are kReady and kReadyTime.
  enum Field { kProcess, kThread, kCpu, kIn, kEnd, kDuration, kReady, kReadyTime, kCount };
  static const wpa::TableSpec kTable;

  Status CheckColumns() override;
  void OnRow() override;
  bool NothingRead() const override { return runs_.empty(); }
  Status Write() override;
  // A time or duration cell in its column's unit as microseconds; false (with an issue) when it
  // is not a number.
  bool Micros(int field, std::string_view cell, int64_t* us);
  int64_t ReadyOf(std::string_view ready, std::string_view ready_time, int64_t in_us);

  PreciseRuns runs_;
  std::unique_ptr<CpuAccounting> accounting_;
  std::unique_ptr<EventSeriesWriter> writer_;
  Status sink_status_;
};

}  // namespace vrecon::etw

#endif  // VRECON_ADAPTERS_ETW_WPA_PRECISE_H_
