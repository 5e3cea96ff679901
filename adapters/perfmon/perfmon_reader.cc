#include "adapters/perfmon/perfmon_reader.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "adapters/perfmon/perfmon_columns.h"
#include "src/core/text_util.h"

namespace vrecon::perfmon {
namespace {

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

PerfmonReader::PerfmonReader(ReaderOptions options, SampleSink* sink)
    : Reader(std::move(options), sink), shares_(std::make_unique<CycleShares>(sink, options_.file)) {
  sink_ = shares_.get();
  summary_.format = "perfmon-csv";
}

void PerfmonReader::ClockEvent(const char* kind, TimeNs before, TimeNs after) {
  if (quiet_) return;
  sink_->AddClockEvent(ClockRecord{kind, before, after, options_.file, summary_.lines});
}

void PerfmonReader::Issue(Severity severity, const char* code, std::string message, int64_t line) {
  if (quiet_) return;
  if (line < 0) line = summary_.lines;
  if (!CountIssue(code)) return;
  if (first_row_problem_.empty() && data_begun_) first_row_problem_ = "line " + std::to_string(line) + ": " + message;
  ImportIssue issue{options_.file, line, severity, code, std::move(message)};
  if (!data_begun_) {
    header_issues_.push_back(std::move(issue));  // held until we know whether this is a resume
  } else {
    sink_->AddIssue(std::move(issue));
  }
}

std::string PerfmonReader::Printable(std::string_view raw) const {
  std::string s(raw.substr(0, 40));
  if (eight_bit_ || !IsValidUtf8(s)) s = SingleByteToUtf8(s, Encoding::kCp1252);
  return s;
}

Status PerfmonReader::Start(std::string_view head) {
  ASSIGN_OR_RETURN(std::string_view text,
                   StartText(head,
                             "a Perfmon CSV/TSV log; if it is a .blg, convert it with `relog <file>.blg -f csv -o "
                             "<file>.csv` and ingest the CSV"));
  return Feed(text);
}

Status PerfmonReader::Feed(std::string_view chunk) {
  Status s = FeedText(Decode(chunk));
  SettleLineHash();
  return s;
}

void PerfmonReader::SettleLineHash() {
  if (!line_hash_pending_) return;
  summary_.consumed_line_hash = Fnv1a64(unhashed_line_);
  line_hash_pending_ = false;
}

Status PerfmonReader::FeedText(std::string_view text) {
  Status s = lines_.Feed(text, [this](std::string_view line, bool transient) {
    Status s = OnLine(line);
    if (transient) SettleLineHash();  // the line's text goes away after this call
    return s;
  });
  return NameLongLine(std::move(s), lines_.too_long(), options_.file, summary_.lines + 1);
}

Status PerfmonReader::End() {
  Status last = lines_.Finish([this](std::string_view line, bool) {
    Status s = OnLine(line);
    SettleLineHash();
    return s;
  });
  RETURN_IF_ERROR(NameLongLine(std::move(last), lines_.too_long(), options_.file, summary_.lines + 1));
  RETURN_IF_ERROR(FinishHeld());
  RETURN_IF_ERROR(CheckTableShape(header_done_, data_begun_));
  RETURN_IF_ERROR(CheckRowsRead(first_row_problem_));
  issues_.ReportCapped(options_.file, sink_);
  summary_.bias_minutes = bias_;
  return Status::Ok();
}

Status PerfmonReader::OnLine(std::string_view line) {
  ++summary_.lines;
  if (IsBlank(line)) return Status::Ok();
  if (!header_done_) return OnHeader(line);
  if (!data_begun_) RETURN_IF_ERROR(BeginData(line));
  return OnDataRow(line);
}

Status PerfmonReader::OnHeader(std::string_view raw) {
  header_raw_ = std::string(raw);
  std::string text(raw);
  if (!IsUtf16(summary_.encoding) && !options_.encoding && !IsValidUtf8(raw)) {
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
                              "\"(PDH-TSV 4.0)\", found \"" +
                              first.substr(0, 60) + "\"");
  }
  format_ = *fmt;
  summary_.format = fmt->tsv ? "perfmon-tsv" : "perfmon-csv";
  summary_.time_zone = fmt->time_zone;
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
    const std::string why =
        fmt->cut_off ? "the header's time-zone cell is cut off" : "the header carries no time-zone bias";
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

Status PerfmonReader::BeginData(std::string_view first_data_line) {
  data_begun_ = true;
  summary_.fingerprint = Fnv1a64(first_data_line, Fnv1a64(header_raw_));
  if (options_.resume_lookup) resume_ = options_.resume_lookup(summary_.fingerprint);
  if (resume_.after_line == 0) {
    for (ImportIssue& i : header_issues_) sink_->AddIssue(std::move(i));
  } else {
    ClearIssues();  // the earlier ingest recorded the header's issues
  }
  header_issues_.clear();
  return sink_->DeclareColumns(pending_columns_);
}

}  // namespace vrecon::perfmon
