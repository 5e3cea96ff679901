// A SampleSink that writes down everything a parser hands it, in order, as text: two runs of a
// parser over the same bytes must leave the same transcript, whatever the chunking.
#ifndef VRECON_FUZZ_TRANSCRIPT_SINK_H_
#define VRECON_FUZZ_TRANSCRIPT_SINK_H_

#include <string>
#include <vector>

#include "src/core/reader.h"
#include "src/core/sample_sink.h"

namespace vrecon::fuzz {

class TranscriptSink : public SampleSink {
 public:
  Status DeclareColumns(const std::vector<SeriesKey>& columns) override;
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override;
  void AddIssue(ImportIssue issue) override;
  void AddClockEvent(ClockRecord event) override;

  std::string text;
  size_t declared = 0;  // columns of the latest declaration
  std::vector<SeriesKey> columns;
};

// Appends a key's every field, a status, or a Perfmon-shaped summary to `out`.
void AppendKey(const SeriesKey& k, std::string* out);
void AppendStatus(const Status& s, std::string* out);
void AppendSummary(const ReadSummary& s, std::string* out);

}  // namespace vrecon::fuzz

#endif  // VRECON_FUZZ_TRANSCRIPT_SINK_H_
