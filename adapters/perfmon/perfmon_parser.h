// Streaming reader for Perfmon CSV/TSV logs (PDH-CSV 4.0 / PDH-TSV 4.0). Bytes are pushed in
// chunks of any size; rows go to a SampleSink as they complete, so memory stays constant
// whatever the file size. Pure: no file or database access.
#ifndef VRECON_ADAPTERS_PERFMON_PERFMON_PARSER_H_
#define VRECON_ADAPTERS_PERFMON_PERFMON_PARSER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/perfmon/perfmon_format.h"
#include "adapters/perfmon/text_decode.h"
#include "src/core/line_splitter.h"
#include "src/core/sample_sink.h"
#include "src/core/status.h"

namespace vrecon::perfmon {

// No counter reads more than this in magnitude (a 64-bit raw counter is under 2e19, and a
// formatted one a few powers of ten more); a larger cell is stored as missing (`out-of-range`).
// Far below a double's overflow, so sums of value x seconds over any span stay finite: 1e308 in a
// log made a window's mean inf - inf = NaN.
inline constexpr double kMaxCounterMagnitude = 1e100;

// Where an earlier ingest of the same file stopped: lines 1..after_line were stored then.
struct ResumePoint {
  int64_t after_line = 0;
  uint64_t line_hash = 0;  // fingerprint of line `after_line` as it was then
};

struct ParserOptions {
  std::string file;                    // names the input in issues and errors
  std::optional<int> tz_bias_minutes;  // used when the header carries no readable bias
  std::optional<Encoding> encoding;    // forced; otherwise sniffed
  // Called once, with the file's fingerprint (header + first data line), before the first
  // row is delivered. Lines up to the returned point are re-read for clock state only.
  std::function<ResumePoint(uint64_t fingerprint)> resume_lookup;
};

struct ParseSummary {
  Encoding encoding = Encoding::kUtf8;
  FormatCell format;
  int bias_minutes = 0;  // at the end of the file (DST shifts move it)
  std::vector<SeriesKey> columns;
  uint64_t fingerprint = 0;
  int64_t lines = 0;           // lines seen, header included
  int64_t consumed_lines = 0;  // last line stored (now or by an earlier ingest)
  uint64_t consumed_line_hash = 0;
  int64_t rows = 0;                           // rows handed to the sink by this run
  int64_t rows_already = 0;                   // rows skipped because an earlier ingest stored them
  int64_t issues = 0;                         // issues raised by this run, all of them (details may be capped)
  std::optional<TimeNs> first_end, last_end;  // UTC span of the rows of this run
};

class PerfmonParser {
 public:
  PerfmonParser(ParserOptions options, SampleSink* sink);
  PerfmonParser(const PerfmonParser&) = delete;
  PerfmonParser& operator=(const PerfmonParser&) = delete;

  // A non-OK status means the input cannot be ingested at all (not a Perfmon log, binary).
  // The result does not depend on how the input is cut into chunks (fuzz/perfmon_csv_fuzzer).
  Status Parse(std::string_view chunk);
  // Completes a last line without a terminator; fails on an empty or header-only input.
  [[nodiscard]] Status Finish();
  const ParseSummary& summary() const { return summary_; }

  static constexpr int kIssueDetailCap = 1000;  // per code and file; the count stays exact
  static constexpr size_t kSniffBytes = 4096;   // what the encoding sniffer and binary probe see

 private:
  Status Start(std::string_view head);  // sniffs the encoding, refuses binary, feeds the head
  Status Feed(std::string_view chunk);  // decodes and feeds text
  Status FeedText(std::string_view text);
  Status OnLine(std::string_view line);
  Status OnHeader(std::string_view line);
  Status BeginData(std::string_view first_data_line);
  // Data rows (perfmon_rows.cc).
  struct Row {
    int64_t line;
    TimeNs local, utc;
    bool ragged, already;  // already: stored by an earlier ingest
  };
  struct Held {  // a row that jumped ahead, until the next row confirms or contradicts it
    Row row;
    std::vector<double> values;
    uint64_t line_hash;
  };
  Status OnDataRow(std::string_view line);
  std::optional<TimeNs> ToUtc(TimeNs local);
  TimeNs TypicalStep() const;  // median of the first steps between rows
  bool IsFallBack(TimeNs local_delta) const;
  bool IsJump(TimeNs utc) const;
  TimeNs LongGap() const;
  Status SettleHeld(TimeNs next_local);
  Status Accept(const Row& row, const std::vector<double>& values, std::string_view text,
                std::optional<uint64_t> line_hash);
  Status FinishHeld();
  void SettleLineHash();  // computes the pending consumed_line_hash while its text is alive
  void Issue(Severity severity, const char* code, std::string message, int64_t line = -1);  // -1: this line
  // Every clock event, uncapped, but not for rows an earlier ingest stored (it recorded them).
  void ClockEvent(const char* kind, TimeNs before, TimeNs after);
  std::string Printable(std::string_view raw) const;

  ParserOptions options_;
  SampleSink* sink_;
  ParseSummary summary_;

  bool sniffed_ = false;
  std::string head_;        // the input's start while it is shorter than kSniffBytes
  bool eight_bit_ = false;  // header decoded from a single-byte code page
  Utf16Decoder utf16_;
  std::string decoded_;
  AutoLineSplitter lines_;

  bool header_done_ = false;
  bool data_begun_ = false;
  char delim_ = ',';
  std::string header_raw_;
  std::vector<SeriesKey> pending_columns_;
  std::vector<int> column_map_;  // data cell index (after the timestamp) -> column, or -1
  std::vector<double> values_;
  ResumePoint resume_;
  std::string_view unhashed_line_;  // last stored line, hashed lazily (see SettleLineHash)
  bool line_hash_pending_ = false;

  bool quiet_ = false;  // re-reading rows an earlier ingest stored
  bool have_prev_ = false;
  TimeNs prev_local_ = 0, prev_utc_ = 0;
  int bias_ = 0;
  std::vector<TimeNs> first_deltas_;
  std::optional<Held> held_;
  std::map<std::string, int64_t> issue_counts_;
  std::vector<ImportIssue> header_issues_;
  std::string first_row_problem_;
};

}  // namespace vrecon::perfmon

#endif  // VRECON_ADAPTERS_PERFMON_PERFMON_PARSER_H_
