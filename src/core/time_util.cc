#include "src/core/time_util.h"

#include <charconv>
#include <chrono>
#include <cstdio>

#include "src/core/text_util.h"

namespace vrecon {

int64_t DaysFromCivil(int y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

CivilTime CivilFromNs(TimeNs t) {
  int64_t ms = t / kNsPerMs - (t % kNsPerMs < 0 ? 1 : 0);
  int64_t days = ms / 86'400'000 - (ms % 86'400'000 < 0 ? 1 : 0);
  int64_t ms_of_day = ms - days * 86'400'000;
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  CivilTime c;
  c.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  c.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  c.year = static_cast<int>(yoe + era * 400 + (c.month <= 2));
  c.hour = static_cast<int>(ms_of_day / 3'600'000);
  c.minute = static_cast<int>(ms_of_day / 60'000 % 60);
  c.second = static_cast<int>(ms_of_day / 1000 % 60);
  c.millis = static_cast<int>(ms_of_day % 1000);
  return c;
}

TimeNs NsFromCivil(const CivilTime& c) {
  const int64_t days = DaysFromCivil(c.year, c.month, c.day);
  const int64_t ms = ((days * 24 + c.hour) * 60 + c.minute) * 60'000 + c.second * 1000LL + c.millis;
  return ms * kNsPerMs;
}

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) return 29;
  return kDays[m - 1];
}

std::optional<TimeNs> CheckedNsFromCivil(const CivilTime& c) {
  if (c.year < kMinYear || c.year > kMaxYear) return std::nullopt;
  if (c.month < 1 || c.month > 12 || c.day < 1 || c.day > DaysInMonth(c.year, c.month)) return std::nullopt;
  return NsFromCivil(c);
}

std::string FormatDay(int64_t day) { return FormatIso(day * 86400 * kNsPerSec, false).substr(0, 10); }

std::string FormatIso(TimeNs t, bool millis) {
  const CivilTime c = CivilFromNs(t);
  char buf[40];
  if (millis) {
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year, c.month, c.day, c.hour, c.minute,
                  c.second, c.millis);
  } else {
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year, c.month, c.day, c.hour, c.minute,
                  c.second);
  }
  return buf;
}

std::optional<TimeNs> ParseIso(std::string_view s) {
  CivilTime c;
  if (!TakeDigits(s, 4, 4, &c.year) || !TakeChar(s, '-') || !TakeDigits(s, 2, 2, &c.month) || !TakeChar(s, '-') ||
      !TakeDigits(s, 2, 2, &c.day))
    return std::nullopt;
  if (c.month < 1 || c.month > 12 || c.day < 1 || c.day > 31) return std::nullopt;
  if (!s.empty() && (s[0] == 'T' || s[0] == ' ')) {
    s.remove_prefix(1);
    if (!TakeDigits(s, 2, 2, &c.hour) || !TakeChar(s, ':') || !TakeDigits(s, 2, 2, &c.minute)) return std::nullopt;
    if (TakeChar(s, ':')) {
      if (!TakeDigits(s, 2, 2, &c.second)) return std::nullopt;
      if (TakeChar(s, '.')) {
        int scale = 100;
        while (!s.empty() && s[0] >= '0' && s[0] <= '9') {
          c.millis += (s[0] - '0') * scale;
          scale /= 10;
          s.remove_prefix(1);
        }
      }
    }
    if (c.hour > 23 || c.minute > 59 || c.second > 60) return std::nullopt;
  }
  int offset_min = 0;
  if (TakeChar(s, 'Z')) {
  } else if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    const int sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
    int hh = 0, mm = 0;
    if (!TakeDigits(s, 2, 2, &hh)) return std::nullopt;
    TakeChar(s, ':');
    if (!s.empty() && !TakeDigits(s, 2, 2, &mm)) return std::nullopt;
    if (hh > 23 || mm > 59) return std::nullopt;
    offset_min = sign * (hh * 60 + mm);
  }
  if (!s.empty()) return std::nullopt;
  const std::optional<TimeNs> local = CheckedNsFromCivil(c);
  if (!local) return std::nullopt;
  // The years bound the UTC instant, which is what FormatIso writes: "1900-01-01+05:00" is
  // 1899-12-31T19:00:00Z, outside them.
  const TimeNs t = *local - static_cast<TimeNs>(offset_min) * 60 * kNsPerSec;
  // Computed once: vSphere answers put every sample's time through here.
  static const TimeNs first = NsFromCivil(CivilTime{kMinYear, 1, 1});
  static const TimeNs end = NsFromCivil(CivilTime{kMaxYear + 1, 1, 1});
  if (t < first || t >= end) return std::nullopt;
  return t;
}

std::string IntervalName(int seconds) {
  if (seconds % 86400 == 0) return std::to_string(seconds / 86400) + "-day";
  if (seconds % 3600 == 0) return std::to_string(seconds / 3600) + "-hour";
  if (seconds % 60 == 0) return std::to_string(seconds / 60) + "-minute";
  return std::to_string(seconds) + "-second";
}

std::string FormatSpan(TimeNs d) {
  static constexpr std::pair<int64_t, const char*> kUnits[] = {{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}};
  const int64_t total = std::max<TimeNs>(d, 0) / kNsPerSec;
  size_t i = 0;
  while (kUnits[i].first > 1 && total < kUnits[i].first) ++i;
  std::string out = std::to_string(total / kUnits[i].first) + kUnits[i].second;
  if (kUnits[i].first > 1) {
    const int64_t rest = total % kUnits[i].first / kUnits[i + 1].first;
    if (rest) out += std::to_string(rest) + kUnits[i + 1].second;
  }
  return out;
}

TimeNs NowNs() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now).count();
}

std::string NowIso() { return FormatIso(NowNs(), false); }

}  // namespace vrecon
