// A SampleSink that writes down everything a parser hands it, in order, as text: two runs of a
// parser over the same bytes must leave the same transcript, whatever the chunking. Rows, most of
// a transcript, are hashed (128 bits, every time and value bit for bit) rather than written out:
// writing them was most of a fuzz run's time. With g_verbose_transcript they are written out, to
// show where two transcripts part (chunking_property.cc reads an input again so when they do).
#ifndef VRECON_FUZZ_TRANSCRIPT_SINK_H_
#define VRECON_FUZZ_TRANSCRIPT_SINK_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/reader.h"
#include "src/core/sample_sink.h"

namespace vrecon::fuzz {

inline bool g_verbose_transcript = false;

class TranscriptSink : public SampleSink {
 public:
  Status DeclareColumns(const std::vector<SeriesKey>& columns) override;
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override;
  void AddIssue(ImportIssue issue) override;
  void AddClockEvent(ClockRecord event) override;

  // What was handed over so far (rows up to now hashed into one line).
  std::string& Text();

  size_t declared = 0;  // columns of the latest declaration
  std::vector<SeriesKey> columns;

 private:
  void Hash(uint64_t word);
  void FlushRows();

  std::string text_;
  bool verbose_ = g_verbose_transcript;
  uint64_t rows_ = 0, h1_ = 0, h2_ = 0;
};

// Appends a key's every field, a status, or a Perfmon-shaped summary to `out`.
void AppendKey(const SeriesKey& k, std::string* out);
void AppendStatus(const Status& s, std::string* out);
void AppendSummary(const ReadSummary& s, std::string* out);

// Feeds `chunks` to `reader` (whose sink is `sink`), then finishes it unless a chunk failed, and
// returns the sink's transcript with the status and the summary appended.
std::string ReadThrough(Reader* reader, const std::vector<std::string_view>& chunks, TranscriptSink* sink);

}  // namespace vrecon::fuzz

#endif  // VRECON_FUZZ_TRANSCRIPT_SINK_H_
