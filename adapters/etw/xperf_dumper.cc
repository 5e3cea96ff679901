#include "adapters/etw/xperf_dumper.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <span>

#include "src/core/text_util.h"

namespace vrecon::etw {
namespace {

// No dumper text's first event comes a week after the trace's start (kLongestTraceUs bounds the
// rest).
constexpr int64_t kLatestFirstEventUs = int64_t{7} * 24 * 3600 * 1'000'000;

// The fields each event type needs, in the order OnEvent reads them.
struct Need {
  const char* event;
  int kind;
  std::vector<const char*> fields;
};

const std::vector<Need>& Needs() {
  static const std::vector<Need> needs = {
      {"CSwitch",
       0,
       {"TimeStamp", "New Process Name ( PID)", "New TID", "Old Process Name ( PID)", "Old TID", "OldState", "CPU"}},
      {"ReadyThread", 1, {"TimeStamp", "Rdy TID"}},
      {"DPC", 2, {"TimeStamp", "ElapsedTime", "CPU"}},
      {"DPCTmr", 2, {"TimeStamp", "ElapsedTime", "CPU"}},
      {"Interrupt", 3, {"TimeStamp", "ElapsedTime", "CPU"}},
      {"P-Start", 4, {"TimeStamp", "Process Name ( PID)"}},
      {"P-DCStart", 4, {"TimeStamp", "Process Name ( PID)"}},
      {"P-End", 5, {"TimeStamp", "Process Name ( PID)"}},
      {"T-End", 6, {"TimeStamp", "ThreadID"}},
  };
  return needs;
}

// Header and event cells: comma-separated, padded with blanks. Only the first `n` cells are cut
// (a P-Start's command line, last, holds unquoted commas); returns how many were found.
size_t SplitCells(std::string_view line, size_t n, std::string_view* out) {
  size_t count = 0, pos = 0;
  while (count < n) {
    const char* comma = static_cast<const char*>(std::memchr(line.data() + pos, ',', line.size() - pos));
    const size_t end = comma ? static_cast<size_t>(comma - line.data()) : line.size();
    out[count++] = Trim(line.substr(pos, end - pos));
    if (!comma) break;
    pos = end + 1;
  }
  return count;
}

// "12.5" or "12": DPC and ISR elapsed time (microseconds). More than 10 s is damage: Windows
// stops a machine whose DPCs run that long (DPC_WATCHDOG_VIOLATION), and the time is taken out
// of the runs the DPC interrupted.
bool ParseNumber(std::string_view s, double* v) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size() && *v >= 0 && *v <= 10e6;
}

}  // namespace

bool ParseProcessField(std::string_view field, std::string_view* image, uint32_t* pid) {
  field = Trim(field);
  if (field.size() < 3 || field.back() != ')') return false;
  const size_t open = field.rfind('(');
  if (open == std::string_view::npos) return false;
  if (!ParseWholeNumber(Trim(field.substr(open + 1, field.size() - open - 2)), pid)) return false;
  *image = Trim(field.substr(0, open));
  return true;
}

std::optional<TimeNs> FromFileTime(std::string_view digits) {
  int64_t ft = 0;
  if (!ParseWholeNumber(Trim(digits), &ft)) return std::nullopt;
  constexpr int64_t kUnixEpochAsFileTime = 116444736000000000;  // 1970-01-01 in 100 ns since 1601
  if (ft < kUnixEpochAsFileTime || ft > kUnixEpochAsFileTime + int64_t{9'000'000'000'000'000'000} / 100)
    return std::nullopt;
  return (ft - kUnixEpochAsFileTime) * 100;
}

bool LooksLikeXperfDumper(std::string_view head) { return FirstHeadLine(head) == "BeginHeader"; }

XperfDumperReader::XperfDumperReader(ReaderOptions options, SampleSink* sink)
    : LineReader(std::move(options), sink, "an xperf dumper text") {
  summary_.format = "xperf-dumper";
}

void XperfDumperReader::Issue(Severity severity, const char* code, std::string message, int64_t line) {
  RaiseIssue(line < 0 ? summary_.lines : line, severity, code, std::move(message));
}

Status XperfDumperReader::OnLine(std::string_view line) {
  ++summary_.lines;
  const std::string_view t = Trim(line);
  if (t.empty()) return Status::Ok();
  if (!header_begun_) {
    if (t != "BeginHeader")
      return Status::ParseError(Where() + ": not an xperf dumper text: it starts with \"" +
                                std::string(t.substr(0, 40)) + "\", not BeginHeader");
    header_begun_ = true;
    summary_.fingerprint = Fnv1a64(t);
    return Status::Ok();
  }
  if (!header_done_) return OnHeaderLine(t);
  if (!events_begun_) {
    if (!info_seen_ && (t.starts_with("OS Version:") || t.find("Trace Start:") != std::string_view::npos)) {
      summary_.fingerprint = Fnv1a64(t, summary_.fingerprint);
      return OnTraceInfo(t);
    }
    RETURN_IF_ERROR(BeginEvents());
  }
  if (summary_.lines == resume_.after_line && Fnv1a64(t) != resume_.line_hash) {
    Issue(Severity::kWarning, "file-changed",
          "this line differs from what an earlier ingest read here; what it stored is kept and the rest is read as "
          "new",
          summary_.lines + 1);
  }
  last_line_.assign(t);
  return OnEvent(t);
}

Status XperfDumperReader::OnHeaderLine(std::string_view line) {
  summary_.fingerprint = Fnv1a64(line, summary_.fingerprint);
  if (line == "EndHeader") {
    header_done_ = true;
    if (!layouts_.contains("CSwitch"))
      return Status::ParseError(options_.file +
                                ": the header declares no CSwitch events, so the trace holds no context switches; "
                                "record it with `xperf -on PROC_THREAD+LOADER+CSWITCH+DISPATCHER`");
    return Status::Ok();
  }
  const size_t n = SplitCells(line, cells_.size(), cells_.data());
  const std::span<const std::string_view> cells(cells_.data(), n);
  for (const Need& need : Needs()) {
    if (cells[0] != need.event) continue;
    Layout layout{static_cast<Kind>(need.kind), {}, 0};
    for (const char* field : need.fields) {
      int found = -1;
      for (size_t i = 1; i < n && found < 0; ++i)
        if (EqualsFolded(cells[i], field)) found = static_cast<int>(i);
      if (found < 0) {
        if (layout.kind != Kind::kCSwitch) return Status::Ok();  // an event read without it is skipped
        return Status::ParseError(Where() + ": the CSwitch header has no \"" + field +
                                  "\" field, which vrecon needs; the fields are \"" + std::string(line.substr(0, 300)) +
                                  "\"");
      }
      layout.fields.push_back(found);
      layout.max_field = std::max(layout.max_field, found);
    }
    layouts_[need.event] = std::move(layout);
  }
  return Status::Ok();
}

// "OS Version: 10.0.17134, Trace Size: 13952KB, Events Lost: 0, Buffers lost: 0, Trace Start:
// 131777972134992100, Trace Length: 3 sec, PointerSize: 8, Trace Name: mytrace.etl"
Status XperfDumperReader::OnTraceInfo(std::string_view line) {
  info_seen_ = true;
  const size_t n = SplitCells(line, cells_.size(), cells_.data());
  const std::span<const std::string_view> cells(cells_.data(), n);
  for (size_t i = 0; i < n; ++i) {
    const size_t colon = cells[i].find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = Trim(cells[i].substr(0, colon)), value = Trim(cells[i].substr(colon + 1));
    if (EqualsFolded(key, "Trace Start")) {
      file_start_ = FromFileTime(value);
      if (!file_start_)
        Issue(Severity::kWarning, "bad-trace-start",
              "the trace's start \"" + std::string(value.substr(0, 40)) + "\" is not a FILETIME");
    } else if (EqualsFolded(key, "Events Lost")) {
      ParseWholeNumber(value, &events_lost_);
    } else if (EqualsFolded(key, "Buffers Lost")) {
      ParseWholeNumber(value, &buffers_lost_);
    }
  }
  return Status::Ok();
}

Status XperfDumperReader::BeginEvents() {
  events_begun_ = true;
  if (options_.resume_lookup) resume_ = options_.resume_lookup(summary_.fingerprint);
  if (options_.default_machine.empty())
    return Status::InvalidArgument(options_.file +
                                   ": an xperf dumper text does not name its computer: give it with --machine NAME");
  TimeNs start = 0;
  if (file_start_) {
    start = *file_start_;
    std::string note = "event times are the trace's own start, " + FormatIso(start, true) + " (its Trace Start line)";
    if (options_.trace_start && *options_.trace_start != start)
      note += "; --trace-start " + FormatIso(*options_.trace_start, true) + " was not used";
    Issue(Severity::kInfo, "trace-start", note, 0);
  } else if (options_.trace_start) {
    start = *options_.trace_start;
    Issue(Severity::kInfo, "trace-start",
          "the trace names no start; event times are --trace-start " + FormatIso(start, true), 0);
  } else {
    return Status::InvalidArgument(options_.file +
                                   ": the trace names no start time (no \"Trace Start\" after EndHeader): give it with "
                                   "--trace-start, e.g. 2026-11-02T10:00:00+01:00");
  }
  if (events_lost_ > 0 || buffers_lost_ > 0) {
    Issue(Severity::kWarning, "events-lost",
          "the trace lost " + std::to_string(events_lost_) + " events and " + std::to_string(buffers_lost_) +
              " buffers: a CPU's time is unknown where its switch sequence breaks (\"% Unknown Time\"), and "
              "other missing events go unseen",
          0);
  }
  writer_ = std::make_unique<EventSeriesWriter>(options_.default_machine, start, sink_, &summary_);
  // A trace recorded without DPC or INTERRUPT declares no such event: its time is unknown, not 0.
  writer_->set_deferred(layouts_.contains("DPC") || layouts_.contains("DPCTmr"), layouts_.contains("Interrupt"));
  accounting_ = std::make_unique<CpuAccounting>(
      AbsoluteGrid(start),
      [this](const Bucket& b) {
        if (sink_status_.ok()) sink_status_ = writer_->AddBucket(b);
      },
      [this](const QueueWindow& w) { writer_->AddWindow(w); },
      [this](int cpu, int64_t t_us, uint32_t expected, uint32_t found) {
        Issue(Severity::kWarning, "switch-sequence-broken",
              "CPU " + std::to_string(cpu) + " at " + std::to_string(t_us) + " us switched out thread " +
                  std::to_string(found) + ", but by the events before it was running thread " +
                  std::to_string(expected) + (expected == 0 ? " (idle)" : "") +
                  ": events were lost; its time since its last switch is unknown");
      });
  return Status::Ok();
}

Status XperfDumperReader::OnEvent(std::string_view line) {
  const size_t comma = line.find(',');
  auto it = layouts_.find(std::string(Trim(line.substr(0, comma == std::string_view::npos ? line.size() : comma))));
  if (it == layouts_.end()) return Status::Ok();  // an event vrecon does not read
  const Layout& layout = it->second;
  const size_t want = static_cast<size_t>(layout.max_field) + 1;
  if (SplitCells(line, want, cells_.data()) < want) {
    Issue(Severity::kWarning, "ragged-event", it->first + " line with fewer fields than its header declares; skipped");
    return Status::Ok();
  }
  std::array<std::string_view, 8> f{};
  for (size_t i = 0; i < layout.fields.size(); ++i) f[i] = cells_[static_cast<size_t>(layout.fields[i])];
  int64_t t = 0;
  if (!ParseWholeNumber(f[0], &t) || t < 0) {
    Issue(Severity::kWarning, "bad-timestamp", "\"" + std::string(f[0].substr(0, 30)) + "\" is not a timestamp in us");
    return Status::Ok();
  }
  if (first_t_ < 0) {
    if (t > kLatestFirstEventUs) {
      Issue(Severity::kWarning, "bad-timestamp",
            std::to_string(t) + " us is more than a week after the trace's start; not believed, skipped");
      return Status::Ok();
    }
    first_t_ = t;
    accounting_->Begin(t);
  } else if (t - first_t_ > kLongestTraceUs) {
    Issue(Severity::kWarning, "bad-timestamp",
          std::to_string(t) + " us is more than 6 hours after the trace's first event; not believed, skipped");
    return Status::Ok();
  }
  last_t_ = std::max(last_t_, t);
  writer_->set_quiet(summary_.lines <= resume_.after_line);
  switch (layout.kind) {
    case Kind::kCSwitch: OnCSwitch(f, t); break;
    case Kind::kReady: {
      uint32_t tid = 0;
      if (ParseWholeNumber(f[1], &tid)) accounting_->Ready(t, tid);
      break;
    }
    case Kind::kDpc:
    case Kind::kIsr: {
      double elapsed = 0;
      int cpu = 0;
      if (!ParseNumber(f[1], &elapsed) || !ParseWholeNumber(f[2], &cpu) || cpu < 0 || cpu > 4095) {
        Issue(Severity::kWarning, "bad-event", "a DPC or interrupt without a readable CPU and elapsed time; skipped");
        break;
      }
      accounting_->Deferred(t, cpu, elapsed, layout.kind == Kind::kIsr);
      break;
    }
    case Kind::kProcessStart:
    case Kind::kProcessEnd: {
      std::string_view image;
      uint32_t pid = 0;
      if (!ParseProcessField(f[1], &image, &pid)) break;
      if (layout.kind == Kind::kProcessStart) {
        accounting_->ProcessStart(t, pid, image);
      } else {
        accounting_->ProcessEnd(t, pid);
      }
      break;
    }
    case Kind::kThreadEnd: {
      uint32_t tid = 0;
      if (ParseWholeNumber(f[1], &tid)) accounting_->ThreadEnd(tid);
      break;
    }
  }
  return sink_status_;
}

void XperfDumperReader::OnCSwitch(const std::array<std::string_view, 8>& f, int64_t t) {
  SwitchEvent e;
  e.t_us = t;
  if (!ParseProcessField(f[1], &e.new_process, &e.new_pid) || !ParseWholeNumber(f[2], &e.new_tid) ||
      !ParseProcessField(f[3], &e.old_process, &e.old_pid) || !ParseWholeNumber(f[4], &e.old_tid) ||
      !ParseWholeNumber(f[6], &e.cpu) || e.cpu < 0 || e.cpu > 4095) {
    Issue(Severity::kWarning, "bad-event", "a CSwitch whose processes, threads or CPU cannot be read; skipped");
    return;
  }
  // A thread switched out still runnable (preempted, quantum end, or chosen to run next) queues
  // for a CPU from that moment.
  e.old_state = EqualsFolded(f[5], "Ready") || EqualsFolded(f[5], "Standby") ? OldState::kReady : OldState::kOther;
  ++switches_;
  accounting_->Switch(e);
}

Status XperfDumperReader::EndLines() {
  if (summary_.lines == 0) return Status::ParseError(options_.file + " is empty");
  if (!header_done_) return Status::ParseError(options_.file + ": the header has no EndHeader line");
  if (!events_begun_ || switches_ == 0)
    return Status::ParseError(options_.file + ": no CSwitch event could be read (" + std::to_string(summary_.lines) +
                              " lines); was the trace recorded with CSWITCH?");
  writer_->set_quiet(summary_.lines <= resume_.after_line);
  accounting_->End(last_t_);
  RETURN_IF_ERROR(sink_status_);
  RETURN_IF_ERROR(writer_->Finish());
  issues_.ReportCapped(options_.file, sink_);
  summary_.consumed_lines = summary_.lines;
  summary_.consumed_line_hash = Fnv1a64(last_line_);
  return Status::Ok();
}

}  // namespace vrecon::etw
