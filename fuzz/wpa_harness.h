// WPA's table exports as the wpa_precise and wpa_sampled targets drive their readers
// (adapters/etw/wpa_table.h): the trace start and machine always given (without them a reader
// refuses at the header, which the unit tests check), the start on a whole 5 minutes or 0.4 s past
// a second (buckets, seconds and windows cut at other phases), and a resume point of up to 15
// lines or none, all from the seed.
#ifndef VRECON_FUZZ_WPA_HARNESS_H_
#define VRECON_FUZZ_WPA_HARNESS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/transcript_sink.h"
#include "src/core/reader.h"

namespace vrecon::fuzz {

ReaderOptions WpaOptions(uint32_t seed);

// Reads `chunks` with a reader of type R and returns the transcript.
template <class R>
std::string ReadWpa(const std::vector<std::string_view>& chunks, uint32_t seed) {
  TranscriptSink sink;
  R reader(WpaOptions(seed), &sink);
  return ReadThrough(&reader, chunks, &sink);
}

}  // namespace vrecon::fuzz

#endif  // VRECON_FUZZ_WPA_HARNESS_H_
