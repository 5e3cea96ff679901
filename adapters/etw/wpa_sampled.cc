#include "adapters/etw/wpa_sampled.h"

#include <algorithm>

#include "adapters/etw/cpu_accounting.h"
#include "adapters/etw/xperf_dumper.h"
#include "src/core/text_util.h"

namespace vrecon::etw {
namespace {

// Each field's column, in the order of the reader's Field enum.
constexpr wpa::ColumnSpec kSampledColumns[] = {
    {"process", "Process", wpa::Unit::kNone},        {"cpu", "CPU", wpa::Unit::kNone},
    {"weight", "Weight", wpa::Unit::kMillis},        {"weight(inview)", "Weight (in view)", wpa::Unit::kMillis},
    {"timestamp", "TimeStamp", wpa::Unit::kSeconds}, {"count", "Count", wpa::Unit::kNone},
};

constexpr int64_t kMaxSampleCpu = 4095;
// One sample stands for one profile interval: WPA's slowest profile rate is about 1 ms x 1000 (a
// second); a heavier row sums several samples.
constexpr double kMaxWeightUs = 1'000'000;

double WeightMicros(const wpa::Decimal& d, wpa::Unit unit) {
  const double v = static_cast<double>(d.whole) + static_cast<double>(d.nanos) / 1e9;
  switch (unit) {
    case wpa::Unit::kSeconds: return v * 1e6;
    case wpa::Unit::kMillis: return v * 1e3;
    case wpa::Unit::kNanos: return v / 1e3;
    case wpa::Unit::kMicros:
    case wpa::Unit::kNone: break;
  }
  return v;
}

}  // namespace

WpaSampledReader::WpaSampledReader(ReaderOptions options, SampleSink* sink)
    : LineReader(std::move(options), sink, "a WPA CSV export") {
  summary_.format = "wpa-sampled-csv";
  // Every line counts, as for the Precise table: the same export again is the same file.
  summary_.fingerprint = Fnv1a64("wpa-sampled-csv");
  column_.fill(-1);
}

void WpaSampledReader::Issue(int64_t line, Severity severity, const char* code, std::string message) {
  if (quiet_) return;  // an earlier ingest of this very file recorded it
  if (!CountIssue(code)) return;
  ImportIssue issue{options_.file, line, severity, code, std::move(message)};
  if (lookup_done_) {
    sink_->AddIssue(std::move(issue));
  } else {
    held_.push_back(std::move(issue));  // at most IssueCounter::kDetailCap per code
  }
}

Status WpaSampledReader::OnLine(std::string_view line) {
  ++summary_.lines;
  summary_.fingerprint = wpa::HashLine(line, summary_.fingerprint);
  const std::string_view t = Trim(line);
  if (t.empty()) return Status::Ok();
  last_line_.assign(t);
  if (!header_done_) return OnHeader(t);
  OnRow(t);
  return Status::Ok();
}

Status WpaSampledReader::OnHeader(std::string_view line) {
  header_done_ = true;
  const std::string where = options_.file + ":" + std::to_string(summary_.lines);
  if (!cells_.Split(line, 4096)) return Status::ParseError(where + ": the header has a quote that is not closed");
  // A column named twice (WPA writes one per aggregation of a field) is read from its first.
  for (size_t i = 0; i < cells_.size(); ++i) {
    const wpa::HeaderCell h = wpa::ParseHeaderCell(cells_[i]);
    for (size_t f = 0; f < kFields; ++f) {
      if (column_[f] >= 0 || h.key != kSampledColumns[f].key) continue;
      column_[f] = static_cast<int>(i);
      unit_[f] = h.unit == wpa::Unit::kNone ? kSampledColumns[f].unit : h.unit;
    }
  }
  if (column_[kWeight] < 0) {
    column_[kWeight] = column_[kWeightInView];
    unit_[kWeight] = unit_[kWeightInView];
  }
  const std::string columns = "; the columns are \"" + std::string(line.substr(0, 300)) + "\"";
  for (Field f : {kProcess, kCpu, kWeight, kTime}) {
    if (column_[f] < 0)
      return Status::ParseError(where + ": the header has no \"" + kSampledColumns[f].name +
                                "\" column, which vrecon needs to read a CPU Usage (Sampled) export" + columns);
  }
  needed_cells_ = static_cast<size_t>(*std::max_element(column_.begin(), column_.end())) + 1;
  if (options_.default_machine.empty())
    return Status::InvalidArgument(options_.file +
                                   ": a WPA CSV export does not name its computer: give it with --machine NAME");
  if (!options_.trace_start)
    return Status::InvalidArgument(options_.file +
                                   ": a WPA CPU Usage (Sampled) export counts its TimeStamps from the trace's start "
                                   "and does not say when that was: give it with --trace-start, e.g. "
                                   "2026-11-02T10:00:00+01:00");
  buckets_.emplace(*options_.trace_start);
  return Status::Ok();
}

std::string_view WpaSampledReader::Cell(Field f) const {
  return column_[f] < 0 ? std::string_view() : cells_[static_cast<size_t>(column_[f])];
}

bool WpaSampledReader::WeightOf(std::string_view cell, double* us) {
  wpa::Decimal d;
  if (!wpa::ParseDecimal(cell, &d)) {
    Issue(summary_.lines, Severity::kWarning, "bad-number",
          "the Weight cell \"" + std::string(cell.substr(0, 40)) +
              "\" is not a number as WPA writes it (1,234.5); the row is skipped");
    return false;
  }
  *us = WeightMicros(d, unit_[kWeight]);
  if (*us > kMaxWeightUs) {
    Issue(summary_.lines, Severity::kWarning, "bad-weight",
          "a Weight of " + FormatFixed(*us / 1000, 3) +
              " ms is more than one profile sample's; export the table with every row expanded; skipped");
    return false;
  }
  return true;
}

void WpaSampledReader::OnRow(std::string_view line) {
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
  if ((column_[kCount] >= 0 && Trim(Cell(kCount)) != "1") || wpa::NoValue(Cell(kTime))) {
    Issue(n, Severity::kWarning, "aggregated-row",
          "a row that sums several samples (Count \"" + std::string(Cell(kCount).substr(0, 20)) + "\", TimeStamp \"" +
              std::string(Cell(kTime).substr(0, 20)) + "\"): export the table with every row expanded; skipped");
    return;
  }
  int64_t cpu = 0;
  if (!wpa::WholeNumber(Cell(kCpu), kMaxSampleCpu, &cpu)) {
    Issue(n, Severity::kWarning, "bad-number",
          "the CPU cell \"" + std::string(Cell(kCpu).substr(0, 20)) + "\" is not a CPU number (0-4095); skipped");
    return;
  }
  wpa::Decimal d;
  if (!wpa::ParseDecimal(Cell(kTime), &d)) {
    Issue(n, Severity::kWarning, "bad-number",
          "the TimeStamp cell \"" + std::string(Cell(kTime).substr(0, 40)) +
              "\" is not a number as WPA writes it (1,234.5); the row is skipped");
    return;
  }
  const int64_t t_us = wpa::ToMicros(d, unit_[kTime]);
  if (t_us > kLongestTraceUs) {
    Issue(n, Severity::kWarning, "bad-time",
          "a sample more than 6 hours after the trace's start; not believed, skipped");
    return;
  }
  double weight_us = 0;
  if (!WeightOf(Cell(kWeight), &weight_us)) return;
  std::string_view image;
  uint32_t pid = 0;
  uint32_t process = ProfileBuckets::kUnknown;
  if (ParseProcessField(Cell(kProcess), &image, &pid)) {
    process = buckets_->Process(image, pid);
  } else {
    Issue(n, Severity::kWarning, "bad-process",
          "Process \"" + std::string(Cell(kProcess).substr(0, 60)) +
              "\" is not \"name (pid)\": the sample's CPU was busy, for no known process");
  }
  buckets_->Add(t_us, weight_us, static_cast<int>(cpu), process);
}

Status WpaSampledReader::EndLines() {
  if (summary_.lines == 0) return Status::ParseError(options_.file + " is empty");
  if (!header_done_) return Status::ParseError(options_.file + " has no header line");
  if (buckets_->empty())
    return Status::ParseError(options_.file + ": no row could be read (" + std::to_string(summary_.lines) +
                              " lines); a CPU Usage (Sampled) export has one row per profile sample");
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
  RETURN_IF_ERROR(buckets_->Write(options_.default_machine, quiet_, sink_, &summary_));
  issues_.ReportCapped(options_.file, sink_);
  summary_.consumed_lines = summary_.lines;
  summary_.consumed_line_hash = Fnv1a64(last_line_);
  return Status::Ok();
}

}  // namespace vrecon::etw
