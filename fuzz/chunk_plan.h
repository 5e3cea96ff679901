// How a fuzz input is cut into chunks for the "parse result does not depend on the chunking"
// property. The last 4 bytes of an input choose the cuts (so the fuzzer controls them); the
// bytes before are the file exactly as it would be on disk. An input shorter than 4 bytes is
// all file, cut at every byte.
#ifndef VRECON_FUZZ_CHUNK_PLAN_H_
#define VRECON_FUZZ_CHUNK_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace vrecon::fuzz {

struct ChunkedInput {
  std::string_view file;
  uint32_t seed = 0;  // also gives the harnesses a few option bits
};
ChunkedInput SplitTrailer(const uint8_t* data, size_t size);

// `file` cut by `seed`: fixed sizes of 1..64 bytes, random sizes up to 4 KiB (empty chunks
// among them), one cut anywhere, or one byte at a time. The pieces always concatenate to `file`.
std::vector<std::string_view> Cut(std::string_view file, uint32_t seed);

}  // namespace vrecon::fuzz

#endif  // VRECON_FUZZ_CHUNK_PLAN_H_
