#include "adapters/powercli/powercli_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "src/core/text_decode.h"
#include "src/core/text_util.h"

namespace vrecon::powercli {

char DetectDelimiter(std::string_view header) {
  size_t from = 0;
  if (header.starts_with('"')) {
    const size_t q = header.find('"', 1);
    if (q != std::string_view::npos) from = q + 1;
  }
  const size_t d = header.find_first_of(",;\t", from);
  return d == std::string_view::npos ? ',' : header[d];
}

int FindColumn(const std::vector<std::string>& cells, std::string_view name) {
  for (size_t i = 0; i < cells.size(); ++i)
    if (EqualsFolded(Trim(cells[i]), name)) return static_cast<int>(i);
  return -1;
}

bool SplitCsvLine(std::string_view line, char delim, std::vector<std::string>* cells) {
  cells->clear();
  std::string cur;
  size_t i = 0;
  while (true) {
    cur.clear();
    // Blanks before an opening quote are allowed (hand-edited files).
    size_t j = i;
    while (j < line.size() && line[j] == ' ') ++j;
    if (j < line.size() && line[j] == '"') {
      i = j + 1;
      bool closed = false;
      while (i < line.size()) {
        const char c = line[i++];
        if (c != '"') {
          cur.push_back(c);
        } else if (i < line.size() && line[i] == '"') {
          cur.push_back('"');
          ++i;
        } else {
          closed = true;
          break;
        }
      }
      if (!closed) return false;
      while (i < line.size() && line[i] != delim) ++i;  // text after the closing quote is dropped
    } else {
      const size_t d = line.find(delim, i);
      const size_t e = d == std::string_view::npos ? line.size() : d;
      cur.assign(line.substr(i, e - i));
      i = e;
    }
    cells->push_back(cur);
    if (i >= line.size()) return true;
    ++i;  // the delimiter
  }
}

std::optional<double> ParseValue(std::string_view s) {
  s = Trim(s);
  if (s.empty()) return std::nullopt;
  double v;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v)) return v;
  if (s.find(',') != std::string_view::npos && s.find('.') == std::string_view::npos &&
      std::count(s.begin(), s.end(), ',') == 1) {
    std::string t(s);
    t[t.find(',')] = '.';
    r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec == std::errc() && r.ptr == t.data() + t.size() && std::isfinite(v)) return v;
    return std::nullopt;
  }
  if (auto d = ParseDouble(s); d && std::isfinite(*d)) return d;
  return std::nullopt;
}

std::optional<ParsedTime> ParseTimestamp(std::string_view s) {
  s = Trim(s);
  if (s.size() < 8) return std::nullopt;
  // ISO 8601 ("o", "s", "u" formats) and year-first cultures with dashes (sv-SE).
  if (s.size() > 4 && s[4] == '-' && s[0] >= '0' && s[0] <= '9') {
    auto t = ParseIso(s);
    if (!t) return std::nullopt;
    const bool offset = s.substr(10).find_first_of("Z+-") != std::string_view::npos;
    return ParsedTime{*t, offset};
  }
  CivilTime c;
  int a = 0, b = 0, y = 0;
  std::string_view p = s;
  const size_t before = p.size();
  if (!TakeDigits(p, 1, 4, &a) || p.empty()) return std::nullopt;
  const bool year_first = before - p.size() == 4;  // "2026/05/05" (ja-JP, zh-CN)
  const char sep = p[0];
  if (sep != '/' && sep != '.' && sep != '-') return std::nullopt;
  p.remove_prefix(1);
  if (year_first) {
    if (!TakeDigits(p, 1, 2, &b) || !TakeChar(p, sep) || !TakeDigits(p, 1, 2, &y)) return std::nullopt;
  } else if (!TakeDigits(p, 1, 2, &b) || !TakeChar(p, sep) || !TakeDigits(p, 4, 4, &y)) {
    return std::nullopt;
  }
  TakeChar(p, '.');  // "5.5.2026." (hr-HR, sr-Latn)
  if (p.empty() || p[0] != ' ') return std::nullopt;
  while (!p.empty() && p[0] == ' ') p.remove_prefix(1);
  if (!TakeDigits(p, 1, 2, &c.hour) || !(TakeChar(p, ':') || TakeChar(p, '.')) || !TakeDigits(p, 2, 2, &c.minute))
    return std::nullopt;
  if (TakeChar(p, ':') || TakeChar(p, '.')) {
    if (!TakeDigits(p, 2, 2, &c.second)) return std::nullopt;
    if (TakeChar(p, '.') || TakeChar(p, ',')) {
      int scale = 100;
      while (!p.empty() && p[0] >= '0' && p[0] <= '9') {
        c.millis += (p[0] - '0') * scale;
        scale /= 10;
        p.remove_prefix(1);
      }
    }
  }
  while (!p.empty() && p[0] == ' ') p.remove_prefix(1);
  int ampm = 0;  // 1 = AM, 2 = PM
  if (!p.empty()) {
    std::string m = FoldCase(p);
    std::erase(m, '.');
    if (m == "am") ampm = 1;
    else if (m == "pm") ampm = 2;
    else return std::nullopt;
  }
  if (ampm != 0) {
    if (c.hour < 1 || c.hour > 12) return std::nullopt;
    c.hour = c.hour % 12 + (ampm == 2 ? 12 : 0);
  }
  // Dotted and dashed dates are day-first; slash dates with AM/PM are en-US month-first, without
  // AM/PM day-first (en-GB, fr-FR, es-ES, it-IT) unless that is impossible.
  if (year_first) {
    c.year = a;
    c.month = b;
    c.day = y;
  } else {
    bool month_first = sep == '/' && ampm != 0;
    if (month_first ? a > 12 : b > 12) month_first = !month_first;
    c.year = y;
    c.month = month_first ? a : b;
    c.day = month_first ? b : a;
  }
  if (c.month < 1 || c.month > 12 || c.day < 1 || c.day > DaysInMonth(c.year, c.month)) return std::nullopt;
  if (c.hour > 23 || c.minute > 59 || c.second > 59) return std::nullopt;
  const std::optional<TimeNs> t = CheckedNsFromCivil(c);
  if (!t) return std::nullopt;
  return ParsedTime{*t, false};
}

bool LooksLikePowerCliExport(std::string_view head) {
  bool found = false;
  ForEachHeadLine(head, [&](std::string_view line) {
    if (IsBlank(line) || line.starts_with("#TYPE")) return true;
    std::vector<std::string> cells;
    found = SplitCsvLine(line, DetectDelimiter(line), &cells) && FindColumn(cells, "Value") >= 0 &&
            FindColumn(cells, "Timestamp") >= 0 && FindColumn(cells, "MetricId") >= 0;
    return false;
  });
  return found;
}

}  // namespace vrecon::powercli
