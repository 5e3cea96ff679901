// WPA's CPU Usage (Precise) CSV export through its reader (adapters/etw/wpa_precise): headers
// whose columns move, repeat, carry units or go missing, quoted cells and thousands separators,
// rows in any order, overlapping and reversed runs, unreadable processes, with and without a
// resume point (from the seed, fuzz/wpa_harness.h).
// Properties: the chunking property; the sink contract (TranscriptSink); LooksLikeWpaPrecise
// never crashes.
#include <cstddef>
#include <cstdint>

#include "adapters/etw/wpa_csv.h"
#include "adapters/etw/wpa_precise.h"
#include "fuzz/chunking_property.h"
#include "fuzz/wpa_harness.h"

using namespace vrecon;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::CheckChunking(data, size, fuzz::ReadWpa<etw::WpaPreciseReader>);
  (void)etw::wpa::LooksLikeWpaPrecise(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
