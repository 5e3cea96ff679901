// WPA's CPU Usage (Sampled) CSV export through its reader (adapters/etw/wpa_sampled and
// profile_buckets): headers whose columns move, repeat, carry units or go missing, quoted cells
// and thousands separators, stacks holding commas, rows in any order, aggregated rows, weights too
// heavy for a sample, unreadable processes, with and without a resume point
// (from the seed, fuzz/wpa_harness.h).
// Properties: the chunking property; the sink contract (TranscriptSink); LooksLikeWpaSampled
// never crashes.
#include <cstddef>
#include <cstdint>

#include "adapters/etw/wpa_csv.h"
#include "adapters/etw/wpa_sampled.h"
#include "fuzz/chunking_property.h"
#include "fuzz/wpa_harness.h"

using namespace vrecon;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::CheckChunking(data, size, fuzz::ReadWpa<etw::WpaSampledReader>);
  (void)etw::wpa::LooksLikeWpaSampled(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
