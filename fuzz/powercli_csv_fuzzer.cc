// PowerCLI `Get-Stat | Export-Csv` files through the streaming reader (adapters/powercli): any
// column order, #TYPE line, ',' ';' or tab delimiters, UTF-16LE and code pages, culture-specific
// timestamps and decimal commas, groups longer than kMaxGroupSamples, resume points.
// Properties: the chunking property; LooksLikePowerCliExport never crashes.
#include <cstddef>
#include <cstdint>

#include "adapters/powercli/powercli_csv.h"
#include "fuzz/chunking_property.h"
#include "fuzz/transcript_sink.h"

using namespace vrecon;

namespace {

std::string ReadPowerCli(const std::vector<std::string_view>& chunks, uint32_t seed) {
  const uint32_t opt = fuzz::OptionBits(seed);
  ReaderOptions o;
  o.file = "fuzz.csv";
  if (opt & 1) o.tz_bias_minutes = 120;
  if (opt & 2) {
    const ResumePoint rp{static_cast<int64_t>((opt >> 2) & 7), 0};
    o.resume_lookup = [rp](uint64_t) { return rp; };
  }
  fuzz::TranscriptSink sink;
  powercli::PowerCliReader parser(std::move(o), &sink);
  Status s;
  for (std::string_view c : chunks) {
    s = parser.Parse(c);
    if (!s.ok()) break;
  }
  if (s.ok()) s = parser.Finish();
  fuzz::AppendStatus(s, &sink.Text());
  const ReadSummary& m = parser.summary();
  sink.Text() +=
      "summary " + std::string(EncodingName(m.encoding)) + " " + parser.type_name() + " " + parser.delimiter();
  for (int64_t v :
       {static_cast<int64_t>(m.bias_minutes), static_cast<int64_t>(parser.zone_less_times()), m.lines, m.consumed_lines,
        m.rows, m.rows_already, m.issues, m.first_end.value_or(-1), m.last_end.value_or(-1),
        static_cast<int64_t>(m.fingerprint), static_cast<int64_t>(m.consumed_line_hash)})
    sink.Text() += " " + std::to_string(v);
  for (const SeriesKey& k : m.columns) fuzz::AppendKey(k, &sink.Text());
  return sink.Text();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::CheckChunking(data, size, ReadPowerCli);
  (void)powercli::LooksLikePowerCliExport(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
