#include "adapters/etw/wpa_csv.h"

#include <algorithm>
#include <array>

#include "src/core/text_decode.h"
#include "src/core/text_util.h"

namespace vrecon::etw::wpa {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The length of a blank at `s[i]` that may sit between digits (space, no-break space U+00A0,
// narrow no-break space U+202F, thin space U+2009: WPA groups digits with the locale's separator),
// or 0.
size_t BlankAt(std::string_view s, size_t i) {
  if (s[i] == ' ') return 1;
  if (s.substr(i, 2) == "\xC2\xA0") return 2;
  if (s.substr(i, 3) == "\xE2\x80\xAF" || s.substr(i, 3) == "\xE2\x80\x89") return 3;
  return 0;
}

Unit UnitOf(std::string_view u) {
  u = Trim(u);
  if (u == "s" || u == "sec") return Unit::kSeconds;
  if (u == "ms") return Unit::kMillis;
  // µs as UTF-8 (U+00B5 or Greek U+03BC), as Windows-1252 mojibake, or plain.
  if (u == "us" || u == "\xC2\xB5s" || u == "\xCE\xBCs" || u == "\xC3\x82\xC2\xB5s") return Unit::kMicros;
  if (u == "ns") return Unit::kNanos;
  return Unit::kNone;
}

}  // namespace

bool CsvCells::Split(std::string_view line, size_t max_cells) {
  cells_.clear();
  unquoted_.clear();
  unquoted_.reserve(line.size());
  size_t i = 0;
  while (cells_.size() < max_cells) {
    while (i < line.size() && line[i] == ' ') ++i;  // blanks before a quote
    if (i < line.size() && line[i] == '"') {
      const size_t open = ++i;
      bool doubled = false;
      for (;; ++i) {
        if (i >= line.size()) return false;
        if (line[i] != '"') continue;
        if (i + 1 < line.size() && line[i + 1] == '"') {
          doubled = true;
          ++i;
          continue;
        }
        break;
      }
      std::string_view cell = line.substr(open, i - open);
      if (doubled) {
        const size_t from = unquoted_.size();
        for (size_t k = 0; k < cell.size(); ++k) {
          unquoted_.push_back(cell[k]);
          if (cell[k] == '"') ++k;  // "" is one quote
        }
        cell = std::string_view(unquoted_).substr(from);
      }
      cells_.push_back(cell);
      ++i;
      while (i < line.size() && line[i] != ',') ++i;  // text after the closing quote is dropped
    } else {
      const size_t comma = line.find(',', i);
      const size_t end = comma == std::string_view::npos ? line.size() : comma;
      cells_.push_back(Trim(line.substr(i, end - i)));
      i = end;
    }
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return true;
}

HeaderCell ParseHeaderCell(std::string_view cell) {
  HeaderCell h;
  std::string_view name = Trim(cell);
  if (name.ends_with(')')) {
    const size_t open = name.rfind('(');
    if (open != std::string_view::npos) {
      h.unit = UnitOf(name.substr(open + 1, name.size() - open - 2));
      if (h.unit != Unit::kNone) name = Trim(name.substr(0, open));
    }
  }
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_') continue;
    h.key.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  }
  return h;
}

bool ParseDecimal(std::string_view s, Decimal* d) {
  s = Trim(s);
  int64_t whole = 0, nanos = 0;
  int whole_digits = 0, decimals = 0;
  int group = -1;  // digits since the last thousands comma; -1 before any comma
  bool point = false;
  for (size_t i = 0; i < s.size();) {
    if (const size_t blank = BlankAt(s, i)) {
      i += blank;
      continue;
    }
    const char c = s[i++];
    if (IsDigit(c)) {
      if (point) {
        if (++decimals <= 9) nanos = nanos * 10 + (c - '0');
      } else {
        if (++whole_digits > 12) return false;
        whole = whole * 10 + (c - '0');
        if (group >= 0 && ++group > 3) return false;
      }
    } else if (c == ',' && !point && whole_digits > 0 && (group < 0 ? whole_digits <= 3 : group == 3)) {
      group = 0;
    } else if (c == '.' && !point && whole_digits > 0 && (group < 0 || group == 3)) {
      point = true;
    } else {
      return false;
    }
  }
  if (whole_digits == 0 || (group >= 0 && group != 3) || (point && decimals == 0)) return false;
  for (int k = decimals; k < 9; ++k) nanos *= 10;
  d->whole = whole;
  d->nanos = nanos;
  return true;
}

int64_t ToMicros(const Decimal& d, Unit unit) {
  switch (unit) {
    case Unit::kSeconds: return d.whole * 1'000'000 + (d.nanos + 500) / 1000;
    case Unit::kMillis: return d.whole * 1000 + (d.nanos + 500'000) / 1'000'000;
    case Unit::kNanos: return (d.whole + (d.nanos >= 500'000'000 ? 1 : 0) + 500) / 1000;
    case Unit::kMicros:
    case Unit::kNone: break;
  }
  return d.whole + (d.nanos + 500'000'000) / 1'000'000'000;
}

bool WholeNumber(std::string_view s, int64_t max, int64_t* v) {
  Decimal d;
  if (!ParseDecimal(s, &d) || d.nanos != 0 || d.whole > max) return false;
  *v = d.whole;
  return true;
}

bool NoValue(std::string_view s) {
  s = Trim(s);
  return s.empty() || (s.size() == 3 && (s[0] | 0x20) == 'n' && s[1] == '/' && (s[2] | 0x20) == 'a');
}

uint64_t HashLine(std::string_view s, uint64_t h) {
  constexpr uint64_t kPrime = 1099511628211ULL;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w = 0;
    for (size_t k = 0; k < 8; ++k) w |= uint64_t{static_cast<unsigned char>(s[i + k])} << (8 * k);
    h = (h ^ w) * kPrime;
    h ^= h >> 29;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * kPrime;
  return (h ^ s.size()) * kPrime;
}

namespace {

// The folded names of the first line's cells ("switchintime", ...); none when it is not CSV.
std::vector<std::string> HeaderKeys(std::string_view head) {
  const std::string line = FirstHeadLine(head);
  CsvCells cells;
  std::vector<std::string> keys;
  if (line.empty() || !cells.Split(line, 1024)) return keys;
  for (size_t i = 0; i < cells.size(); ++i) keys.push_back(ParseHeaderCell(cells[i]).key);
  return keys;
}

bool Has(const std::vector<std::string>& keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace

bool LooksLikeWpaPrecise(std::string_view head) {
  const std::vector<std::string> keys = HeaderKeys(head);
  return Has(keys, "newprocess") && Has(keys, "switchintime");
}

bool LooksLikeWpaSampled(std::string_view head) {
  const std::vector<std::string> keys = HeaderKeys(head);
  const bool weight =
      std::any_of(keys.begin(), keys.end(), [](const std::string& k) { return k.starts_with("weight"); });
  return weight && (Has(keys, "%weight") || Has(keys, "timestamp")) && !Has(keys, "switchintime");
}

}  // namespace vrecon::etw::wpa
