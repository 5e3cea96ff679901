// What adapters push samples into. Adapters never see SQLite; the store implements this.
#ifndef VRECON_SRC_CORE_SAMPLE_SINK_H_
#define VRECON_SRC_CORE_SAMPLE_SINK_H_

#include <span>
#include <vector>

#include "src/core/sample.h"
#include "src/core/status.h"

namespace vrecon {

class SampleSink {
 public:
  virtual ~SampleSink() = default;
  // Declares the columns of the rows that follow; called before the first row, and again when
  // an input changes column set (a PowerCLI export declares one set per entity and metric).
  // Rows always refer to the latest declaration; a series may appear in several sets.
  virtual Status DeclareColumns(const std::vector<SeriesKey>& columns) = 0;
  // One collection: every column's value over [start, end] (start == end for the first row of
  // a log, which has no previous collection). values.size() == number of declared columns;
  // kMissing marks a missing value.
  virtual Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) = 0;
  virtual void AddIssue(ImportIssue issue) = 0;
  // A clock event (DST shift, clock stepped back), every one of them: unlike issues they are not
  // capped, because the clock model needs each. Sinks that keep no clock ignore them.
  // By value so that a sink that keeps the event moves it; this default drops it.
  virtual void AddClockEvent(ClockRecord /*event*/) {}  // NOLINT(performance-unnecessary-value-param)
};

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_SAMPLE_SINK_H_
