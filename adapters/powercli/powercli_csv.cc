#include "adapters/powercli/powercli_csv.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "adapters/vsphere/vsphere_units.h"
#include "src/core/text_util.h"

namespace vrecon::powercli {
namespace {

// Instances in a stable, readable order: the aggregate "" first, then vCPU numbers numerically.
bool InstanceLess(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a.empty() && !b.empty();
  const bool na = std::all_of(a.begin(), a.end(), [](char c) { return c >= '0' && c <= '9'; });
  const bool nb = std::all_of(b.begin(), b.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (na && nb && a.size() != b.size()) return a.size() < b.size();
  if (na != nb) return na;
  return a < b;
}

std::string Shown(std::string_view s) {
  std::string out(s.substr(0, 40));
  if (s.size() > 40) out += "...";
  return out;
}

}  // namespace

PowerCliReader::PowerCliReader(ReaderOptions options, SampleSink* sink) : Reader(std::move(options), sink) {
  summary_.format = "powercli-csv";
}

void PowerCliReader::Issue(int64_t line, Severity severity, const char* code, std::string message) {
  if (quiet_) return;
  if (!CountIssue(code)) return;
  if (first_row_problem_.empty()) first_row_problem_ = "line " + std::to_string(line) + ": " + message;
  sink_->AddIssue(ImportIssue{options_.file, line, severity, code, std::move(message)});
}

Status PowerCliReader::Start(std::string_view head) {
  ASSIGN_OR_RETURN(std::string_view text, StartText(head, "a PowerCLI Get-Stat CSV export"));
  return Feed(text);
}

Status PowerCliReader::Feed(std::string_view chunk) { return FeedText(Decode(chunk)); }

Status PowerCliReader::FeedText(std::string_view text) {
  Status s = lines_.Feed(text, [this](std::string_view line, bool) { return OnLine(line, true); });
  return NameLongLine(std::move(s), lines_.too_long(), options_.file, summary_.lines + 1);
}

Status PowerCliReader::OnLine(std::string_view raw, bool terminated) {
  ++summary_.lines;
  if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  // Windows PowerShell's "ASCII"/"Default" encodings write VM names in the ANSI code page.
  std::string converted;
  if (!IsValidUtf8(raw)) {
    const std::optional<Encoding> f = options_.encoding;
    const Encoding cp = f == Encoding::kCp1251 || f == Encoding::kCp1252 ? *f : GuessCodePage(raw);
    converted = SingleByteToUtf8(raw, cp);
    if (summary_.encoding == Encoding::kUtf8) summary_.encoding = cp;
  }
  const std::string_view line = converted.empty() ? raw : std::string_view(converted);
  if (IsBlank(line)) return Status::Ok();
  if (!header_done_) {
    if (line.starts_with("#TYPE")) {
      if (!type_line_.empty() || !header_raw_.empty())
        return Status::ParseError(options_.file + ":" + std::to_string(summary_.lines) + ": a second #TYPE line");
      type_line_ = std::string(raw);
      type_name_ = std::string(Trim(line.substr(5)));
      return Status::Ok();
    }
    header_raw_ = std::string(raw);
    return OnHeader(line);
  }
  return OnDataLine(line, terminated);
}

Status PowerCliReader::OnHeader(std::string_view line) {
  delimiter_ = DetectDelimiter(line);
  std::vector<std::string> cells;
  const std::string where = options_.file + ":" + std::to_string(summary_.lines);
  if (!SplitCsvLine(line, delimiter_, &cells)) return Status::ParseError(where + ": the header has an unclosed quote");
  ncells_ = cells.size();
  col_value_ = FindColumn(cells, "Value");
  col_time_ = FindColumn(cells, "Timestamp");
  col_metric_ = FindColumn(cells, "MetricId");
  col_unit_ = FindColumn(cells, "Unit");
  col_entity_ = FindColumn(cells, "Entity");
  col_entity_id_ = FindColumn(cells, "EntityId");
  col_interval_ = FindColumn(cells, "IntervalSecs");
  col_instance_ = FindColumn(cells, "Instance");
  if (col_value_ < 0 || col_time_ < 0 || col_metric_ < 0)
    return Status::ParseError(where +
                              ": not a PowerCLI Get-Stat export: the header should name the columns Value, "
                              "Timestamp and MetricId, found \"" +
                              Shown(line) + "\"");
  std::string missing;
  if (col_entity_ < 0 && col_entity_id_ < 0) missing += " Entity";
  if (col_interval_ < 0) missing += " IntervalSecs";
  if (col_unit_ < 0) missing += " Unit";
  if (!missing.empty())
    return Status::ParseError(where + ": the Get-Stat export lacks the column(s)" + missing +
                              " that vrecon needs to place and convert samples (export the whole Get-Stat object)");
  header_done_ = true;
  return Status::Ok();
}

Status PowerCliReader::OnDataLine(std::string_view line, bool terminated) {
  if (!data_begun_) {
    data_begun_ = true;
    summary_.fingerprint = Fnv1a64(line, Fnv1a64(header_raw_, Fnv1a64(type_line_)));
    if (options_.resume_lookup) resume_ = options_.resume_lookup(summary_.fingerprint);
    summary_.bias_minutes = options_.tz_bias_minutes.value_or(0);
  }
  const int64_t n = summary_.lines;
  const bool already = n <= resume_.after_line;
  quiet_ = already;
  bool good = false;
  Status s = ReadRow(line, already, &good);
  quiet_ = false;
  RETURN_IF_ERROR(s);
  if (already) {
    if (good) ++summary_.rows_already;
    if (n == resume_.after_line) {
      summary_.consumed_lines = n;
      summary_.consumed_line_hash = Fnv1a64(line);
      if (summary_.consumed_line_hash != resume_.line_hash)
        Issue(n, Severity::kWarning, "file-changed",
              "this line differs from what an earlier ingest read here; rows up to it were not read again");
    }
    return Status::Ok();
  }
  // A rejected last line without a terminator may be a line still being written: it is read
  // again by the next ingest.
  if (good || terminated) {
    summary_.consumed_lines = n;
    summary_.consumed_line_hash = Fnv1a64(line);
  }
  return Status::Ok();
}

Status PowerCliReader::ReadRow(std::string_view line, bool quiet, bool* good) {
  const int64_t n = summary_.lines;
  const std::optional<Row> row = CheckRow(line, n);
  *good = row.has_value();
  if (!row) return Status::Ok();
  DeclareSeries(*row);
  if (quiet) return Status::Ok();
  return AddSample(*row, n);
}

std::optional<PowerCliReader::Row> PowerCliReader::CheckRow(std::string_view line, int64_t n) {
  const bool closed = SplitCsvLine(line, delimiter_, &cells_);
  if (!closed || cells_.size() != ncells_) {
    Issue(n, Severity::kWarning, "ragged-row",
          closed ? "the row has " + std::to_string(cells_.size()) + " cells but the header has " +
                       std::to_string(ncells_) + "; the row is skipped"
                 : std::string("the row has a quote that is not closed; the row is skipped"));
    return std::nullopt;
  }
  auto cell = [&](int i) { return i < 0 ? std::string_view() : Trim(cells_[i]); };
  Row row;
  row.metric = cell(col_metric_);
  row.entity = cell(col_entity_);
  if (row.entity.empty()) row.entity = cell(col_entity_id_);
  // Get-Stat of a host (Get-VMHost) writes EntityId "HostSystem-host-12": the host's own
  // counters, never a VM's.
  row.source = cell(col_entity_id_).starts_with("HostSystem-") ? SourceKind::kVsphereHost : SourceKind::kVsphere;
  if (row.metric.empty() || row.entity.empty()) {
    Issue(n, Severity::kWarning, "missing-field",
          std::string("the row names no ") + (row.metric.empty() ? "MetricId" : "Entity") + "; the row is skipped");
    return std::nullopt;
  }
  const std::string_view interval_text = cell(col_interval_);
  const std::optional<double> interval = ParseValue(interval_text);
  if (!interval || *interval < 1 || *interval != std::floor(*interval) || *interval > 86400 * 366) {
    Issue(n, Severity::kWarning, "bad-interval",
          "IntervalSecs \"" + Shown(interval_text) + "\" is not a sample interval in seconds; the row is skipped");
    return std::nullopt;
  }
  const std::string_view time_text = cell(col_time_);
  const std::optional<ParsedTime> when = ParseTimestamp(time_text);
  if (!when) {
    Issue(n, Severity::kWarning, "bad-timestamp",
          "Timestamp \"" + Shown(time_text) + "\" is not a date and time vrecon reads; the row is skipped");
    return std::nullopt;
  }
  const std::string_view value_text = cell(col_value_);
  if (!value_text.empty()) {
    row.raw = ParseValue(value_text);
    if (!row.raw) {
      Issue(n, Severity::kWarning, "non-numeric",
            "Value \"" + Shown(value_text) + "\" is not a number; the row is skipped");
      return std::nullopt;
    }
  }
  row.end = when->has_offset ? when->t : FromLocalTime(when->t, n);
  row.secs = static_cast<int>(*interval);
  row.unit = vsphere::PowerCliUnit(cell(col_unit_));
  row.instance = cell(col_instance_);
  return row;
}

TimeNs PowerCliReader::FromLocalTime(TimeNs local, int64_t n) {
  zone_less_times_ = true;
  if (!bias_checked_) {
    bias_checked_ = true;  // an earlier ingest of the file reported it when this row is not new
    Issue(n, Severity::kWarning, "no-bias",
          "Timestamp carries no time zone (Export-Csv writes the local time of the machine that ran PowerCLI); "
          "local times were read as UTC" +
              (options_.tz_bias_minutes
                   ? std::string(" shifted by --tz-bias ") + std::to_string(summary_.bias_minutes) + " min"
                   : std::string(" (pass --tz-bias MINUTES to say otherwise)")));
  }
  return local + static_cast<TimeNs>(summary_.bias_minutes) * 60 * kNsPerSec;
}

// Every series the file holds is listed, also when an earlier ingest stored its samples.
void PowerCliReader::DeclareSeries(const Row& row) {
  if (row.entity == last_entity_ && row.metric == last_metric_ && row.instance == last_instance_ &&
      row.source == last_source_)
    return;
  last_source_ = row.source;
  last_entity_ = std::string(row.entity);
  last_metric_ = std::string(row.metric);
  last_instance_ = std::string(row.instance);
  if (declared_
          .insert(std::string(SourceKindName(row.source)) + '\x1f' + last_entity_ + '\x1f' + last_metric_ + '\x1f' +
                  last_instance_)
          .second) {
    summary_.columns.push_back(
        SeriesKey{row.source, last_entity_, vsphere::CounterGroup(row.metric), last_instance_, last_metric_,
                  vsphere::Convert(row.metric, 0, row.unit, row.secs).value_or(vsphere::StoredValue{}).unit,
                  "powercli:" + last_metric_, ""});
  }
}

// The row's sample into the buffered group, which is handed on first when the row starts
// another (or the group is full).
Status PowerCliReader::AddSample(const Row& row, int64_t n) {
  double value = kMissing;
  if (row.raw) {
    if (auto v = vsphere::Convert(row.metric, *row.raw, row.unit, row.secs)) value = v->value;
  }
  if (row.metric != group_metric_ || row.entity != group_entity_ || row.source != group_source_ ||
      group_.size() >= kMaxGroupSamples) {
    RETURN_IF_ERROR(EmitGroup());
    group_metric_ = std::string(row.metric);
    group_entity_ = std::string(row.entity);
    group_source_ = row.source;
  }
  int idx = -1;
  for (size_t i = 0; i < group_instances_.size(); ++i)
    if (group_instances_[i] == row.instance) idx = static_cast<int>(i);
  if (idx < 0) {
    idx = static_cast<int>(group_instances_.size());
    group_instances_.emplace_back(row.instance);
    group_units_.push_back(vsphere::Convert(row.metric, 0, row.unit, row.secs).value_or(vsphere::StoredValue{}).unit);
  }
  const TimeNs end = row.end;
  group_.push_back(Sample{end - static_cast<TimeNs>(row.secs) * kNsPerSec, end, value, n, idx});
  ++summary_.rows;
  if (!summary_.first_end || end < *summary_.first_end) summary_.first_end = end;
  if (!summary_.last_end || end > *summary_.last_end) summary_.last_end = end;
  return Status::Ok();
}

Status PowerCliReader::EmitGroup() {
  if (group_.empty()) {
    group_instances_.clear();
    group_units_.clear();
    return Status::Ok();
  }
  // Each instance is its own column set: instances of one metric need not share timestamps,
  // and a shared row would store a made-up missing sample wherever one instance lacks one.
  std::vector<int> order(group_instances_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return InstanceLess(group_instances_[a], group_instances_[b]); });
  std::stable_sort(group_.begin(), group_.end(), [&](const Sample& a, const Sample& b) {
    if (a.instance != b.instance) return a.instance < b.instance;
    return a.end != b.end ? a.end < b.end : a.start < b.start;
  });
  std::vector<size_t> first(group_instances_.size(), 0);  // every instance has a sample
  for (size_t j = group_.size(); j-- > 0;) first[group_[j].instance] = j;
  for (const int inst : order) {
    const std::vector<SeriesKey> columns{SeriesKey{group_source_, group_entity_, vsphere::CounterGroup(group_metric_),
                                                   group_instances_[inst], group_metric_, group_units_[inst],
                                                   "powercli:" + group_metric_, ""}};
    RETURN_IF_ERROR(sink_->DeclareColumns(columns));
    const Sample* prev = nullptr;
    for (size_t j = first[inst]; j < group_.size() && group_[j].instance == inst; ++j) {
      const Sample& s = group_[j];
      if (prev != nullptr && prev->end == s.end && prev->start == s.start) {
        Issue(s.line, Severity::kWarning, "duplicate-sample",
              "a second sample of " + group_entity_ + " " + group_metric_ + " instance \"" + group_instances_[inst] +
                  "\" for " + FormatIso(s.end, false) + " (the first is on line " + std::to_string(prev->line) +
                  "); this one is skipped");
        --summary_.rows;
        continue;
      }
      RETURN_IF_ERROR(sink_->AddRow(s.start, s.end, std::span<const double>(&s.value, 1)));
      prev = &s;
    }
  }
  group_.clear();
  group_instances_.clear();
  group_units_.clear();
  return Status::Ok();
}

Status PowerCliReader::End() {
  Status last = lines_.Finish([this](std::string_view line, bool) { return OnLine(line, false); });
  RETURN_IF_ERROR(NameLongLine(std::move(last), lines_.too_long(), options_.file, summary_.lines + 1));
  RETURN_IF_ERROR(CheckTableShape(header_done_, data_begun_));
  RETURN_IF_ERROR(EmitGroup());
  RETURN_IF_ERROR(CheckRowsRead(first_row_problem_));
  issues_.ReportCapped(options_.file, sink_);
  return Status::Ok();
}

}  // namespace vrecon::powercli
