// The durations test files write their times in. One definition for all of them: a unity build
// compiles sixteen test files as one translation unit (tests/CMakeLists.txt), where two
// file-local copies of one name would clash.
#ifndef VRECON_TESTS_SUPPORT_TIME_UNITS_H_
#define VRECON_TESTS_SUPPORT_TIME_UNITS_H_

#include "src/core/time_util.h"

namespace vrecon::testing {

inline constexpr TimeNs kS = kNsPerSec;
inline constexpr TimeNs kMin = 60 * kNsPerSec;

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_TIME_UNITS_H_
