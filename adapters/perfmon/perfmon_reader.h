// Streaming reader for Perfmon CSV/TSV logs (PDH-CSV 4.0 / PDH-TSV 4.0). Bytes are pushed in
// chunks of any size; rows go to a SampleSink as they complete, so memory stays constant
// whatever the file size. Pure: no file or database access.
#ifndef VRECON_ADAPTERS_PERFMON_PERFMON_READER_H_
#define VRECON_ADAPTERS_PERFMON_PERFMON_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/perfmon/cycle_shares.h"
#include "adapters/perfmon/perfmon_format.h"
#include "src/core/line_splitter.h"
#include "src/core/reader.h"
#include "src/core/sample_sink.h"
#include "src/core/status.h"
#include "src/core/text_decode.h"

namespace vrecon::perfmon {

// No counter reads more than this in magnitude (a 64-bit raw counter is under 2e19, and a
// formatted one a few powers of ten more); a larger cell is stored as missing (`out-of-range`).
// Far below a double's overflow, so sums of value x seconds over any span stay finite: 1e308 in a
// log made a window's mean inf - inf = NaN.
inline constexpr double kMaxCounterMagnitude = 1e100;

// Finish fails on an empty or header-only input. The summary's format is "perfmon-csv" or
// "perfmon-tsv".
class PerfmonReader : public Reader {
 public:
  PerfmonReader(ReaderOptions options, SampleSink* sink);
  // The header's first cell: format, time zone name and bias as written.
  const FormatCell& format_cell() const { return format_; }

 private:
  Status Start(std::string_view head) override;  // sniffs the encoding, refuses binary, feeds the head
  Status Feed(std::string_view chunk) override;  // decodes and feeds text
  Status End() override;
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

  // Between the reader and its sink: cycle counts into shares (cycle_shares.h); sink_ points at it.
  std::unique_ptr<CycleShares> shares_;
  FormatCell format_;
  bool eight_bit_ = false;  // header decoded from a single-byte code page
  AutoLineSplitter lines_;

  bool header_done_ = false;
  bool data_begun_ = false;
  char delim_ = ',';
  std::string header_raw_;
  std::vector<SeriesKey> pending_columns_;
  std::vector<int> column_map_;  // data cell index (after the timestamp) -> column, or -1
  std::vector<double> values_;
  std::string_view unhashed_line_;  // last stored line, hashed lazily (see SettleLineHash)
  bool line_hash_pending_ = false;

  bool quiet_ = false;  // re-reading rows an earlier ingest stored
  bool have_prev_ = false;
  TimeNs prev_local_ = 0, prev_utc_ = 0;
  int bias_ = 0;
  std::vector<TimeNs> first_deltas_;
  std::optional<Held> held_;
  std::vector<ImportIssue> header_issues_;
  std::string first_row_problem_;
};

}  // namespace vrecon::perfmon

#endif  // VRECON_ADAPTERS_PERFMON_PERFMON_READER_H_
