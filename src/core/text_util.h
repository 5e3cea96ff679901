// Small text helpers shared by adapters, the store and the CLI.
#ifndef VRECON_SRC_CORE_TEXT_UTIL_H_
#define VRECON_SRC_CORE_TEXT_UTIL_H_

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vrecon {

// Lower-cases ASCII, Latin-1 letters (U+00C0..U+00DE) and Cyrillic (U+0400..U+042F) in UTF-8:
// enough to compare the counter names of the languages vrecon recognises.
std::string FoldCase(std::string_view s);
bool EqualsFolded(std::string_view a, std::string_view b);

std::string_view Trim(std::string_view s);

// The strings of `parts` (a vector, a set, ...) with `sep` between them.
template <class Strings>
std::string Join(const Strings& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

// The host of a URL, case folded, without scheme, user info, path or the default HTTPS port:
// "https://u@VC01.example:443/sdk" -> "vc01.example"; another port is kept ("127.0.0.1:8989").
std::string UrlHost(std::string_view url);
// The scheme of a URL, in any letter case: "https://", "http://".
bool IsHttpsUrl(std::string_view url);
bool IsPlainHttpUrl(std::string_view url);
// True when `s` holds only spaces and tabs (or nothing).
bool IsBlank(std::string_view s);

// The blank-separated (space or tab) words of a line, as views into it.
std::vector<std::string_view> SplitWords(std::string_view line);

// Scanning helpers for small fixed grammars (timestamps): each consumes from the front of `s`
// only on success. TakeDigits reads min_digits..max_digits decimal digits into *out.
bool TakeDigits(std::string_view& s, int min_digits, int max_digits, int* out);
bool TakeChar(std::string_view& s, char c);

// Shortest text that reads back as the same double ("48.21917808219178", "88").
std::string FormatDouble(double v);
// Fixed number of decimals, for tables.
std::string FormatFixed(double v, int decimals);

// Parses a whole cell as a double (exponent form accepted, surrounding blanks ignored).
std::optional<double> ParseDouble(std::string_view s);

// Parses a whole string as a decimal integer of type T (`-` only for signed T; no blanks, no `+`).
template <typename T>
bool ParseWholeNumber(std::string_view s, T* out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// FNV-1a, 64 bit: a stable fingerprint for headers and lines (not for security).
uint64_t Fnv1a64(std::string_view s, uint64_t seed = 14695981039346656037ULL);
std::string HexU64(uint64_t v);
// The inverse of HexU64: 1 to 16 hex digits (either case), nothing else; nullopt otherwise.
std::optional<uint64_t> ParseHexU64(std::string_view s);

// Shell-style glob with '*' and '?', case-insensitive.
bool GlobMatch(std::string_view pattern, std::string_view text);

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_TEXT_UTIL_H_
