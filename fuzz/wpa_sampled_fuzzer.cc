// WPA's CPU Usage (Sampled) CSV export through its reader (adapters/etw/wpa_sampled and
// profile_buckets): headers whose columns move, repeat, carry units or go missing, quoted cells
// and thousands separators, stacks holding commas, rows in any order, aggregated rows, weights too
// heavy for a sample, unreadable processes, with and without a resume point. The trace start and
// machine are always given (without them the reader refuses at the header, which the unit tests
// check).
// Properties: the chunking property; the sink contract (TranscriptSink); LooksLikeWpaSampled
// never crashes.
#include <cstddef>
#include <cstdint>

#include "adapters/etw/wpa_csv.h"
#include "adapters/etw/wpa_sampled.h"
#include "fuzz/chunking_property.h"
#include "fuzz/transcript_sink.h"

using namespace vrecon;

namespace {

std::string ReadExport(const std::vector<std::string_view>& chunks, uint32_t seed) {
  const uint32_t opt = fuzz::OptionBits(seed);
  ReaderOptions o;
  o.file = "fuzz.csv";
  o.default_machine = "fuzzhost";
  // A start on a whole second, or 0.4 s past one: seconds cut at other phases.
  o.trace_start = DaysFromCivil(2026, 11, 2) * 86400 * kNsPerSec + ((opt & 1) ? 400'000'000 : 0);
  if (opt & 2) {
    const ResumePoint rp{static_cast<int64_t>((opt >> 2) & 15), 0};
    o.resume_lookup = [rp](uint64_t) { return rp; };
  }
  fuzz::TranscriptSink sink;
  etw::WpaSampledReader reader(std::move(o), &sink);
  Status s;
  for (std::string_view c : chunks) {
    s = reader.Parse(c);
    if (!s.ok()) break;
  }
  if (s.ok()) s = reader.Finish();
  fuzz::AppendStatus(s, &sink.Text());
  fuzz::AppendSummary(reader.summary(), &sink.Text());
  return sink.Text();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::CheckChunking(data, size, ReadExport);
  (void)etw::wpa::LooksLikeWpaSampled(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
