#include "adapters/etw/wpa_table.h"

#include <algorithm>

#include "src/core/text_util.h"

namespace vrecon::etw::wpa {

TableReader::TableReader(ReaderOptions options, SampleSink* sink, const TableSpec& spec)
    : LineReader(std::move(options), sink, "a WPA CSV export"),
      spec_(spec),
      column_(spec.columns.size(), -1),
      unit_(spec.columns.size(), Unit::kNone) {
  summary_.format = spec.format;
  // Every line counts: the same export again is the same file; another export of the same trace
  // (another range, other columns) is another.
  summary_.fingerprint = Fnv1a64(spec.format);
}

std::string_view TableReader::Cell(int field) const {
  const int c = column_[static_cast<size_t>(field)];
  return c < 0 ? std::string_view() : cells_[static_cast<size_t>(c)];
}

void TableReader::ReadFrom(int field, int alt) {
  const auto f = static_cast<size_t>(field);
  if (column_[f] >= 0) return;
  column_[f] = column_[static_cast<size_t>(alt)];
  unit_[f] = unit_[static_cast<size_t>(alt)];
}

Status TableReader::MissingColumn(std::string_view what) const {
  return Status::ParseError(options_.file + ":" + std::to_string(header_line_) + ": the header has " +
                            std::string(what) + ", which vrecon needs to read a " + spec_.table +
                            " export; the columns are \"" + header_ + "\"");
}

void TableReader::Issue(int64_t line, Severity severity, const char* code, std::string message) {
  if (quiet_) return;  // an earlier ingest of this very file recorded it
  if (!CountIssue(code)) return;
  ImportIssue issue{options_.file, line, severity, code, std::move(message)};
  if (lookup_done_) {
    sink_->AddIssue(std::move(issue));
  } else {
    held_.push_back(std::move(issue));  // at most IssueCounter::kDetailCap per code
  }
}

void TableReader::BadNumber(int field, std::string_view cell, const char* then) {
  Issue(line(), Severity::kWarning, "bad-number",
        std::string("the ") + spec_.columns[static_cast<size_t>(field)].name + " cell \"" +
            std::string(cell.substr(0, 40)) + "\" is not a number as WPA writes it (1,234.5); " + then);
}

Status TableReader::OnLine(std::string_view line) {
  ++summary_.lines;
  summary_.fingerprint = HashLine(line, summary_.fingerprint);
  const std::string_view t = Trim(line);
  if (t.empty()) return Status::Ok();
  last_line_.assign(t);
  if (!header_done_) return OnHeader(t);
  Row(t);
  return Status::Ok();
}

Status TableReader::OnHeader(std::string_view line) {
  header_done_ = true;
  header_line_ = summary_.lines;
  header_.assign(line.substr(0, 300));
  const std::string where = options_.file + ":" + std::to_string(header_line_);
  if (!cells_.Split(line, 4096)) return Status::ParseError(where + ": the header has a quote that is not closed");
  // A column named twice (WPA writes one per aggregation of a field) is read from its first.
  for (size_t i = 0; i < cells_.size(); ++i) {
    const HeaderCell h = ParseHeaderCell(cells_[i]);
    for (size_t f = 0; f < spec_.columns.size(); ++f) {
      if (column_[f] >= 0 || h.key != spec_.columns[f].key) continue;
      column_[f] = static_cast<int>(i);
      unit_[f] = h.unit == Unit::kNone ? spec_.columns[f].unit : h.unit;
    }
  }
  RETURN_IF_ERROR(CheckColumns());
  needed_cells_ = static_cast<size_t>(*std::max_element(column_.begin(), column_.end())) + 1;
  if (options_.default_machine.empty())
    return Status::InvalidArgument(options_.file +
                                   ": a WPA CSV export does not name its computer: give it with --machine NAME");
  if (!options_.trace_start)
    return Status::InvalidArgument(options_.file + ": a WPA " + spec_.table +
                                   " export counts its times from the trace's start and does not say when that "
                                   "was: give it with --trace-start, e.g. 2026-11-02T10:00:00+01:00");
  return Status::Ok();
}

void TableReader::Row(std::string_view line) {
  const int64_t n = summary_.lines;
  if (!cells_.Split(line, needed_cells_)) {
    Issue(n, Severity::kWarning, "bad-row", "a quote is not closed; the row is skipped");
    return;
  }
  if (cells_.size() < needed_cells_) {
    Issue(n, Severity::kWarning, "ragged-row",
          "the row has " + std::to_string(cells_.size()) + " cells, fewer than the " + std::to_string(needed_cells_) +
              " that hold the columns read; skipped");
    return;
  }
  const std::string_view count = Cell(spec_.count_field);
  const std::string_view time = Cell(spec_.time_field);
  if ((Has(spec_.count_field) && Trim(count) != "1") || NoValue(time)) {
    Issue(n, Severity::kWarning, "aggregated-row",
          std::string("a row that sums several ") + spec_.events + " (Count \"" + std::string(count.substr(0, 20)) +
              "\", " + spec_.columns[static_cast<size_t>(spec_.time_field)].name + " \"" +
              std::string(time.substr(0, 20)) + "\"): export the table with every row expanded; skipped");
    return;
  }
  OnRow();
}

Status TableReader::EndLines() {
  if (summary_.lines == 0) return Status::ParseError(options_.file + " is empty");
  if (!header_done_) return Status::ParseError(options_.file + " has no header line");
  if (NothingRead())
    return Status::ParseError(options_.file + ": no row could be read (" + std::to_string(summary_.lines) +
                              " lines); a " + spec_.table + " export has one row per " + spec_.event);
  // The fingerprint covers every line, so the lookup comes now: an earlier ingest of this very
  // file stored everything (one transaction), and nothing is stored or reported again.
  if (options_.resume_lookup) resume_ = options_.resume_lookup(summary_.fingerprint);
  quiet_ = resume_.after_line > 0 && resume_.after_line >= summary_.lines;
  lookup_done_ = true;
  if (quiet_) ClearIssues();
  for (ImportIssue& i : held_)
    if (!quiet_) sink_->AddIssue(std::move(i));
  held_.clear();
  Issue(0, Severity::kInfo, "trace-start",
        "times count from --trace-start " + FormatIso(*options_.trace_start, true) +
            " (a WPA export does not carry the trace's start)");
  RETURN_IF_ERROR(Write());
  issues_.ReportCapped(options_.file, sink_);
  summary_.consumed_lines = summary_.lines;
  summary_.consumed_line_hash = Fnv1a64(last_line_);
  return Status::Ok();
}

}  // namespace vrecon::etw::wpa
