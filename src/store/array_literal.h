// PostgreSQL array literals, bound as text to `?::bigint[]` or `?::text[]` (one parameter for a
// list of any length, so a statement stays prepared whatever the count).
#ifndef VRECON_SRC_STORE_ARRAY_LITERAL_H_
#define VRECON_SRC_STORE_ARRAY_LITERAL_H_

#include <cstdint>
#include <string>
#include <vector>

namespace vrecon {

// "{1,2,3}".
std::string ArrayLiteral(const std::vector<int64_t>& ids);
// "{"a","b \"c\""}": every element quoted, with `"` and `\` escaped.
std::string TextArrayLiteral(const std::vector<std::string>& values);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_ARRAY_LITERAL_H_
