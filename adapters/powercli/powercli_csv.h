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
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/perfmon/perfmon_parser.h"  // ResumePoint
#include "adapters/perfmon/text_decode.h"
#include "adapters/powercli/powercli_format.h"
#include "src/core/line_splitter.h"
#include "src/core/sample_sink.h"
#include "src/core/status.h"

namespace vrecon::powercli {

struct ParserOptions {
  std::string file;                    // names the input in issues and errors
  std::optional<int> tz_bias_minutes;  // UTC - local, for timestamps without an offset
  // Called once, with the file's fingerprint (#TYPE line + header + first data line), before
  // the first sample is delivered. Lines up to the returned point are not stored again.
  std::function<perfmon::ResumePoint(uint64_t fingerprint)> resume_lookup;
};

struct ParseSummary {
  perfmon::Encoding encoding = perfmon::Encoding::kUtf8;
  std::string type_name;  // from the #TYPE line, "" when there was none
  char delimiter = ',';
  int bias_minutes = 0;            // applied to timestamps without an offset
  bool zone_less_times = false;    // some timestamps had no offset (bias_minutes applied)
  std::vector<SeriesKey> columns;  // every series delivered, in first-seen order
  uint64_t fingerprint = 0;
  int64_t lines = 0;           // lines seen, #TYPE and header included
  int64_t consumed_lines = 0;  // last line read and done with (now or by an earlier ingest)
  uint64_t consumed_line_hash = 0;
  int64_t rows = 0;                           // samples (data rows) handed to the sink by this run
  int64_t rows_already = 0;                   // samples skipped because an earlier ingest stored them
  int64_t issues = 0;                         // issues raised by this run, all of them (details may be capped)
  std::optional<TimeNs> first_end, last_end;  // UTC span of the samples of this run
};

class PowerCliParser {
 public:
  PowerCliParser(ParserOptions options, SampleSink* sink);
  PowerCliParser(const PowerCliParser&) = delete;
  PowerCliParser& operator=(const PowerCliParser&) = delete;

  // A non-OK status means the input cannot be ingested at all. The result does not depend on
  // how the input is cut into chunks (fuzz/powercli_csv_fuzzer).
  Status Parse(std::string_view chunk);
  // Completes a last line without a terminator, delivers the last group; fails on an input
  // with no readable sample.
  [[nodiscard]] Status Finish();
  const ParseSummary& summary() const { return summary_; }

  static constexpr int kIssueDetailCap = 1000;         // per code and file; the count stays exact
  static constexpr size_t kMaxGroupSamples = 1 << 16;  // a longer group is delivered in parts
  static constexpr size_t kSniffBytes = 4096;          // what the encoding sniffer and binary probe see

 private:
  struct Sample {
    TimeNs start, end;
    double value;  // converted; kMissing for -1 / empty
    int64_t line;
    int instance;  // index into group_instances_
  };
  Status Start(std::string_view head);  // sniffs the encoding, refuses binary, feeds the head
  Status Feed(std::string_view chunk);  // decodes and feeds text
  Status FeedText(std::string_view text);
  Status OnLine(std::string_view line, bool terminated);
  Status OnHeader(std::string_view line);
  Status OnDataLine(std::string_view line, bool terminated);
  // Reads one data row; false when it was rejected (an issue says why).
  Status ReadRow(std::string_view line, bool quiet, bool* good);
  Status EmitGroup();
  void Issue(int64_t line, Severity severity, const char* code, std::string message);

  ParserOptions options_;
  SampleSink* sink_;
  ParseSummary summary_;

  bool sniffed_ = false;
  std::string head_;  // the input's start while it is shorter than kSniffBytes
  perfmon::Utf16Decoder utf16_;
  std::string decoded_;
  AutoLineSplitter lines_;
  bool quiet_ = false;

  std::string type_line_;
  bool header_done_ = false;
  bool data_begun_ = false;
  size_t ncells_ = 0;
  int col_value_ = -1, col_time_ = -1, col_metric_ = -1, col_unit_ = -1, col_entity_ = -1, col_entity_id_ = -1,
      col_interval_ = -1, col_instance_ = -1;
  std::string header_raw_;
  perfmon::ResumePoint resume_;
  bool bias_checked_ = false;

  // The group being buffered: one entity and metric, all its instances.
  std::string group_entity_, group_metric_;
  std::vector<std::string> group_instances_;
  std::vector<std::string> group_units_;  // stored unit, per instance
  std::vector<Sample> group_;
  std::set<std::string> declared_;  // series already in summary_.columns (entity, metric, instance)
  std::string last_entity_, last_metric_, last_instance_;

  std::vector<std::string> cells_;
  std::map<std::string, int64_t> issue_counts_;
  std::string first_row_problem_;
};

}  // namespace vrecon::powercli

#endif  // VRECON_ADAPTERS_POWERCLI_POWERCLI_CSV_H_
