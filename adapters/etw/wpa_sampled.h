// Reader of WPA's "CPU Usage (Sampled)" table exported to CSV (Windows Performance Analyzer:
// right-click the table, Export; or `wpaexporter` with a profile of that table), one row per
// profile sample: the process and CPU the profile interrupt found running, and the CPU time the
// sample stands for (its Weight, the profile interval: about 1 ms at the default 1 kHz)
// (docs/formats/etw.md):
//
//   Line #,Process Name,Process,Thread ID,CPU,Weight (ms),% Weight,Count,TimeStamp (s),Stack
//   1,sqlservr.exe,sqlservr.exe (1200),1202,1,"1.000100",0.42,1,"0.100500000",...
//
// Columns are found by name, in any order, with the unit the header gives (wpa_table.h). Rows
// come in the view's order; their weights are summed per second (ProfileBuckets), so memory does
// not grow with the rows. Times count from the trace's start, which the export does not carry:
// ReaderOptions::trace_start (ingest --trace-start) gives it, and ReaderOptions::default_machine
// (--machine) the computer. Its series are the `profile` basis of the correction. Pure: no file
// or store.
#ifndef VRECON_ADAPTERS_ETW_WPA_SAMPLED_H_
#define VRECON_ADAPTERS_ETW_WPA_SAMPLED_H_

#include <optional>
#include <string_view>

#include "adapters/etw/profile_buckets.h"
#include "adapters/etw/wpa_table.h"

namespace vrecon::etw {

class WpaSampledReader : public wpa::TableReader {
 public:
  WpaSampledReader(ReaderOptions options, SampleSink* sink);

 private:
  // The columns read; kWeightInView stands in for kWeight.
  enum Field { kProcess, kCpu, kWeight, kWeightInView, kTime, kCount };
  static const wpa::TableSpec kTable;

  Status CheckColumns() override;
  void OnRow() override;
  bool NothingRead() const override { return !buckets_ || buckets_->empty(); }
  Status Write() override;
  // The sample's weight in microseconds; false (with an issue) when it is not one sample's.
  bool WeightOf(std::string_view cell, double* us);

  std::optional<ProfileBuckets> buckets_;  // from the first row on
};

}  // namespace vrecon::etw

#endif  // VRECON_ADAPTERS_ETW_WPA_SAMPLED_H_
