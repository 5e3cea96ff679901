#include "fuzz/chunking_property.h"

#include <algorithm>
#include <cstdio>

#include "fuzz/chunk_plan.h"
#include "fuzz/fuzz_check.h"

namespace vrecon::fuzz {

std::string CheckChunking(const uint8_t* data, size_t size, const ChunkReader& read) {
  const ChunkedInput in = SplitTrailer(data, size);
  const std::string whole = read({in.file}, in.seed);
  const std::string cut = read(Cut(in.file, in.seed), in.seed);
  if (whole != cut) {
    const auto diff = std::mismatch(whole.begin(), whole.end(), cut.begin(), cut.end());
    const size_t at = static_cast<size_t>(diff.first - whole.begin());
    const size_t from = at < 200 ? 0 : at - 200;
    std::fprintf(stderr, "one piece (from byte %zu):\n%.400s\n---- chunked (seed %08x):\n%.400s\n", from,
                 whole.c_str() + from, in.seed, cut.c_str() + std::min(from, cut.size()));
  }
  FUZZ_CHECK(whole == cut, "the parse result does not depend on how the input is chunked");
  return whole;
}

}  // namespace vrecon::fuzz
