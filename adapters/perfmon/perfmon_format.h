// The two small grammars of a Perfmon log besides counter paths: the first header cell and
// the row timestamp.
#ifndef VRECON_ADAPTERS_PERFMON_PERFMON_FORMAT_H_
#define VRECON_ADAPTERS_PERFMON_PERFMON_FORMAT_H_

#include <optional>
#include <string>
#include <string_view>

#include "src/core/reader.h"
#include "src/core/time_util.h"

namespace vrecon::perfmon {

// "(PDH-CSV 4.0) (Eastern Daylight Time)(240)". bias = UTC - local, in minutes. typeperf may
// write only "(PDH-CSV 4.0)"; real files hold cut-off cells such as "(PDH-CSV 4.0) (RTZ 2 (".
struct FormatCell {
  bool tsv = false;
  std::string time_zone;            // "" when absent
  std::optional<int> bias_minutes;  // nullopt when absent or cut off
  bool cut_off = false;             // a time-zone part is present but unreadable
};
std::optional<FormatCell> ParseFormatCell(std::string_view cell);

// How much a file's first bytes look like a Perfmon log: surely when the first cell starts with
// "(PDH-CSV" or "(PDH-TSV"; possibly when they are empty, binary (a .blg: the reader says how to
// convert it) or a first line naming counter paths ("\\HOST\Object\Counter") without that cell,
// so that the reader's message says what is wrong.
Likeness PerfmonLikeness(std::string_view head);

// True when the zone name says daylight/summer time is in force at the start of the log.
bool ZoneNameIsDaylight(std::string_view zone);

// "MM/DD/YYYY HH:MM:SS.mmm" (what PDH writes) and the shapes spreadsheets re-save it in:
// "M/D/YYYY H:MM", "M/D/YYYY H:MM:SS", "YYYY-MM-DD HH:MM:SS[.fff]". Returns local civil time
// as nanoseconds on a zone-less axis.
std::optional<TimeNs> ParseLocalTimestamp(std::string_view s);

}  // namespace vrecon::perfmon

#endif  // VRECON_ADAPTERS_PERFMON_PERFMON_FORMAT_H_
