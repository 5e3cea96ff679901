// A guard in front of toml++ for the fleet file (src/fleet/fleet_config.cc).
#ifndef VRECON_SRC_FLEET_TOML_GUARD_H_
#define VRECON_SRC_FLEET_TOML_GUARD_H_

#include <cstdint>
#include <string_view>

namespace vrecon::fleet {

// toml++ 3.3.0 (Debian 12's) reaches __builtin_unreachable(), undefined behaviour, when it asks
// whether some non-ASCII characters (U+00A1..U+0499, U+FB26..U+FEFE) are whitespace
// (marzer/tomlplusplus#190, #295; found by fuzz/fleet_toml_fuzzer). It asks of every character
// outside strings and comments, where TOML allows no non-ASCII character anyway, and in a
// multi-line basic string right after a backslash and where the blanks a line-ending backslash
// skips end. Returns the 1-based line of the first non-ASCII character in such a place, or 0.
// A quote opens a string only where a key or a value starts; elsewhere (`x = 0"é"`, `5r=["é"]`)
// toml++ reads it as part of a bare token. (So a dotted key's quoted part, `mappings."wéb"`,
// counts as outside quotes: write it as an entry of a [mappings] table.)
int64_t LineTomlppMisreads(std::string_view t);

}  // namespace vrecon::fleet

#endif  // VRECON_SRC_FLEET_TOML_GUARD_H_
