#include "adapters/perfmon/perfmon_parser.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "adapters/perfmon/perfmon_columns.h"
#include "src/core/text_util.h"

namespace vrecon::perfmon {
namespace {

constexpr TimeNs kHour = 3600 * kNsPerSec;

// One cell of a row. Perfmon quotes every cell ("..."); spreadsheets re-save without quotes.
// Returns false at the end of the line. Doubled quotes inside a quoted cell are kept as they
// are: they never occur in values, and header cells go through UnquoteHeaderCell.
inline bool NextCell(const char*& p, const char* end, char delim, std::string_view* cell, bool* more) {
  if (p > end) return false;
  if (p < end && *p == '"') {
    const char* q = static_cast<const char*>(std::memchr(p + 1, '"', end - p - 1));
    if (q == nullptr) {
      *cell = std::string_view(p + 1, end - p - 1);
      p = end + 1;
      *more = false;
      return true;
    }
    *cell = std::string_view(p + 1, q - p - 1);
    p = q + 1;
    // The delimiter almost always follows the closing quote at once: skip the memchr call then.
    const char* d = p < end && *p == delim ? p : static_cast<const char*>(std::memchr(p, delim, end - p));
    if (d == nullptr) {
      p = end + 1;
      *more = false;
    } else {
      p = d + 1;
      *more = true;
    }
    return true;
  }
  const char* d = static_cast<const char*>(std::memchr(p, delim, end - p));
  if (d == nullptr) {
    *cell = std::string_view(p, end - p);
    p = end + 1;
    *more = false;
  } else {
    *cell = std::string_view(p, d - p);
    p = d + 1;
    *more = true;
  }
  return true;
}

std::vector<std::string> SplitHeader(std::string_view line, char delim) {
  std::vector<std::string> cells;
  std::string cur;
  bool quoted = false, in_cell_start = true;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_cell_start && c == '"') {
      quoted = true;
      in_cell_start = false;
      continue;
    }
    in_cell_start = false;
    if (quoted && c == '"') {
      if (i + 1 < line.size() && line[i + 1] == '"') {
        cur.push_back('"');
        ++i;
      } else {
        quoted = false;
      }
    } else if (!quoted && c == delim) {
      cells.push_back(std::move(cur));
      cur.clear();
      in_cell_start = true;
    } else {
      cur.push_back(c);
    }
  }
  cells.push_back(std::move(cur));
  return cells;
}

}  // namespace

PerfmonParser::PerfmonParser(ParserOptions options, SampleSink* sink) : options_(std::move(options)), sink_(sink) {}

void PerfmonParser::ClockEvent(const char* kind, TimeNs before, TimeNs after) {
  if (quiet_) return;
  sink_->AddClockEvent(ClockRecord{kind, before, after, options_.file, summary_.lines});
}

void PerfmonParser::Issue(Severity severity, const char* code, std::string message) {
  if (quiet_) return;
  ++summary_.issues;
  const int64_t n = ++issue_counts_[code];
  if (n > kIssueDetailCap) return;
  if (first_row_problem_.empty() && data_begun_)
    first_row_problem_ = "line " + std::to_string(summary_.lines) + ": " + message;
  ImportIssue issue{options_.file, summary_.lines, severity, code, std::move(message)};
  if (!data_begun_) {
    header_issues_.push_back(std::move(issue));  // held until we know whether this is a resume
  } else {
    sink_->AddIssue(std::move(issue));
  }
}

std::string PerfmonParser::Printable(std::string_view raw) const {
  std::string s(raw.substr(0, 40));
  if (eight_bit_ || !IsValidUtf8(s)) s = SingleByteToUtf8(s, Encoding::kCp1252);
  return s;
}

Status PerfmonParser::Parse(std::string_view chunk) {
  if (sniffed_) return Feed(chunk);
  // The encoding sniffer and the binary probe see the same first bytes however the input is
  // chunked: a shorter start is held until kSniffBytes have come (or Finish).
  if (head_.empty() && chunk.size() >= kSniffBytes) return Start(chunk);
  head_.append(chunk);
  if (head_.size() < kSniffBytes) return Status::Ok();
  const std::string head = std::move(head_);
  head_.clear();
  return Start(head);
}

Status PerfmonParser::Start(std::string_view head) {
  sniffed_ = true;
  Sniffed s = SniffEncoding(head);
  if (options_.encoding) {
    s.encoding = *options_.encoding;
    s.eight_bit_undecided = false;
  }
  summary_.encoding = s.encoding;
  head.remove_prefix(std::min(head.size(), s.bom_length));
  // Text never holds a NUL character: a NUL byte (or, in UTF-16, a NUL code unit) means binary.
  // Little-endian binary headers can look like BOM-less UTF-16 to the sniffer.
  const size_t probe = std::min<size_t>(head.size(), kSniffBytes);
  bool binary = false;
  if (s.encoding == Encoding::kUtf16Le) {
    for (size_t i = 0; i + 1 < probe && !binary; i += 2) binary = head[i] == '\0' && head[i + 1] == '\0';
  } else {
    binary = std::memchr(head.data(), '\0', probe) != nullptr;
  }
  if (binary) {
    return Status::NotSupported(options_.file +
                                " is a binary file, not a Perfmon CSV/TSV log; if it is a .blg, convert it with "
                                "`relog <file>.blg -f csv -o <file>.csv` and ingest the CSV");
  }
  return Feed(head);
}

Status PerfmonParser::Feed(std::string_view chunk) {
  if (summary_.encoding == Encoding::kUtf16Le) {
    decoded_.clear();
    utf16_.Feed(chunk, &decoded_);
    Status s = FeedText(decoded_);
    SettleLineHash();
    return s;
  }
  Status s = FeedText(chunk);
  SettleLineHash();
  return s;
}

void PerfmonParser::SettleLineHash() {
  if (!line_hash_pending_) return;
  summary_.consumed_line_hash = Fnv1a64(unhashed_line_);
  line_hash_pending_ = false;
}

Status PerfmonParser::FeedText(std::string_view text) {
  if (!line_mode_known_) {
    // Until the text shows whether lines end in CR alone, it is held: split at the wrong
    // separator, the first line would run into the next ones. Holds at most the first line.
    undecided_.append(text);
    const size_t cr = undecided_.find('\r');
    if (cr != std::string::npos && cr + 1 < undecided_.size()) {
      cr_only_ = undecided_[cr + 1] != '\n' && undecided_.find('\n') > cr;
    } else if (undecided_.find('\n') == std::string::npos) {
      return Status::Ok();
    }
    line_mode_known_ = true;
    const std::string held = std::move(undecided_);
    undecided_.clear();
    Status s = SplitLines(held);
    SettleLineHash();  // the held text goes away here
    return s;
  }
  return SplitLines(text);
}

Status PerfmonParser::SplitLines(std::string_view text) {
  return lines_.Feed(text, cr_only_ ? '\r' : '\n', [this](std::string_view line, bool transient) {
    Status s = OnLine(line);
    if (transient) SettleLineHash();  // the line's text goes away after this call
    return s;
  });
}

Status PerfmonParser::Finish() {
  if (!sniffed_ && !head_.empty()) {
    const std::string head = std::move(head_);
    head_.clear();
    RETURN_IF_ERROR(Start(head));
  }
  if (!undecided_.empty()) {  // no line end at all, or a CR only at the very end: one line
    const std::string held = std::move(undecided_);
    undecided_.clear();
    RETURN_IF_ERROR(SplitLines(held));
    SettleLineHash();
  }
  RETURN_IF_ERROR(lines_.Finish([this](std::string_view line, bool) {
    Status s = OnLine(line);
    SettleLineHash();
    return s;
  }));
  if (!sniffed_ || summary_.lines == 0) return Status::ParseError(options_.file + " is empty");
  if (!header_done_) return Status::ParseError(options_.file + " holds no header line");
  if (!data_begun_)
    return Status::ParseError(options_.file + " has a header but no data rows (line " +
                              std::to_string(summary_.lines) + " is the last)");
  if (summary_.rows == 0 && summary_.rows_already == 0) {
    std::string why = first_row_problem_.empty() ? "" : "; the first problem, " + first_row_problem_;
    return Status::ParseError("none of the data rows of " + options_.file + " could be read" + why);
  }
  for (const auto& [code, n] : issue_counts_) {
    if (n > kIssueDetailCap) {
      sink_->AddIssue(ImportIssue{options_.file, 0, Severity::kInfo, code,
                                  std::to_string(n - kIssueDetailCap) + " more '" + code +
                                      "' issues in this file are counted but not listed"});
    }
  }
  summary_.bias_minutes = bias_;
  return Status::Ok();
}

Status PerfmonParser::OnLine(std::string_view line) {
  ++summary_.lines;
  if (IsBlank(line)) return Status::Ok();
  if (!header_done_) return OnHeader(line);
  if (!data_begun_) RETURN_IF_ERROR(BeginData(line));
  return OnDataRow(line);
}

Status PerfmonParser::OnHeader(std::string_view raw) {
  header_raw_ = std::string(raw);
  std::string text(raw);
  if (summary_.encoding != Encoding::kUtf16Le && !options_.encoding && !IsValidUtf8(raw)) {
    summary_.encoding = GuessCodePage(raw);
  }
  if (summary_.encoding == Encoding::kCp1251 || summary_.encoding == Encoding::kCp1252) {
    eight_bit_ = true;
    text = SingleByteToUtf8(raw, summary_.encoding);
  }
  // The delimiter is not known yet: a TSV header's first cell ends at a tab, a CSV's at a comma.
  // A quoted first cell can hold a comma itself ("(PDH-CSV 4.0) (Paris, Madrid)(-60)").
  const size_t first_quote_end = text.starts_with('"') ? text.find('"', 1) : std::string::npos;
  const size_t cut = text.find_first_of(",\t", first_quote_end == std::string::npos ? 0 : first_quote_end);
  std::vector<std::string> first_cells = SplitHeader(std::string_view(text).substr(0, cut), ',');
  const std::string first(Trim(first_cells.front()));
  auto fmt = ParseFormatCell(first);
  if (!fmt) {
    return Status::ParseError(options_.file + ":" + std::to_string(summary_.lines) +
                              ": not a Perfmon CSV/TSV log: the first cell should start with \"(PDH-CSV 4.0)\" or "
                              "\"(PDH-TSV 4.0)\", found \"" + first.substr(0, 60) + "\"");
  }
  summary_.format = *fmt;
  delim_ = fmt->tsv ? '\t' : ',';
  std::vector<std::string> cells = SplitHeader(text, delim_);
  cells.erase(cells.begin());
  ColumnPlan plan = PlanColumns(cells);
  for (const std::string& p : plan.problems) Issue(Severity::kWarning, "bad-counter-path", p);
  const std::string stem = std::filesystem::path(options_.file).stem().string();
  for (SeriesKey& k : plan.columns)
    if (k.machine.empty()) k.machine = stem;
  column_map_ = std::move(plan.map);
  pending_columns_ = std::move(plan.columns);
  summary_.columns = pending_columns_;
  values_.assign(pending_columns_.size(), kMissing);

  if (fmt->bias_minutes) {
    bias_ = *fmt->bias_minutes;
  } else {
    bias_ = options_.tz_bias_minutes.value_or(0);
    const std::string why = fmt->cut_off ? "the header's time-zone cell is cut off" : "the header carries no time-zone bias";
    Issue(Severity::kWarning, "no-bias",
          why + "; local times were read as UTC" +
              (options_.tz_bias_minutes ? std::string(" shifted by --tz-bias ") + std::to_string(bias_) + " min"
                                        : std::string(" (pass --tz-bias MINUTES to say otherwise)")));
  }
  if (pending_columns_.empty())
    return Status::ParseError(options_.file + ": the header holds no counter path vrecon can read");
  header_done_ = true;
  return Status::Ok();
}

Status PerfmonParser::BeginData(std::string_view first_data_line) {
  data_begun_ = true;
  summary_.fingerprint = Fnv1a64(first_data_line, Fnv1a64(header_raw_));
  if (options_.resume_lookup) resume_ = options_.resume_lookup(summary_.fingerprint);
  if (resume_.after_line == 0) {
    for (ImportIssue& i : header_issues_) sink_->AddIssue(std::move(i));
  } else {
    summary_.issues -= static_cast<int64_t>(header_issues_.size());
    issue_counts_.clear();
  }
  header_issues_.clear();
  return sink_->DeclareColumns(pending_columns_);
}

// The UTC time of the row where the shift shows, in a fixed form the correction engine reads
// back to flag the window ("; shift at <ISO>Z").
static std::string DstShiftAt(TimeNs local, int bias_minutes) {
  return "; shift at " + FormatIso(local + static_cast<TimeNs>(bias_minutes) * 60 * kNsPerSec, true);
}

std::optional<TimeNs> PerfmonParser::ToUtc(TimeNs local) {
  if (have_prev_) {
    const TimeNs delta = local - prev_local_;
    TimeNs typical = 15 * kNsPerSec;
    if (!first_deltas_.empty()) {
      std::vector<TimeNs> d = first_deltas_;
      std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
      typical = d[d.size() / 2];
    }
    const TimeNs tolerance = std::max<TimeNs>(2 * kNsPerSec, typical / 2);
    const TimeNs after_fallback = delta + kHour;
    // `typical` is whatever the first rows' steps were, decades in a damaged file: capped at an
    // hour, 3 x typical cannot overflow, and the test is the same (after_fallback < 1 h).
    if (delta < 0 && after_fallback > 0 &&
        after_fallback <= std::max<TimeNs>(3 * std::min(typical, kHour), 300 * kNsPerSec)) {
      bias_ += 60;
      const TimeNs at = local + static_cast<TimeNs>(bias_) * 60 * kNsPerSec;
      ClockEvent("dst-shift", at, at - kHour);
      Issue(Severity::kInfo, "dst-shift",
            "local time went back one hour (daylight saving time ended); the UTC bias is now " + std::to_string(bias_) +
                " min and UTC times stay monotonic" + DstShiftAt(local, bias_));
    } else if (delta > kHour && !ZoneNameIsDaylight(summary_.format.time_zone) &&
               std::llabs(delta - kHour - typical) <= tolerance) {
      bias_ -= 60;
      const TimeNs at = local + static_cast<TimeNs>(bias_) * 60 * kNsPerSec;
      ClockEvent("dst-shift", at, at + kHour);
      Issue(Severity::kInfo, "dst-shift",
            "local time jumped forward one hour (daylight saving time began); the UTC bias is now " +
                std::to_string(bias_) + " min" + DstShiftAt(local, bias_));
    } else if (delta > 0 && first_deltas_.size() < 16) {
      first_deltas_.push_back(delta);
    }
  }
  const TimeNs utc = local + static_cast<TimeNs>(bias_) * 60 * kNsPerSec;
  if (have_prev_ && utc <= prev_utc_) {
    ClockEvent("time-backwards", prev_utc_, utc);
    Issue(Severity::kWarning, "time-backwards",
          std::string("the row's time ") + FormatIso(utc, true) + " is not after the previous row's " +
              FormatIso(prev_utc_, true) + "; the row is skipped");
    return std::nullopt;
  }
  return utc;
}

Status PerfmonParser::OnDataRow(std::string_view line) {
  // Rows stored by an earlier ingest are re-read for the clock state only; their issues were
  // recorded then.
  const bool already = summary_.lines <= resume_.after_line;
  quiet_ = already;
  struct Unquiet {
    bool& q;
    ~Unquiet() { q = false; }
  } unquiet{quiet_};
  const char* p = line.data();
  const char* end = line.data() + line.size();
  std::string_view cell;
  bool more = false;
  NextCell(p, end, delim_, &cell, &more);
  auto local = ParseLocalTimestamp(cell);
  if (!local) {
      Issue(Severity::kWarning, "bad-timestamp",
            "the first cell \"" + Printable(cell) + "\" is not a timestamp (MM/DD/YYYY HH:MM:SS.mmm); the row is skipped");
    return Status::Ok();
  }
  const size_t ncols = column_map_.size();
  size_t i = 0;
  std::fill(values_.begin(), values_.end(), kMissing);
  while (more && NextCell(p, end, delim_, &cell, &more)) {
    if (i >= ncols) {
      ++i;
      continue;
    }
    const int col = column_map_[i++];
    if (col < 0 || cell.empty()) continue;
    double v;
    auto r = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (r.ec == std::errc() && r.ptr == cell.data() + cell.size() && std::isfinite(v)) {
      values_[col] = v;
      continue;
    }
    if (IsBlank(cell)) continue;
    if (auto parsed = ParseDouble(cell)) {
      values_[col] = *parsed;
      continue;
    }
      Issue(Severity::kWarning, "non-numeric",
            "column " + std::to_string(i + 1) + " holds \"" + Printable(cell) +
                "\", not a number; that value is stored as missing");
  }
  if (i != ncols) {
      Issue(Severity::kWarning, "ragged-row",
            "the row has " + std::to_string(i + 1) + " cells but the header has " + std::to_string(ncols + 1) +
                "; the row is skipped");
    // Its time still marks a sample the collector took: the next row's values cover the time
    // since then, not since the last row stored.
    if (const std::optional<TimeNs> utc = ToUtc(*local)) {
      have_prev_ = true;
      prev_local_ = *local;
      prev_utc_ = *utc;
    }
    return Status::Ok();
  }
  const std::optional<TimeNs> utc = ToUtc(*local);
  if (!utc) return Status::Ok();
  const TimeNs start = have_prev_ ? prev_utc_ : *utc;
  have_prev_ = true;
  prev_local_ = *local;
  prev_utc_ = *utc;
  if (already) {
    ++summary_.rows_already;
    if (summary_.lines == resume_.after_line) {
      summary_.consumed_lines = summary_.lines;
      summary_.consumed_line_hash = Fnv1a64(line);
      quiet_ = false;
      if (summary_.consumed_line_hash != resume_.line_hash)
        Issue(Severity::kWarning, "file-changed",
              "this line differs from what an earlier ingest read here; rows up to it were not read again");
    }
    return Status::Ok();
  }
  RETURN_IF_ERROR(sink_->AddRow(start, *utc, values_));
  ++summary_.rows;
  if (!summary_.first_end) summary_.first_end = *utc;
  summary_.last_end = *utc;
  summary_.consumed_lines = summary_.lines;
  // Only the last stored line's hash is kept, so hashing every row (a serial byte loop over the
  // whole file) is deferred: SettleLineHash hashes the latest one before its text goes away.
  unhashed_line_ = line;
  line_hash_pending_ = true;
  return Status::Ok();
}

}  // namespace vrecon::perfmon
