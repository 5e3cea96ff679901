#include "adapters/etw/wpa_precise.h"

#include <algorithm>
#include <cstring>

#include "src/core/text_util.h"

namespace vrecon::etw {
namespace {

// Each field's column, in the order of the reader's Field enum.
constexpr wpa::ColumnSpec kFieldInfo[] = {
    {"newprocess", "New Process", wpa::Unit::kNone},
    {"newthreadid", "New Thread Id", wpa::Unit::kNone},
    {"cpu", "Cpu", wpa::Unit::kNone},
    {"switchintime", "Switch-In Time", wpa::Unit::kSeconds},
    {"nextswitchouttime", "Next Switch-Out Time", wpa::Unit::kSeconds},
    {"cpuusage", "CPU Usage", wpa::Unit::kMillis},
    {"ready", "Ready", wpa::Unit::kMicros},
    {"readytime", "Ready Time", wpa::Unit::kSeconds},
    {"count", "Count", wpa::Unit::kNone},
};

int64_t FloorDiv(int64_t a, int64_t b) { return (a >= 0 ? a : a - (b - 1)) / b; }

}  // namespace

WpaPreciseReader::WpaPreciseReader(ReaderOptions options, SampleSink* sink)
    : LineReader(std::move(options), sink, "a WPA CSV export") {
  summary_.format = "wpa-precise-csv";
  // Every line counts: the same export again is the same file; another export of the same trace
  // (another range, other columns) is another.
  summary_.fingerprint = Fnv1a64("wpa-precise-csv");
  column_.fill(-1);
}

void WpaPreciseReader::Issue(int64_t line, Severity severity, const char* code, std::string message) {
  if (quiet_) return;  // an earlier ingest of this very file recorded it
  if (!CountIssue(code)) return;
  ImportIssue issue{options_.file, line, severity, code, std::move(message)};
  if (lookup_done_) {
    sink_->AddIssue(std::move(issue));
  } else {
    held_.push_back(std::move(issue));  // at most IssueCounter::kDetailCap per code
  }
}

Status WpaPreciseReader::OnLine(std::string_view line) {
  ++summary_.lines;
  summary_.fingerprint = wpa::HashLine(line, summary_.fingerprint);
  const std::string_view t = Trim(line);
  if (t.empty()) return Status::Ok();
  last_line_.assign(t);
  if (!header_done_) return OnHeader(t);
  OnRow(t);
  return Status::Ok();
}

Status WpaPreciseReader::OnHeader(std::string_view line) {
  header_done_ = true;
  const std::string where = options_.file + ":" + std::to_string(summary_.lines);
  if (!cells_.Split(line, 4096)) return Status::ParseError(where + ": the header has a quote that is not closed");
  // A column named twice (WPA writes one per aggregation of a field) is read from its first.
  for (size_t i = 0; i < cells_.size(); ++i) {
    const wpa::HeaderCell h = wpa::ParseHeaderCell(cells_[i]);
    for (size_t f = 0; f < kFields; ++f) {
      if (column_[f] >= 0 || h.key != kFieldInfo[f].key) continue;
      column_[f] = static_cast<int>(i);
      unit_[f] = h.unit == wpa::Unit::kNone ? kFieldInfo[f].unit : h.unit;
    }
  }
  const std::string columns = "; the columns are \"" + std::string(line.substr(0, 300)) + "\"";
  for (Field f : {kProcess, kThread, kCpu, kIn}) {
    if (column_[f] < 0)
      return Status::ParseError(where + ": the header has no \"" + kFieldInfo[f].name +
                                "\" column, which vrecon needs" + columns);
  }
  if (column_[kEnd] < 0 && column_[kDuration] < 0)
    return Status::ParseError(where +
                              ": the header has neither \"Next Switch-Out Time\" nor \"CPU Usage\", one of "
                              "which vrecon needs to know where each run ends" +
                              columns);
  needed_cells_ = static_cast<size_t>(*std::max_element(column_.begin(), column_.end())) + 1;
  if (options_.default_machine.empty())
    return Status::InvalidArgument(options_.file +
                                   ": a WPA CSV export does not name its computer: give it with --machine NAME");
  if (!options_.trace_start)
    return Status::InvalidArgument(options_.file +
                                   ": a WPA CSV export counts its times from the trace's start and does not say when "
                                   "that was: give it with --trace-start, e.g. 2026-11-02T10:00:00+01:00");
  return Status::Ok();
}

bool WpaPreciseReader::Micros(Field f, std::string_view cell, int64_t* us) {
  wpa::Decimal d;
  if (!wpa::ParseDecimal(cell, &d)) {
    const bool ready = f == kReady || f == kReadyTime;
    Issue(summary_.lines, Severity::kWarning, "bad-number",
          std::string("the ") + kFieldInfo[f].name + " cell \"" + std::string(cell.substr(0, 40)) +
              "\" is not a number as WPA writes it (1,234.5)" +
              (ready ? "; the run is kept without its queue time" : "; the row is skipped"));
    return false;
  }
  *us = wpa::ToMicros(d, unit_[f]);
  return true;
}

int64_t WpaPreciseReader::ReadyOf(std::string_view ready, std::string_view ready_time, int64_t in_us) {
  int64_t us = 0;
  if (column_[kReady] >= 0) {
    if (wpa::NoValue(ready) || !Micros(kReady, ready, &us)) return -1;
  } else if (column_[kReadyTime] >= 0) {
    int64_t at = 0;
    if (wpa::NoValue(ready_time) || !Micros(kReadyTime, ready_time, &at)) return -1;
    us = in_us - at;
  } else {
    return -1;
  }
  if (us < 0 || us > in_us) {
    Issue(summary_.lines, Severity::kWarning, "bad-ready",
          "a queue time of " + std::to_string(us) + " us before the switch-in at " + std::to_string(in_us) +
              " us starts before the trace or after the switch-in; the run is kept without it");
    return -1;
  }
  return us;
}

void WpaPreciseReader::OnRow(std::string_view line) {
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
  auto cell = [this](Field f) { return column_[f] < 0 ? std::string_view() : cells_[static_cast<size_t>(column_[f])]; };
  if ((column_[kCount] >= 0 && Trim(cell(kCount)) != "1") || wpa::NoValue(cell(kIn))) {
    Issue(n, Severity::kWarning, "aggregated-row",
          "a row that sums several context switches (Count \"" + std::string(cell(kCount).substr(0, 20)) +
              "\", Switch-In Time \"" + std::string(cell(kIn).substr(0, 20)) +
              "\"): export the table with every row expanded; skipped");
    return;
  }
  Run r;
  int64_t cpu = 0;
  if (!wpa::WholeNumber(cell(kCpu), PreciseRuns::kMaxCpu, &cpu)) {
    Issue(n, Severity::kWarning, "bad-number",
          "the Cpu cell \"" + std::string(cell(kCpu).substr(0, 20)) + "\" is not a CPU number (0-4095); skipped");
    return;
  }
  if (!Micros(kIn, cell(kIn), &r.in_us)) return;
  if (column_[kEnd] >= 0) {
    if (wpa::NoValue(cell(kEnd))) {
      Issue(n, Severity::kWarning, "bad-row", "the run has no Next Switch-Out Time; skipped");
      return;
    }
    if (!Micros(kEnd, cell(kEnd), &r.out_us)) return;
  } else {
    int64_t duration = 0;
    if (!Micros(kDuration, cell(kDuration), &duration)) return;
    r.out_us = r.in_us + duration;
  }
  if (r.in_us > kLongestTraceUs || r.out_us > kLongestTraceUs) {
    Issue(n, Severity::kWarning, "bad-time", "a run more than 6 hours after the trace's start; not believed, skipped");
    return;
  }
  if (r.out_us < r.in_us) {
    Issue(n, Severity::kWarning, "bad-run",
          "the run switches out at " + std::to_string(r.out_us) + " us, before it switches in at " +
              std::to_string(r.in_us) + " us; skipped");
    return;
  }
  r.ready_us = ReadyOf(cell(kReady), cell(kReadyTime), r.in_us);
  r.cpu = static_cast<uint32_t>(cpu);
  r.line = static_cast<uint32_t>(std::min<int64_t>(n, UINT32_MAX));
  int64_t tid = 0;
  r.proc = runs_.Process(cell(kProcess));
  if (r.proc == PreciseRuns::kUnreadable || !wpa::WholeNumber(cell(kThread), UINT32_MAX - 2, &tid)) {
    r.proc = PreciseRuns::kUnreadable;
    Issue(n, Severity::kWarning, "bad-process",
          "New Process \"" + std::string(cell(kProcess).substr(0, 60)) + "\" or New Thread Id \"" +
              std::string(cell(kThread).substr(0, 20)) +
              "\" cannot be read (name (pid), and a number): the run's time is unknown on its CPU");
  }
  r.tid = static_cast<uint32_t>(tid);
  runs_.Add(r);
}

Status WpaPreciseReader::Replay() {
  const TimeNs start = *options_.trace_start;
  Issue(
      0, Severity::kInfo, "trace-start",
      "times count from --trace-start " + FormatIso(start, true) + " (a WPA export does not carry the trace's start)");
  writer_ = std::make_unique<EventSeriesWriter>(options_.default_machine, start, sink_, &summary_);
  writer_->set_quiet(quiet_);
  writer_->set_deferred(false, false);  // the table holds no DPC or interrupt time
  const CpuAccounting::Options grid = AbsoluteGrid(start);
  accounting_ = std::make_unique<CpuAccounting>(
      grid,
      [this](const Bucket& b) {
        if (sink_status_.ok()) sink_status_ = writer_->AddBucket(b);
      },
      [this](const QueueWindow& w) { writer_->AddWindow(w); },
      [this](int cpu, int64_t t_us, uint32_t expected, uint32_t found) {
        if (runs_.ending_unreadable()) return;  // made on purpose: that run's time is unknown
        Issue(0, Severity::kWarning, "switch-sequence-broken",
              "CPU " + std::to_string(cpu) + " at " + std::to_string(t_us) + " us switched out thread " +
                  std::to_string(found) + " while running thread " + std::to_string(expected));
      });
  // The first bucket starts at the whole second (of absolute time) that holds the first run, or
  // at the trace's start: every CPU seen in it is idle from there to its first run, as the dumper
  // reader takes a CPU from the trace's first event.
  const int64_t k = FloorDiv(runs_.first_us() - grid.phase_us, grid.bucket_us);
  accounting_->Begin(std::max<int64_t>(0, grid.phase_us + k * grid.bucket_us));
  runs_.Replay(accounting_.get(), [this](int64_t line, const char* code, std::string message) {
    const bool info = std::strcmp(code, "pid-reused") == 0;
    Issue(line, info ? Severity::kInfo : Severity::kWarning, code, std::move(message));
  });
  RETURN_IF_ERROR(sink_status_);
  return writer_->Finish();
}

Status WpaPreciseReader::EndLines() {
  if (summary_.lines == 0) return Status::ParseError(options_.file + " is empty");
  if (!header_done_) return Status::ParseError(options_.file + " has no header line");
  if (runs_.empty())
    return Status::ParseError(options_.file + ": no row could be read (" + std::to_string(summary_.lines) +
                              " lines); a CPU Usage (Precise) export has one row per context switch");
  // The fingerprint covers every line, so the lookup comes now: an earlier ingest of this very
  // file stored everything (one transaction), and nothing is stored or reported again.
  if (options_.resume_lookup) resume_ = options_.resume_lookup(summary_.fingerprint);
  quiet_ = resume_.after_line > 0 && resume_.after_line >= summary_.lines;
  lookup_done_ = true;
  if (quiet_) ClearIssues();
  for (ImportIssue& i : held_)
    if (!quiet_) sink_->AddIssue(std::move(i));
  held_.clear();
  RETURN_IF_ERROR(Replay());
  issues_.ReportCapped(options_.file, sink_);
  summary_.consumed_lines = summary_.lines;
  summary_.consumed_line_hash = Fnv1a64(last_line_);
  return Status::Ok();
}

}  // namespace vrecon::etw
