// What WPA's CSV export (Windows Performance Analyzer: a table's Export, or `wpaexporter`) writes,
// whatever the table (docs/formats/etw.md): comma-separated cells, quoted when they hold a comma;
// header cells "Name (unit)" where the view shows a unit; numbers with thousands separators.
// Pure: no file or store.
#ifndef VRECON_ADAPTERS_ETW_WPA_CSV_H_
#define VRECON_ADAPTERS_ETW_WPA_CSV_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vrecon::etw::wpa {

// The cells of one line, as views into the line (or, for a quoted cell holding "", into a copy
// with the quotes undoubled). Valid until the next Split.
class CsvCells {
 public:
  // Cuts the first `max_cells` cells of `line`; false when a quote is not closed.
  bool Split(std::string_view line, size_t max_cells);
  size_t size() const { return cells_.size(); }
  std::string_view operator[](size_t i) const { return cells_[i]; }

 private:
  std::vector<std::string_view> cells_;
  std::string unquoted_;  // reserved to the line's size before a split, so views stay valid
};

// The unit a header cell names in its last parentheses. WPA writes µs in UTF-8; a file decoded as
// Windows-1252 shows it as "Âµs"; "us" and the Greek mu are taken too.
enum class Unit { kNone, kSeconds, kMillis, kMicros, kNanos };

struct HeaderCell {
  std::string key;  // the name folded: lower case, no blanks, '-' or '_' ("switchintime")
  Unit unit = Unit::kNone;
};

// A column a reader looks for: its key as ParseHeaderCell folds it, its name in messages, and the
// unit its numbers have when the header names none (WPA's default cell formats).
struct ColumnSpec {
  const char* key;
  const char* name;
  Unit unit;
};

// "Switch-In Time (s)" -> {"switchintime", kSeconds}; "CPU Usage (in view) (ms)" ->
// {"cpuusage(inview)", kMillis}. Parentheses that name no unit stay in the key. WPA 8's
// "SwitchInTime" and WPA 10's "Switch-In Time" give the same key.
HeaderCell ParseHeaderCell(std::string_view cell);

// A non-negative decimal number: the whole part and the first nine decimals (value = whole +
// nanos / 1e9).
struct Decimal {
  int64_t whole = 0;
  int64_t nanos = 0;
};

// "12.345678901" or "1,234,567.5": a comma separates thousands (groups of three digits in the
// whole part), a point decimals; blanks, no-break and narrow no-break spaces are ignored. Anything else is refused, a
// decimal comma
// ("12,5") included, so that a file written with another locale's numbers is never misread. At
// most 12 digits before the point; decimals past the ninth are dropped.
bool ParseDecimal(std::string_view s, Decimal* d);

// The number in `unit` (kNone is not a unit: the caller picks the column's default) as whole
// microseconds, rounded half up.
int64_t ToMicros(const Decimal& d, Unit unit);

// A whole number up to `max` ("1202", "12,345"); false for anything else.
bool WholeNumber(std::string_view s, int64_t max, int64_t* v);

// WPA leaves a cell empty, or writes n/a, where it has no value.
bool NoValue(std::string_view s);

// The readers' fingerprint of a line, chained from `h`: FNV-1a's multiply taken 8 bytes at a time
// (byte by byte it cost a tenth of the reading), with a shift that carries high bits down. The
// words are read little-endian whatever the host, so a fingerprint stored by one build matches
// another's.
uint64_t HashLine(std::string_view s, uint64_t h);

// True when `head` (a file's first bytes, in any encoding vrecon reads) starts with a header line
// naming the "New Process" and "Switch-In Time" columns: a CPU Usage (Precise) table.
bool LooksLikeWpaPrecise(std::string_view head);

// True when the header line names a "Weight" column and "% Weight" or "TimeStamp", and no
// "Switch-In Time": a CPU Usage (Sampled) table (profile samples, adapters/etw/wpa_sampled.h).
bool LooksLikeWpaSampled(std::string_view head);

}  // namespace vrecon::etw::wpa

#endif  // VRECON_ADAPTERS_ETW_WPA_CSV_H_
