// Time on one axis: UTC nanoseconds since the Unix epoch (int64). Civil-date conversion
// without the C library's time-zone state, so it is pure and thread-safe.
#ifndef VRECON_SRC_CORE_TIME_UTIL_H_
#define VRECON_SRC_CORE_TIME_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vrecon {

using TimeNs = int64_t;
inline constexpr TimeNs kNsPerMs = 1'000'000;
inline constexpr TimeNs kNsPerSec = 1'000'000'000;
inline constexpr TimeNs kNsPerHour = 3600 * kNsPerSec;

// A time or a duration in seconds.
inline double ToSeconds(TimeNs t) { return static_cast<double>(t) / kNsPerSec; }
inline constexpr TimeNs kNsPerDay = 24 * kNsPerHour;

// The multiple of `unit` (> 0) at or below t, and at or above it; also before 1970.
inline TimeNs FloorTo(TimeNs t, TimeNs unit) { return (t / unit - (t % unit < 0 ? 1 : 0)) * unit; }
inline TimeNs CeilTo(TimeNs t, TimeNs unit) { return -FloorTo(-t, unit); }

struct CivilTime {
  int year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, millis = 0;
};

// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t DaysFromCivil(int y, int m, int d);
CivilTime CivilFromNs(TimeNs t);
TimeNs NsFromCivil(const CivilTime& c);

// The years a time read from input may have. Any two instants in them are less than 292 years
// (what int64 nanoseconds span) apart and far from the int64 limits, so neither the instant,
// nor the difference of two, nor either shifted by a time-zone bias or a few days overflows.
// Readers refuse a time outside them as unreadable (a bad row), as they refuse "13/45/2026".
inline constexpr int kMinYear = 1900, kMaxYear = 2189;
// 28-31 (Gregorian leap years); m in 1..12.
int DaysInMonth(int y, int m);
// NsFromCivil for times read from input: nullopt when c.year is outside kMinYear..kMaxYear or the
// day is not in its month (2026-02-30 is no date, not March 2nd).
std::optional<TimeNs> CheckedNsFromCivil(const CivilTime& c);

// "2026-11-01T10:00:00Z"; with millis=true "2026-11-01T10:00:00.000Z".
std::string FormatIso(TimeNs t, bool millis);
// "2026-11-01": the UTC day `day` days after 1970-01-01 (a capacity forecast's days).
std::string FormatDay(int64_t day);
// The current time (system clock), and to the second as FormatIso writes it (when a row was stored).
TimeNs NowNs();
std::string NowIso();
// 47m, 1h5m, 2d3h, 30s: the largest unit and the next one (negative spans read as 0s).
std::string FormatSpan(TimeNs d);
// "5-minute", "2-hour", "1-day": a sampling interval of `seconds` named as an adjective (a vCenter
// rollup's), in its largest whole unit.
std::string IntervalName(int seconds);

// Accepts "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS[.fff]]" with optional "Z" or "+HH:MM"/"-HH:MM";
// a value without an offset is UTC. An instant outside the years kMinYear..kMaxYear (in UTC) and
// an offset past 23:59 are refused.
std::optional<TimeNs> ParseIso(std::string_view s);

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_TIME_UTIL_H_
