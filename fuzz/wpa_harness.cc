#include "fuzz/wpa_harness.h"

#include "fuzz/chunking_property.h"
#include "src/core/time_util.h"

namespace vrecon::fuzz {

ReaderOptions WpaOptions(uint32_t seed) {
  const uint32_t opt = OptionBits(seed);
  ReaderOptions o;
  o.file = "fuzz.csv";
  o.default_machine = "fuzzhost";
  o.trace_start = DaysFromCivil(2026, 11, 2) * 86400 * kNsPerSec + ((opt & 1) ? 400'000'000 : 0);
  if (opt & 2) {
    const ResumePoint rp{static_cast<int64_t>((opt >> 2) & 15), 0};
    o.resume_lookup = [rp](uint64_t) { return rp; };
  }
  return o;
}

}  // namespace vrecon::fuzz
