// sysstat `sar -u` / `sar -P ALL` / `sar -u ALL` text through the streaming sar reader
// (adapters/linux_proc/sar_reader), with and without a header date, --tz-bias and a resume point.
// Properties: the chunking property; LooksLikeSar (how ingest picks the reader) never crashes.
#include <cstddef>
#include <cstdint>

#include "adapters/linux_proc/sar_reader.h"
#include "fuzz/chunking_property.h"
#include "fuzz/transcript_sink.h"

using namespace vrecon;

namespace {

std::string ReadSar(const std::vector<std::string_view>& chunks, uint32_t seed) {
  const uint32_t opt = fuzz::OptionBits(seed);
  ReaderOptions o;
  o.file = "fuzz.sar";
  o.default_machine = "fuzzhost";
  if (opt & 1) o.date = DaysFromCivil(2024, 3, 7) * 86400 * kNsPerSec;
  if (opt & 2) o.tz_bias_minutes = 60;
  if (opt & 4) {
    const ResumePoint rp{static_cast<int64_t>((opt >> 3) & 7), 0};
    o.resume_lookup = [rp](uint64_t) { return rp; };
  }
  fuzz::TranscriptSink sink;
  sar::SarReader parser(std::move(o), &sink);
  return fuzz::ReadThrough(&parser, chunks, &sink);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::CheckChunking(data, size, ReadSar);
  (void)sar::LooksLikeSar(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
