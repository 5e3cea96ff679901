#include "src/fleet/toml_guard.h"

#include <string>
#include <vector>

namespace vrecon::fleet {

int64_t LineTomlppMisreads(std::string_view t) {
  enum class In { kCode, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral } in = In::kCode;
  auto high = [](char c) { return static_cast<unsigned char>(c) >= 0x80; };
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  auto at = [&](size_t i, std::string_view s) { return t.substr(i, s.size()) == s; };
  std::vector<char> nest;  // '[' arrays and '{' inline tables around the text, innermost last
  bool value = false;      // a value comes next at this level, not a key
  bool start = true;       // a key or a value may start here
  bool skipping = false;   // in a multi-line basic string, over the blanks after a backslash
  int64_t line = 1;
  if (at(0, "\xEF\xBB\xBF")) t.remove_prefix(3);  // a UTF-8 BOM, which toml++ skips itself
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\n') {
      ++line;
      if (in == In::kCode || in == In::kComment || in == In::kBasic || in == In::kLiteral) {
        in = In::kCode;  // a line end ends a comment (and, as an error toml++ reports, a string)
        start = true;
        if (nest.empty()) value = false;
        continue;
      }
    }
    switch (in) {
      case In::kCode:
        if (high(c)) return line;
        if (c == ' ' || c == '\t' || c == '\r') break;
        if (c == '#') {
          in = In::kComment;
        } else if (c == '=') {
          start = !value;  // after a key; a second '=' is part of a bare token
          value = true;
        } else if (c == ',') {
          start = true;
          if (!nest.empty() && nest.back() == '{') value = false;
        } else if (c == '[' && start) {
          if (value) nest.push_back('[');  // an array; else a [table] header, a key follows
        } else if (c == '{' && start && value) {
          nest.push_back('{');
          value = false;
        } else if ((c == ']' || c == '}') && !nest.empty() && nest.back() == (c == ']' ? '[' : '{')) {
          nest.pop_back();
          value = true;
          start = false;
        } else if ((c == '"' || c == '\'') && start) {
          const bool multi = at(i, c == '"' ? "\"\"\"" : "'''");
          in = c == '"' ? (multi ? In::kMultiBasic : In::kBasic) : (multi ? In::kMultiLiteral : In::kLiteral);
          if (multi) i += 2;
          start = false;
        } else {
          start = false;
        }
        break;
      case In::kComment: break;
      case In::kBasic:
        if (c == '\\' && i + 1 < t.size() && t[i + 1] != '\n') {
          ++i;  // \" does not end the string
        } else if (c == '"') {
          in = In::kCode;
        }
        break;
      case In::kLiteral:
        if (c == '\'') in = In::kCode;
        break;
      case In::kMultiBasic:
      case In::kMultiLiteral: {
        const char q = in == In::kMultiBasic ? '"' : '\'';
        if (in == In::kMultiBasic) {
          if (skipping && blank(c)) break;
          if (skipping && high(c)) return line;
          skipping = false;
          if (c == '\\' && i + 1 < t.size()) {
            if (high(t[i + 1])) return line;
            if (blank(t[i + 1])) {
              skipping = true;
            } else {
              ++i;  // \" and \\ do not end the string
            }
            break;
          }
        }
        if (at(i, std::string(3, q))) {
          in = In::kCode;
          i += 2;
          // """"" ends in two quotes that belong to the string.
          for (int extra = 0; extra < 2 && i + 1 < t.size() && t[i + 1] == q; ++extra) ++i;
        }
        break;
      }
    }
  }
  return 0;
}

}  // namespace vrecon::fleet
