// Perfmon CSV/TSV logs (PDH-CSV/PDH-TSV 4.0) through the streaming parser: UTF-8, UTF-8 with
// BOM, UTF-16LE, code pages 1251/1252, CRLF/LF/CR-only lines, DST shifts, resume points.
// Property: the transcript (columns, rows, issues, clock events, status, summary) does not
// depend on how the bytes are chunked.
#include <cstddef>
#include <cstdint>

#include "fuzz/chunking_property.h"
#include "fuzz/perfmon_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  vrecon::fuzz::CheckChunking(
      data, size, [](const auto& chunks, uint32_t seed) { return vrecon::fuzz::ReadPerfmon(chunks, seed); });
  return 0;
}
