// VRECON_CHECK and VRECON_DCHECK: assertions for bugs, never for bad input (bad input is a
// Status). A failed check prints "file:line: check failed: <expr> <message>" to stderr and
// aborts, so a broken invariant stops the program where it broke instead of corrupting a store.
//   VRECON_CHECK(cond)            always on, also in Release
//   VRECON_CHECK_MSG(cond, msg)   the same with a message (anything convertible to string_view)
//   VRECON_DCHECK(cond)           Debug and sanitizer builds only; in NDEBUG builds the
//   VRECON_DCHECK_MSG(cond, msg)  condition is not evaluated but must still compile
#ifndef VRECON_SRC_CORE_CHECK_H_
#define VRECON_SRC_CORE_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace vrecon::internal {

// Header-only (the Windows agent uses Status without linking vrecon_core); cold and not inlined
// so the failure path costs nothing where checks pass. stdio, not iostream: nothing to
// construct on the way to abort().
[[noreturn, gnu::cold, gnu::noinline]] inline void CheckFailed(const char* file, int line, const char* expr,
                                                               std::string_view message) {
  std::fprintf(stderr, "%s:%d: check failed: %s", file, line, expr);
  if (!message.empty()) std::fprintf(stderr, " %.*s", static_cast<int>(message.size()), message.data());
  std::fputc('\n', stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace vrecon::internal

#define VRECON_CHECK_MSG(cond, msg)                                                        \
  do {                                                                                     \
    if (!(cond)) [[unlikely]]                                                              \
      ::vrecon::internal::CheckFailed(__FILE__, __LINE__, #cond, ::std::string_view(msg)); \
  } while (0)

#define VRECON_CHECK(cond) VRECON_CHECK_MSG(cond, "")

#ifdef NDEBUG
// `false && (cond)` keeps the expression type-checked (and its variables used) without
// evaluating it.
#define VRECON_DCHECK_MSG(cond, msg)              \
  do {                                            \
    if (false && (cond)) {                        \
      static_cast<void>(::std::string_view(msg)); \
    }                                             \
  } while (0)
#else
#define VRECON_DCHECK_MSG(cond, msg) VRECON_CHECK_MSG(cond, msg)
#endif

#define VRECON_DCHECK(cond) VRECON_DCHECK_MSG(cond, "")

#endif  // VRECON_SRC_CORE_CHECK_H_
