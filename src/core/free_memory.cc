#include "src/core/free_memory.h"

#include <cstdlib>  // defines __GLIBC__ (through <features.h>) on glibc, before the test below

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace vrecon {

void ReturnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace vrecon
