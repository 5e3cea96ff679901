// The Perfmon reader as the perfmon_csv and esxtop_csv targets drive it (esxtop batch captures
// are Perfmon CSV and go through the same parser).
#ifndef VRECON_FUZZ_PERFMON_HARNESS_H_
#define VRECON_FUZZ_PERFMON_HARNESS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/sample.h"

namespace vrecon::fuzz {

// Reads `chunks` with options taken from `seed` (sniffed or forced encoding, --tz-bias, a resume
// point) and returns the transcript. `columns`, when given, receives the declared columns.
std::string ReadPerfmon(const std::vector<std::string_view>& chunks, uint32_t seed,
                        std::vector<SeriesKey>* columns = nullptr);

}  // namespace vrecon::fuzz

#endif  // VRECON_FUZZ_PERFMON_HARNESS_H_
