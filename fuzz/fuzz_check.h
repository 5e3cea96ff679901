// FUZZ_CHECK: a property that failed is a crash libFuzzer records, with one line saying which.
#ifndef VRECON_FUZZ_FUZZ_CHECK_H_
#define VRECON_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond, what)                                                                      \
  do {                                                                                              \
    if (!(cond)) {                                                                                  \
      std::fprintf(stderr, "%s:%d: property violated: %s (%s)\n", __FILE__, __LINE__, what, #cond); \
      std::abort();                                                                                 \
    }                                                                                               \
  } while (0)

#endif  // VRECON_FUZZ_FUZZ_CHECK_H_
