// What every input-format reader is: bytes pushed in chunks of any size, a Finish, and the same
// summary, resume point and issue counting whatever the format. Readers are pure (no file, no
// store): src/ingest/readers.cc lists them and picks one by the first bytes of a file.
#ifndef VRECON_SRC_CORE_READER_H_
#define VRECON_SRC_CORE_READER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/line_splitter.h"
#include "src/core/sample.h"
#include "src/core/sample_sink.h"
#include "src/core/status.h"
#include "src/core/text_decode.h"

namespace vrecon {

// How strongly a file's first bytes say it is one format (src/ingest/readers.cc picks the
// strongest): surely (it announces itself), possibly (its reader can say best what is wrong with
// it), or not.
enum class Likeness { kNo, kPossibly, kSurely };

// Where an earlier ingest of the same file stopped: lines 1..after_line were stored then.
struct ResumePoint {
  int64_t after_line = 0;
  uint64_t line_hash = 0;  // fingerprint of line `after_line` as it was then
};

// Called once, with the file's fingerprint (its first lines, as each format defines), before the
// first sample is delivered. Lines up to the returned point are not stored again.
using ResumeLookup = std::function<ResumePoint(uint64_t fingerprint)>;

struct ReaderOptions {
  std::string file;                    // names the input in issues and errors
  std::optional<int> tz_bias_minutes;  // UTC - local, for local times the input does not place
  std::optional<Encoding> encoding;    // forced; otherwise sniffed from the first bytes
  // Local midnight (zone-less) of the first row, for inputs whose text carries no date.
  std::optional<TimeNs> date;
  std::string default_machine;  // machine for inputs that do not name one
  // Absolute time of the input's zero, for inputs whose times are relative (ETW traces) and that
  // may not carry it.
  std::optional<TimeNs> trace_start;
  ResumeLookup resume_lookup;
};

// What a reader tells about one input, the same shape for every format.
struct ReadSummary {
  std::string format;  // as stored with the file: "perfmon-csv", "perfmon-tsv", "powercli-csv", ...
  Encoding encoding = Encoding::kUtf8;
  std::string time_zone;  // the zone the input names, "" when it names none
  int bias_minutes = 0;   // UTC - local applied at the end of the input (DST shifts move it)
  std::vector<SeriesKey> columns;
  uint64_t fingerprint = 0;
  int64_t lines = 0;           // lines seen, headers included
  int64_t consumed_lines = 0;  // last line read and done with (now or by an earlier ingest)
  uint64_t consumed_line_hash = 0;
  int64_t rows = 0;                           // rows handed to the sink by this run
  int64_t rows_already = 0;                   // rows skipped because an earlier ingest stored them
  int64_t issues = 0;                         // issues raised by this run, all of them (details may be capped)
  std::optional<TimeNs> first_end, last_end;  // UTC span of the rows of this run
};

// Counts a reader's issues: every one exactly, the details of the first kDetailCap of each code,
// so that a file with a million bad rows stores a thousand examples, not a million.
class IssueCounter {
 public:
  static constexpr int64_t kDetailCap = 1000;  // per code and file

  // Counts one issue of `code`; true while its details are to be kept.
  bool Count(std::string_view code);
  int64_t total() const { return total_; }
  // Forgets what was counted (issues of lines an earlier ingest already recorded).
  void Clear();
  // One info issue per code that went over the cap, saying how many were counted but not listed.
  void ReportCapped(const std::string& file, SampleSink* sink) const;

 private:
  std::map<std::string, int64_t, std::less<>> per_code_;
  int64_t total_ = 0;
};

// How much of an input's start the sniffers see: the format guess (src/ingest/readers.h) and, in
// every reader, the encoding sniffer and the binary probe. One size, so that a reader sees the
// head its format was guessed from.
inline constexpr size_t kSniffBytes = 4096;

// The base of every reader. Parse holds the input's first kSniffBytes until they have all come
// (or Finish), so that the encoding sniffer and the binary probe see the same head however the
// input is chunked; then each chunk goes to Feed.
class Reader {
 public:
  explicit Reader(ReaderOptions options, SampleSink* sink) : options_(std::move(options)), sink_(sink) {}
  virtual ~Reader() = default;
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // A non-OK status means the input cannot be ingested at all (wrong format, binary). The
  // result does not depend on how the input is cut into chunks (the fuzz targets check this).
  Status Parse(std::string_view chunk);
  // Completes a last line without a terminator and delivers what is held; fails on an input
  // with nothing readable.
  [[nodiscard]] Status Finish();
  const ReadSummary& summary() const { return summary_; }

 protected:
  virtual Status Start(std::string_view head) = 0;  // once, with the held head
  virtual Status Feed(std::string_view chunk) = 0;  // every byte after the head
  virtual Status End() = 0;                         // after the last byte

  // Sniffs the encoding of `head` (a forced options_.encoding wins) into summary_.encoding and
  // returns the head without its byte-order mark. Refuses a binary input: text never holds a NUL
  // character (in UTF-16, a NUL code unit). `what` names the format in that refusal.
  StatusOr<std::string_view> StartText(std::string_view head, std::string_view what);
  // Counts one issue of `code` into summary_.issues; true while its details are to be kept.
  bool CountIssue(std::string_view code) {
    const bool keep = issues_.Count(code);
    summary_.issues = issues_.total();
    return keep;
  }
  void ClearIssues() {
    issues_.Clear();
    summary_.issues = 0;
  }
  // An issue at `line` (0: the file's own), counted and, within the cap, sent to the sink; left
  // out where a resumed ingest read that line before (line <= resume_.after_line), since the
  // earlier ingest recorded it.
  void RaiseIssue(int64_t line, Severity severity, const char* code, std::string message);
  // The refusals of a table-shaped input (a header line, then data rows) at its end: one that is
  // empty, has no header line or no data row; then one none of whose rows could be read
  // (`first_problem`, when known, says why).
  Status CheckTableShape(bool header_done, bool data_begun) const;
  Status CheckRowsRead(const std::string& first_problem) const;
  // Chunk bytes as UTF-8 text (decoded from UTF-16 when the input is), valid until the next call.
  std::string_view Decode(std::string_view chunk);

  ReaderOptions options_;
  SampleSink* sink_;
  ReadSummary summary_;
  IssueCounter issues_;  // through CountIssue / ClearIssues, which keep summary_.issues
  ResumePoint resume_;

 private:
  bool started_ = false;
  std::string head_;
  Utf16Decoder utf16_;
  std::string decoded_;
};

// A reader of lines of text (sar, the xperf dumper): decodes the chunks, splits them into lines
// (LF, CRLF or CR-only) and hands each to OnLine; a line over 64 MiB ends the input with an error
// naming the file and the line. `what` names the format in the refusal of a binary file.
class LineReader : public Reader {
 public:
  LineReader(ReaderOptions options, SampleSink* sink, std::string what)
      : Reader(std::move(options), sink), what_(std::move(what)) {}

 protected:
  virtual Status OnLine(std::string_view line) = 0;
  virtual Status EndLines() = 0;  // after the last line

 private:
  Status Start(std::string_view head) final;
  Status Feed(std::string_view chunk) final;
  Status End() final;

  std::string what_;
  AutoLineSplitter lines_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_READER_H_
