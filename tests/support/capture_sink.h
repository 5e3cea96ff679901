// A SampleSink that keeps everything in memory, for parser tests.
#ifndef VRECON_TESTS_SUPPORT_CAPTURE_SINK_H_
#define VRECON_TESTS_SUPPORT_CAPTURE_SINK_H_

#include <vector>

#include "src/core/sample_sink.h"

namespace vrecon::testing {

struct CapturedRow {
  TimeNs start, end;
  std::vector<double> values;
};

class CaptureSink : public SampleSink {
 public:
  Status DeclareColumns(const std::vector<SeriesKey>& columns) override {
    columns_ = columns;
    return Status::Ok();
  }
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override {
    rows_.push_back(CapturedRow{start, end, std::vector<double>(values.begin(), values.end())});
    return Status::Ok();
  }
  void AddIssue(ImportIssue issue) override { issues_.push_back(std::move(issue)); }

  std::vector<SeriesKey> columns_;
  std::vector<CapturedRow> rows_;
  std::vector<ImportIssue> issues_;
};

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_CAPTURE_SINK_H_
