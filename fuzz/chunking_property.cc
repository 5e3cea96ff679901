#include "fuzz/chunking_property.h"

#include <algorithm>
#include <cstdio>

#include "fuzz/chunk_plan.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/transcript_sink.h"

namespace vrecon::fuzz {

std::string CheckChunking(const uint8_t* data, size_t size, const ChunkReader& read) {
  const ChunkedInput in = SplitTrailer(data, size);
  const std::string whole = read({in.file}, in.seed);
  const std::string cut = read(Cut(in.file, in.seed), in.seed);
  if (whole != cut) {
    // Read again with every row written out, to show where the two part.
    g_verbose_transcript = true;
    const std::string whole_text = read({in.file}, in.seed);
    const std::string cut_text = read(Cut(in.file, in.seed), in.seed);
    g_verbose_transcript = false;
    const auto diff = std::mismatch(whole_text.begin(), whole_text.end(), cut_text.begin(), cut_text.end());
    const size_t at = static_cast<size_t>(diff.first - whole_text.begin());
    const size_t from = at < 200 ? 0 : at - 200;
    std::fprintf(stderr, "one piece (from byte %zu):\n%.400s\n---- chunked (seed %08x):\n%.400s\n", from,
                 whole_text.c_str() + from, in.seed, cut_text.c_str() + std::min(from, cut_text.size()));
  }
  FUZZ_CHECK(whole == cut, "the parse result does not depend on how the input is chunked");
  return whole;
}

}  // namespace vrecon::fuzz
