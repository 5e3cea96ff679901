// Streaming reader for PowerCLI `Get-Stat ... | Export-Csv` files: one row per sample, columns
// Value, Timestamp, MetricId, Unit, Description, Entity, EntityId, IntervalSecs, Instance (in any
// order, matched by name), optionally preceded by a `#TYPE VMware.VimAutomation...` line.
//
// Rows come grouped by entity and metric, not in time order, and every metric has its own
// timestamps. The parser buffers one (entity, metric) group at a time (capped at
// kMaxGroupSamples), and when the group changes it hands each of the group's series (one per
// instance) to the sink as its own one-column set, rows sorted by time. Memory is bounded by
// one group.
// Pure: no file or database access; bytes are pushed in chunks of any size.
#ifndef VRECON_ADAPTERS_POWERCLI_POWERCLI_CSV_H_
#define VRECON_ADAPTERS_POWERCLI_POWERCLI_CSV_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/powercli/powercli_format.h"
#include "adapters/vsphere/vsphere_units.h"
#include "src/core/line_splitter.h"
#include "src/core/reader.h"
#include "src/core/sample_sink.h"
#include "src/core/status.h"

namespace vrecon::powercli {

// The summary's format is "powercli-csv"; its time_zone stays empty (each timestamp carries its
// own offset, or none).
class PowerCliReader : public Reader {
 public:
  PowerCliReader(ReaderOptions options, SampleSink* sink);

  const std::string& type_name() const { return type_name_; }  // from the #TYPE line, "" when there was none
  char delimiter() const { return delimiter_; }
  bool zone_less_times() const { return zone_less_times_; }  // some timestamps had no offset (bias applied)

  static constexpr size_t kMaxGroupSamples = 1 << 16;  // a longer group is delivered in parts

 private:
  struct Sample {
    TimeNs start, end;
    double value;  // converted; kMissing for -1 / empty
    int64_t line;
    int instance;  // index into group_instances_
  };
  Status Start(std::string_view head) override;  // sniffs the encoding, refuses binary, feeds the head
  Status Feed(std::string_view chunk) override;  // decodes and feeds text
  Status End() override;                         // delivers the last group
  Status FeedText(std::string_view text);
  Status OnLine(std::string_view line, bool terminated);
  Status OnHeader(std::string_view line);
  Status OnDataLine(std::string_view line, bool terminated);
  // One data row's fields, checked; the views point into cells_.
  struct Row {
    std::string_view metric, entity, instance;
    SourceKind source = SourceKind::kVsphere;
    int secs = 0;               // IntervalSecs
    TimeNs end = 0;             // the sample's end, UTC
    std::optional<double> raw;  // Value as written; unset when empty (a missing sample)
    vsphere::RawUnit unit{};
  };
  // Reads one data row; false when it was rejected (an issue says why). A quiet row (stored by
  // an earlier ingest) only declares its series.
  Status ReadRow(std::string_view line, bool quiet, bool* good);
  std::optional<Row> CheckRow(std::string_view line, int64_t n);
  // A Timestamp without an offset: local time, shifted by the bias (said once).
  TimeNs FromLocalTime(TimeNs local, int64_t n);
  void DeclareSeries(const Row& row);
  Status AddSample(const Row& row, int64_t n);
  Status EmitGroup();
  void Issue(int64_t line, Severity severity, const char* code, std::string message);

  std::string type_name_;
  char delimiter_ = ',';
  bool zone_less_times_ = false;
  AutoLineSplitter lines_;
  bool quiet_ = false;

  std::string type_line_;
  bool header_done_ = false;
  bool data_begun_ = false;
  size_t ncells_ = 0;
  int col_value_ = -1, col_time_ = -1, col_metric_ = -1, col_unit_ = -1, col_entity_ = -1, col_entity_id_ = -1,
      col_interval_ = -1, col_instance_ = -1;
  std::string header_raw_;
  bool bias_checked_ = false;

  // The group being buffered: one entity and metric, all its instances.
  std::string group_entity_, group_metric_;
  SourceKind group_source_ = SourceKind::kVsphere;  // kVsphereHost for a HostSystem's rows
  std::vector<std::string> group_instances_;
  std::vector<std::string> group_units_;  // stored unit, per instance
  std::vector<Sample> group_;
  std::set<std::string> declared_;  // series already in summary_.columns (entity, metric, instance)
  std::string last_entity_, last_metric_, last_instance_;
  SourceKind last_source_ = SourceKind::kVsphere;

  std::vector<std::string> cells_;
  std::string first_row_problem_;
};

}  // namespace vrecon::powercli

#endif  // VRECON_ADAPTERS_POWERCLI_POWERCLI_CSV_H_
