// xperf dumper text (ETW context switches) through the streaming reader (adapters/etw): headers
// whose fields move or go missing, processes written "name ( pid)", broken switch sequences, time
// out of order, trace-info lines, with and without --trace-start and a resume point.
// Properties: the chunking property; the sink contract (TranscriptSink); every percentage the
// reader stores is finite; LooksLikeXperfDumper never crashes.
#include <cstddef>
#include <cstdint>

#include "adapters/etw/xperf_dumper.h"
#include "fuzz/chunking_property.h"
#include "fuzz/transcript_sink.h"

using namespace vrecon;

namespace {

std::string ReadDumper(const std::vector<std::string_view>& chunks, uint32_t seed) {
  const uint32_t opt = fuzz::OptionBits(seed);
  ReaderOptions o;
  o.file = "fuzz.txt";
  o.default_machine = "fuzzhost";
  if (opt & 1) o.trace_start = DaysFromCivil(2026, 11, 2) * 86400 * kNsPerSec;
  if (opt & 2) {
    const ResumePoint rp{static_cast<int64_t>((opt >> 2) & 15), 0};
    o.resume_lookup = [rp](uint64_t) { return rp; };
  }
  fuzz::TranscriptSink sink;
  etw::XperfDumperReader reader(std::move(o), &sink);
  return fuzz::ReadThrough(&reader, chunks, &sink);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::CheckChunking(data, size, ReadDumper);
  (void)etw::LooksLikeXperfDumper(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
