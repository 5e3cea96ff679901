// A collector between rounds gives back what it freed (src/core/free_memory.h): memory freed
// below a block still in use stays resident until then.
#include "src/core/free_memory.h"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define VRECON_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VRECON_UNDER_ASAN 1
#endif
#endif

namespace vrecon {
namespace {

// Resident pages of this process, in KiB (/proc/self/statm's second field).
[[maybe_unused]] long ResidentKib() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  statm >> size >> resident;
  return resident * 4;
}

TEST(FreeMemoryTest, FreedMemoryBelowALiveBlockGoesBack) {
#if defined(VRECON_UNDER_ASAN)
  GTEST_SKIP() << "AddressSanitizer's allocator keeps freed memory in its quarantine";
#elif !defined(__GLIBC__)
  GTEST_SKIP() << "only glibc's allocator is trimmed";
#else
  // 48 MiB in blocks under the mmap threshold, from the heap; the last one stays in use, so free()
  // cannot give back the space below it by shrinking the heap.
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 48 * 1024; ++i) {
    blocks.emplace_back(new char[1024]);
    for (int k = 0; k < 1024; k += 512) blocks.back()[k] = static_cast<char>(i);  // resident
  }
  std::unique_ptr<char[]> last(new char[1024]);
  last[0] = 1;
  blocks.clear();
  const long before = ResidentKib();
  ReturnFreedMemory();
  const long after = ResidentKib();
  EXPECT_LT(after, before - 24 * 1024) << "resident " << before << " KiB before, " << after << " KiB after";
#endif
}

}  // namespace
}  // namespace vrecon
