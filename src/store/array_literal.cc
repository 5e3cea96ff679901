#include "src/store/array_literal.h"

namespace vrecon {

std::string ArrayLiteral(const std::vector<int64_t>& ids) {
  std::string out = "{";
  for (int64_t id : ids) out += (out.size() > 1 ? "," : "") + std::to_string(id);
  return out + "}";
}

std::string TextArrayLiteral(const std::vector<std::string>& values) {
  std::string out = "{";
  for (const std::string& v : values) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (char c : v) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace vrecon
