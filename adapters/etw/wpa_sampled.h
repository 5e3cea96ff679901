// Reader of WPA's "CPU Usage (Sampled)" table exported to CSV (Windows Performance Analyzer:
// right-click the table, Export; or `wpaexporter` with a profile of that table), one row per
// profile sample: the process and CPU the profile interrupt found running, and the CPU time the
// sample stands for (its Weight, the profile interval: about 1 ms at the default 1 kHz)
// (docs/formats/etw.md):
//
//   Line #,Process Name,Process,Thread ID,CPU,Weight (ms),% Weight,Count,TimeStamp (s),Stack
//   1,sqlservr.exe,sqlservr.exe (1200),1202,1,"1.000100",0.42,1,"0.100500000",...
//
// Columns are found by name, in any order, with the unit the header gives (wpa_csv.h). Rows come
// in the view's order; their weights are summed per second (ProfileBuckets), so memory does not
// grow with the rows. Times count from the trace's start, which the export does not carry:
// ReaderOptions::trace_start (ingest --trace-start) gives it, and ReaderOptions::default_machine
// (--machine) the computer. Its series are the `profile` basis of the correction. Pure: no file
// or store.
#ifndef VRECON_ADAPTERS_ETW_WPA_SAMPLED_H_
#define VRECON_ADAPTERS_ETW_WPA_SAMPLED_H_

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/etw/profile_buckets.h"
#include "adapters/etw/wpa_csv.h"
#include "src/core/reader.h"

namespace vrecon::etw {

class WpaSampledReader : public LineReader {
 public:
  WpaSampledReader(ReaderOptions options, SampleSink* sink);

 private:
  // The columns read; kWeightInView stands in for kWeight.
  enum Field { kProcess, kCpu, kWeight, kWeightInView, kTime, kCount, kFields };

  Status OnLine(std::string_view line) override;
  Status EndLines() override;
  Status OnHeader(std::string_view line);
  void OnRow(std::string_view line);
  std::string_view Cell(Field f) const;
  // The sample's weight in microseconds; false (with an issue) when it is not one sample's.
  bool WeightOf(std::string_view cell, double* us);
  void Issue(int64_t line, Severity severity, const char* code, std::string message);

  bool header_done_ = false;
  std::array<int, kFields> column_{};  // index of each field's column, or -1
  std::array<wpa::Unit, kFields> unit_{};
  size_t needed_cells_ = 0;
  wpa::CsvCells cells_;
  std::optional<ProfileBuckets> buckets_;  // from the header on
  bool quiet_ = false;                     // an earlier ingest stored this very file
  bool lookup_done_ = false;               // the resume lookup has answered
  std::vector<ImportIssue> held_;          // issue details until then
  std::string last_line_;
};

}  // namespace vrecon::etw

#endif  // VRECON_ADAPTERS_ETW_WPA_SAMPLED_H_
