// Streaming reader of `xperf -i trace.etl -o trace.txt -a dumper` text (docs/formats/etw.md):
//
//   BeginHeader
//   CSwitch,  TimeStamp, New Process Name ( PID),    New TID, ..., OldState, ..., CPU, ...
//   ReadyThread,  TimeStamp, ..., Rdy TID, ...
//   EndHeader
//   OS Version: 10.0.19045, ..., Events Lost: 0, Buffers lost: 0, Trace Start: 1337..., ...
//   CSwitch,      64630,             Idle (   0),          0, ...
//
// The header declares each event type's fields: the reader finds the ones it needs by name, so
// xperf versions that add or move columns read alike. Used: CSwitch, ReadyThread, DPC, DPCTmr,
// Interrupt, P-Start, P-DCStart, P-End and T-End; other events are skipped. Timestamps are
// microseconds from the trace's start, which the line after EndHeader gives as a FILETIME
// ("Trace Start"); without it ReaderOptions::trace_start is needed. The text never names the
// computer: ReaderOptions::default_machine (ingest --machine) must. Events go through
// CpuAccounting and out as EventSeriesWriter's series. Pure: no file or store.
#ifndef VRECON_ADAPTERS_ETW_XPERF_DUMPER_H_
#define VRECON_ADAPTERS_ETW_XPERF_DUMPER_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "adapters/etw/cpu_accounting.h"
#include "adapters/etw/event_series.h"
#include "src/core/reader.h"

namespace vrecon::etw {

class XperfDumperReader : public LineReader {
 public:
  XperfDumperReader(ReaderOptions options, SampleSink* sink);

 private:
  // The events read and the fields they need, by name as the header writes them.
  enum class Kind { kCSwitch, kReady, kDpc, kIsr, kProcessStart, kProcessEnd, kThreadEnd };
  struct Layout {
    Kind kind;
    std::vector<int> fields;  // indexes of the needed fields in the event's line
    int max_field = 0;
  };

  Status OnLine(std::string_view line) override;
  Status EndLines() override;
  Status OnHeaderLine(std::string_view line);
  Status OnTraceInfo(std::string_view line);
  Status BeginEvents();
  Status OnEvent(std::string_view line);
  void OnCSwitch(const std::array<std::string_view, 8>& f, int64_t t);
  void Issue(Severity severity, const char* code, std::string message, int64_t line = -1);
  std::string Where() const { return options_.file + ":" + std::to_string(summary_.lines); }

  bool header_begun_ = false, header_done_ = false, events_begun_ = false;
  std::unordered_map<std::string, Layout> layouts_;  // by event name
  std::optional<TimeNs> file_start_;
  int64_t events_lost_ = 0, buffers_lost_ = 0;
  bool info_seen_ = false;

  std::unique_ptr<CpuAccounting> accounting_;
  std::unique_ptr<EventSeriesWriter> writer_;
  Status sink_status_;
  int64_t first_t_ = -1, last_t_ = 0;
  int64_t switches_ = 0;
  std::string last_line_;
  std::array<std::string_view, 64> cells_{};  // the cells of the line being read
};

// True when `head` (a file's first bytes) starts, after blank lines, with xperf's "BeginHeader".
bool LooksLikeXperfDumper(std::string_view head);

// A FILETIME (100 ns units since 1601-01-01 UTC) as UTC nanoseconds since 1970.
std::optional<TimeNs> FromFileTime(std::string_view digits);

// "svchost.exe ( 884)" -> image "svchost.exe", pid 884; false when it is not that shape.
bool ParseProcessField(std::string_view field, std::string_view* image, uint32_t* pid);

}  // namespace vrecon::etw

#endif  // VRECON_ADAPTERS_ETW_XPERF_DUMPER_H_
