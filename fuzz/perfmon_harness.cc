#include "fuzz/perfmon_harness.h"

#include "adapters/perfmon/perfmon_reader.h"
#include "fuzz/chunking_property.h"
#include "fuzz/transcript_sink.h"

namespace vrecon::fuzz {

std::string ReadPerfmon(const std::vector<std::string_view>& chunks, uint32_t seed, std::vector<SeriesKey>* columns) {
  const uint32_t opt = OptionBits(seed);
  ReaderOptions o;
  o.file = "fuzz.csv";
  if ((opt & 7) == 1) o.encoding = Encoding::kUtf16Le;
  if ((opt & 7) == 2) o.encoding = Encoding::kCp1251;
  if (opt & 8) o.tz_bias_minutes = -330;
  if (opt & 16) {
    // An earlier ingest stored the first lines: they are re-read quietly for the clock state.
    const ResumePoint rp{static_cast<int64_t>((opt >> 5) & 7), 0};
    o.resume_lookup = [rp](uint64_t) { return rp; };
  }
  TranscriptSink sink;
  perfmon::PerfmonReader parser(std::move(o), &sink);
  ReadThrough(&parser, chunks, &sink);
  const perfmon::FormatCell& cell = parser.format_cell();
  sink.Text().append("cell bias=").append(cell.bias_minutes ? std::to_string(*cell.bias_minutes) : "-");
  sink.Text().append(cell.cut_off ? " cut\n" : "\n");
  if (columns) *columns = sink.columns;
  return sink.Text();
}

}  // namespace vrecon::fuzz
