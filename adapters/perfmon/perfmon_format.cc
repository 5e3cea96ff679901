#include "adapters/perfmon/perfmon_format.h"

#include <charconv>

#include "src/core/text_util.h"

namespace vrecon::perfmon {

Likeness PerfmonLikeness(std::string_view head) {
  if (IsBinaryHead(head)) return Likeness::kPossibly;
  const std::string line = FirstHeadLine(head);
  if (line.empty()) return Likeness::kPossibly;
  std::string_view first(line);
  if (first.starts_with('"')) first.remove_prefix(1);
  if (first.starts_with("(PDH-CSV") || first.starts_with("(PDH-TSV")) return Likeness::kSurely;
  const size_t path = line.find("\\\\");
  return path != std::string::npos && line.find('\\', path + 2) != std::string::npos ? Likeness::kPossibly
                                                                                     : Likeness::kNo;
}

std::optional<FormatCell> ParseFormatCell(std::string_view cell) {
  cell = Trim(cell);
  FormatCell f;
  if (cell.starts_with("(PDH-CSV")) {
    f.tsv = false;
  } else if (cell.starts_with("(PDH-TSV")) {
    f.tsv = true;
  } else {
    return std::nullopt;
  }
  const size_t close = cell.find(')');
  if (close == std::string_view::npos) {
    f.cut_off = true;
    return f;
  }
  std::string_view rest = Trim(cell.substr(close + 1));
  if (rest.empty()) return f;
  // "(zone name)(bias)". The bias is the last group: localized zone names can hold parentheses
  // and commas themselves ("(RTZ 2 (зима))(-180)", "(Paris, Madrid (heure d’été))(-120)"), and a
  // cut-off cell can end anywhere.
  if (!rest.starts_with('(')) {
    f.cut_off = true;
    return f;
  }
  const size_t bias_open = rest.rfind('(');
  const std::string_view zone = Trim(rest.substr(0, bias_open));
  if (bias_open == 0 || rest.back() != ')' || zone.size() < 2 || zone.back() != ')') {
    f.cut_off = true;
    const size_t zone_end = rest.find(')');
    f.time_zone = std::string(zone_end == std::string_view::npos ? rest.substr(1) : rest.substr(1, zone_end - 1));
    return f;
  }
  f.time_zone = std::string(zone.substr(1, zone.size() - 2));
  std::string_view num = Trim(rest.substr(bias_open + 1, rest.size() - bias_open - 2));
  int bias = 0;
  auto r = std::from_chars(num.data(), num.data() + num.size(), bias);
  if (r.ec != std::errc() || r.ptr != num.data() + num.size() || bias < -24 * 60 || bias > 24 * 60) {
    f.cut_off = true;
    return f;
  }
  f.bias_minutes = bias;
  return f;
}

bool ZoneNameIsDaylight(std::string_view zone) {
  const std::string z = FoldCase(zone);
  for (const char* w : {"daylight", "summer", "verano", "été", "sommerzeit", "летнее"})
    if (z.find(w) != std::string::npos) return true;
  return false;
}

std::optional<TimeNs> ParseLocalTimestamp(std::string_view s) {
  s = Trim(s);
  CivilTime c;
  int a = 0, b = 0, y = 0;
  if (s.size() >= 10 && s[4] == '-') {
    if (!TakeDigits(s, 4, 4, &y) || !TakeChar(s, '-') || !TakeDigits(s, 1, 2, &a) || !TakeChar(s, '-') ||
        !TakeDigits(s, 1, 2, &b))
      return std::nullopt;
    c.year = y, c.month = a, c.day = b;
    if (!s.empty() && (s[0] == 'T' || s[0] == ' ')) s.remove_prefix(1);
  } else {
    if (!TakeDigits(s, 1, 2, &a) || !TakeChar(s, '/') || !TakeDigits(s, 1, 2, &b) || !TakeChar(s, '/') ||
        !TakeDigits(s, 4, 4, &y))
      return std::nullopt;
    c.year = y, c.month = a, c.day = b;
    if (!TakeChar(s, ' ')) return std::nullopt;
  }
  if (!TakeDigits(s, 1, 2, &c.hour) || !TakeChar(s, ':') || !TakeDigits(s, 2, 2, &c.minute)) return std::nullopt;
  if (TakeChar(s, ':')) {
    if (!TakeDigits(s, 2, 2, &c.second)) return std::nullopt;
    if (TakeChar(s, '.')) {
      int scale = 100;
      int n = 0;
      while (!s.empty() && s[0] >= '0' && s[0] <= '9') {
        c.millis += (s[0] - '0') * scale;
        scale /= 10;
        s.remove_prefix(1);
        ++n;
      }
      if (n == 0) return std::nullopt;
    }
  }
  if (!s.empty()) return std::nullopt;
  if (c.month < 1 || c.month > 12 || c.day < 1 || c.day > 31 || c.hour > 23 || c.minute > 59 || c.second > 59)
    return std::nullopt;
  return CheckedNsFromCivil(c);
}

}  // namespace vrecon::perfmon
