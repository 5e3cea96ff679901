// Writing PDH-CSV 4.0 the way Perfmon/relog do, so vrecon's own reader (and Excel, relog,
// PAL) take the files vrecon writes as they take exported logs: the Windows agent's, `collect
// procfs --out`'s and `report --format pdh-csv`'s. Pure functions producing text; portable (the
// agent's Windows build compiles this file alone).
#ifndef VRECON_ADAPTERS_PERFMON_PDH_CSV_WRITER_H_
#define VRECON_ADAPTERS_PERFMON_PDH_CSV_WRITER_H_

#include <optional>
#include <string>
#include <vector>

namespace vrecon::perfmon {

// The collector's local civil time (what PDH puts in the rows).
struct LocalTime {
  int year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, millisecond = 0;
};

// The zone in force: its Windows name ("Eastern Daylight Time") and bias = UTC - local in
// minutes (EDT 240, India -330), as the header carries them.
struct TimeZone {
  std::string name;
  int bias_minutes = 0;
};

// "\"(PDH-CSV 4.0) (Eastern Daylight Time)(240)\",\"\\\\WEB01\\...\",...\r\n"
std::string FormatHeader(const TimeZone& zone, const std::vector<std::string>& counter_paths);
// "MM/DD/YYYY HH:MM:SS.mmm"
std::string FormatTimestamp(const LocalTime& t);
// One row: the quoted timestamp, then one quoted cell per value, " " when missing; CRLF.
std::string FormatRow(const LocalTime& t, const std::vector<std::optional<double>>& values);
// The shortest text that reads back as the same double; NaN/inf are not values (" ").
std::string FormatValue(double v);

}  // namespace vrecon::perfmon

#endif  // VRECON_ADAPTERS_PERFMON_PDH_CSV_WRITER_H_
