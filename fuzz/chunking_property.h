// The chunking property for the streaming parsers: the same bytes read in one piece and read in
// the chunks a fuzz input chooses (chunk_plan.h) must give the same transcript.
#ifndef VRECON_FUZZ_CHUNKING_PROPERTY_H_
#define VRECON_FUZZ_CHUNKING_PROPERTY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace vrecon::fuzz {

// Reads `chunks` with the parser under test and returns everything it produced.
using ChunkReader = std::function<std::string(const std::vector<std::string_view>& chunks, uint32_t seed)>;

// Runs `read` over the file in one piece and in the trailer's chunks; aborts on a difference,
// printing where the two transcripts part. Returns the one-piece transcript.
std::string CheckChunking(const uint8_t* data, size_t size, const ChunkReader& read);

// A few option bits from the trailer's seed, independent of the bits that choose the cuts.
inline uint32_t OptionBits(uint32_t seed) { return (seed * 2654435761U) >> 20; }

}  // namespace vrecon::fuzz

#endif  // VRECON_FUZZ_CHUNKING_PROPERTY_H_
