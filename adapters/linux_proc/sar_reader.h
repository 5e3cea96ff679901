// Streaming reader of sysstat `sar -u` (and `sar -P ALL`, `sar -u ALL`) text output:
//
//   Linux 5.4.17 (web01)   03/07/2024   _x86_64_   (2 CPU)        <- optional header: host, date
//   10:13:14 PM     CPU     %user     %nice   %system   %iowait    %steal     %idle
//   10:13:19 PM     all      0.80      0.00      0.20      0.00      0.00     98.99
//   Average:        all      ...                                    <- ignored
//
// Times are 12-hour (AM/PM) or 24-hour local time. Rows with the same time (one per CPU) form
// one collection. Series (source guest, machine = the header's host): Processor(_Total | n) with
// % Processor Time (= 100 - %idle), % User Time, % Nice Time, % System Time, % IOWait Time,
// % Steal Time, % Idle Time (and % IRQ / % SoftIRQ / % Guest / % Guest Nice Time for -u ALL).
// Without a column header the default `sar -u` columns are assumed. The date comes from the
// header; without one, from ReaderOptions::date; without either the input is refused.
// Pure: no file or database access.
#ifndef VRECON_ADAPTERS_LINUX_PROC_SAR_READER_H_
#define VRECON_ADAPTERS_LINUX_PROC_SAR_READER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/core/reader.h"
#include "src/core/sample_sink.h"

namespace vrecon::sar {

// Options: default_machine names the machine when there is no header line; tz_bias_minutes is
// UTC - local (sar prints local time without a zone); date is midnight (civil, zone-less) of the
// first row's day. The summary's format is "sar-text", its time_zone empty.
class SarReader : public LineReader {
 public:
  SarReader(ReaderOptions options, SampleSink* sink);

 private:
  Status OnLine(std::string_view line) override;
  Status EndLines() override;
  Status OnData(const std::vector<std::string_view>& w, size_t first, TimeNs tod, std::string_view line);
  Status FlushGroup();
  // The buffered group's start and end, UTC (its start: the row before's end where the file does
  // not say); clears the group's times.
  std::pair<TimeNs, TimeNs> TakeGroupSpan();
  void CountStoredRow();
  Status DeclareCpus(const std::map<int, std::vector<double>>& group);
  Status WriteRow(const std::map<int, std::vector<double>>& group, TimeNs start, TimeNs end);
  std::optional<TimeNs> LocalTime(TimeNs tod);

  std::string machine_;
  std::optional<TimeNs> day_;       // local midnight of the current day
  std::optional<TimeNs> last_tod_;  // time of day of the last row (for midnight roll-over)
  std::vector<std::string> fields_ = {"%user", "%nice", "%system", "%iowait", "%steal", "%idle"};
  bool fingerprinted_ = false;
  std::string first_line_;

  // The collection being assembled: one timestamp, one row of values per CPU.
  std::optional<TimeNs> group_local_;
  std::map<int, std::vector<double>> group_;  // cpu (-1 = all) -> values in fields_ order
  int64_t group_line_ = 0;
  uint64_t group_line_hash_ = 0;
  std::optional<TimeNs> start_local_;  // start of the next collection (a column header's time)
  std::optional<TimeNs> prev_utc_;

  std::vector<SeriesKey> declared_;
  std::vector<std::string> declared_fields_;
  std::vector<int> declared_cpus_;
  std::vector<double> row_;
  bool no_bias_reported_ = false;
};

// True when `head` (the first bytes of a file) looks like sar text: a "Linux ... (host) ..."
// header or a first line "HH:MM:SS [AM|PM] CPU|all|n ...".
bool LooksLikeSar(std::string_view head);

// True when a file's first bytes are AIX's sar: a first line "AIX host ..." or a column line
// naming physc or %entc (PowerVM's physical processors consumed, share of the entitlement), which
// vrecon recognises but does not read.
bool LooksLikeAixSar(std::string_view head);

}  // namespace vrecon::sar

#endif  // VRECON_ADAPTERS_LINUX_PROC_SAR_READER_H_
