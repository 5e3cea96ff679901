#include "fuzz/chunk_plan.h"

#include <algorithm>

#include "fuzz/fuzz_check.h"

namespace vrecon::fuzz {
namespace {

// splitmix64: a tiny deterministic generator, so a crashing input replays the same cuts.
uint64_t Next(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

ChunkedInput SplitTrailer(const uint8_t* data, size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  if (size < 4) return ChunkedInput{all, 3};  // mode 3: byte by byte
  const uint8_t* t = data + size - 4;
  return ChunkedInput{all.substr(0, size - 4), static_cast<uint32_t>(t[0]) | static_cast<uint32_t>(t[1]) << 8 |
                                                   static_cast<uint32_t>(t[2]) << 16 |
                                                   static_cast<uint32_t>(t[3]) << 24};
}

std::vector<std::string_view> Cut(std::string_view file, uint32_t seed) {
  std::vector<std::string_view> out;
  const uint32_t arg = seed >> 8;
  uint64_t state = seed;
  size_t pos = 0;
  auto take = [&](size_t n) {
    n = std::min(n, file.size() - pos);
    out.push_back(file.substr(pos, n));
    pos += n;
  };
  switch (seed & 3) {
    case 0:
      while (pos < file.size()) take(1 + arg % 64);
      break;
    case 1:
      while (pos < file.size()) take(Next(&state) % (1 + arg % 4096 + 1));  // 0 = an empty chunk
      break;
    case 2:
      take(file.empty() ? 0 : arg % (file.size() + 1));
      take(file.size());
      break;
    default:
      while (pos < file.size()) take(1);
      break;
  }
  size_t total = 0;
  for (std::string_view c : out) total += c.size();
  FUZZ_CHECK(total == file.size(), "chunk plan covers the file");
  return out;
}

}  // namespace vrecon::fuzz
