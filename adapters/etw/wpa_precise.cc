#include "adapters/etw/wpa_precise.h"

#include <algorithm>
#include <cstring>

#include "src/core/text_util.h"

namespace vrecon::etw {
namespace {

// Each field's column, in the order of WpaPreciseReader::Field.
constexpr wpa::ColumnSpec kPreciseColumns[] = {
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

const wpa::TableSpec WpaPreciseReader::kTable = {
    "wpa-precise-csv", "CPU Usage (Precise)", "context switch", "context switches", kPreciseColumns, kCount, kIn};

WpaPreciseReader::WpaPreciseReader(ReaderOptions options, SampleSink* sink)
    : TableReader(std::move(options), sink, kTable) {}

Status WpaPreciseReader::CheckColumns() {
  for (Field f : {kProcess, kThread, kCpu, kIn}) {
    if (!Has(f)) return MissingColumn("no \"" + std::string(kPreciseColumns[f].name) + "\" column");
  }
  if (!Has(kEnd) && !Has(kDuration))
    return MissingColumn("neither \"Next Switch-Out Time\" nor \"CPU Usage\", one of which tells where each run ends");
  return Status::Ok();
}

bool WpaPreciseReader::Micros(int field, std::string_view cell, int64_t* us) {
  wpa::Decimal d;
  if (!wpa::ParseDecimal(cell, &d)) {
    const bool ready = field == kReady || field == kReadyTime;
    BadNumber(field, cell, ready ? "the run is kept without its queue time" : "the row is skipped");
    return false;
  }
  *us = wpa::ToMicros(d, UnitOf(field));
  return true;
}

int64_t WpaPreciseReader::ReadyOf(std::string_view ready, std::string_view ready_time, int64_t in_us) {
  int64_t us = 0;
  if (Has(kReady)) {
    if (wpa::NoValue(ready) || !Micros(kReady, ready, &us)) return -1;
  } else if (Has(kReadyTime)) {
    int64_t at = 0;
    if (wpa::NoValue(ready_time) || !Micros(kReadyTime, ready_time, &at)) return -1;
    us = in_us - at;
  } else {
    return -1;
  }
  if (us < 0 || us > in_us) {
    Issue(line(), Severity::kWarning, "bad-ready",
          "a queue time of " + std::to_string(us) + " us before the switch-in at " + std::to_string(in_us) +
              " us starts before the trace or after the switch-in; the run is kept without it");
    return -1;
  }
  return us;
}

void WpaPreciseReader::OnRow() {
  const int64_t n = line();
  Run r;
  int64_t cpu = 0;
  if (!wpa::WholeNumber(Cell(kCpu), PreciseRuns::kMaxCpu, &cpu)) {
    Issue(n, Severity::kWarning, "bad-number",
          "the Cpu cell \"" + std::string(Cell(kCpu).substr(0, 20)) + "\" is not a CPU number (0-4095); skipped");
    return;
  }
  if (!Micros(kIn, Cell(kIn), &r.in_us)) return;
  if (Has(kEnd)) {
    if (wpa::NoValue(Cell(kEnd))) {
      Issue(n, Severity::kWarning, "bad-row", "the run has no Next Switch-Out Time; skipped");
      return;
    }
    if (!Micros(kEnd, Cell(kEnd), &r.out_us)) return;
  } else {
    int64_t duration = 0;
    if (!Micros(kDuration, Cell(kDuration), &duration)) return;
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
  r.ready_us = ReadyOf(Cell(kReady), Cell(kReadyTime), r.in_us);
  r.cpu = static_cast<uint32_t>(cpu);
  r.line = static_cast<uint32_t>(std::min<int64_t>(n, UINT32_MAX));
  int64_t tid = 0;
  r.proc = runs_.Process(Cell(kProcess));
  if (r.proc == PreciseRuns::kUnreadable || !wpa::WholeNumber(Cell(kThread), UINT32_MAX - 2, &tid)) {
    r.proc = PreciseRuns::kUnreadable;
    Issue(n, Severity::kWarning, "bad-process",
          "New Process \"" + std::string(Cell(kProcess).substr(0, 60)) + "\" or New Thread Id \"" +
              std::string(Cell(kThread).substr(0, 20)) +
              "\" cannot be read (name (pid), and a number): the run's time is unknown on its CPU");
  }
  r.tid = static_cast<uint32_t>(tid);
  runs_.Add(r);
}

Status WpaPreciseReader::Write() {
  const TimeNs start = *options_.trace_start;
  writer_ = std::make_unique<EventSeriesWriter>(options_.default_machine, start, sink_, &summary_);
  writer_->set_quiet(quiet());
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
  runs_.Replay(accounting_.get(), [this](int64_t at, const char* code, std::string message) {
    const bool info = std::strcmp(code, "pid-reused") == 0;
    Issue(at, info ? Severity::kInfo : Severity::kWarning, code, std::move(message));
  });
  RETURN_IF_ERROR(sink_status_);
  return writer_->Finish();
}

}  // namespace vrecon::etw
