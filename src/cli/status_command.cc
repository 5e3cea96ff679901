// `vrecon status --db PATH`: per collection source, when it last succeeded, how far behind its
// newest data is, the rows its last round added and its last error. For monitoring: exit 1 when
// a source's last attempt failed or it is stale (no success within --stale-after), with one line
// per such source on stderr. See docs/fleet.md.
#include <algorithm>
#include <chrono>
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/core/text_util.h"
#include "src/fleet/fleet_config.h"
#include "src/store/source_tables.h"

namespace vrecon::cli {
namespace {

constexpr TimeNs kDefaultStale = 15 * 60 * kNsPerSec;  // for a --once collector (interval unknown)

enum class State { kOk, kFailing, kStale };

struct Line {
  const SourceStatus* s;
  State state;
  bool last_failed;  // also true for a stale source whose last attempt failed
  TimeNs threshold;
};

std::string Iso(const std::optional<TimeNs>& t) { return t ? FormatIso(*t, false) : ""; }

std::optional<double> Seconds(const std::optional<TimeNs>& since, TimeNs now) {
  if (!since) return std::nullopt;
  return static_cast<double>(now - *since) / kNsPerSec;
}

std::string Whole(const std::optional<double>& v) { return v ? FormatFixed(*v, 0) : ""; }

// "the last attempt did not succeed". A success sets last_success to that attempt's time and
// zeroes the consecutive-failure count in one statement (RecordAttempt); a failure moves
// last_attempt only and adds one. last_error and its time are kept after a recovery, so they
// only say the source failed at some point: they must not make it failing.
bool LastAttemptFailed(const SourceStatus& s) { return s.failures > 0 || s.last_success != s.last_attempt; }

const char* StateName(State st) { return st == State::kStale ? "stale" : st == State::kFailing ? "failing" : "ok"; }

Line Classify(const SourceStatus& s, const std::optional<TimeNs>& stale_after, TimeNs now) {
  const TimeNs threshold = stale_after          ? *stale_after
                           : s.round_interval_s ? 3 * *s.round_interval_s * kNsPerSec
                                                : kDefaultStale;
  const bool stale = !s.last_success || now - *s.last_success > threshold;
  const bool failed = LastAttemptFailed(s);
  return {&s, stale ? State::kStale : failed ? State::kFailing : State::kOk, failed, threshold};
}

// One line per source that is not ok, naming it and why; a monitoring check shows it as is, so
// an error that spans lines (a server's answer) is folded onto one.
std::string Problem(const Line& l, TimeNs now) {
  const SourceStatus& s = *l.s;
  std::string error = s.last_error.empty() ? "the last attempt failed (no error recorded)" : s.last_error;
  std::replace_if(
      error.begin(), error.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  if (l.state == State::kFailing) return "source " + s.source + " failing: " + error;
  std::string why = s.last_success ? "no success for " + FormatSpan(now - *s.last_success) : "no success recorded";
  why += " (threshold " + FormatSpan(l.threshold) + ")";
  if (l.last_failed) why += "; last attempt failed: " + error;
  return "source " + s.source + " stale: " + why;
}

void WriteJson(const std::string& db, const std::vector<Line>& lines, TimeNs now, int stale, int failing) {
  std::cout << "{\"db\": " << JsonString(db) << ", \"now\": " << JsonString(FormatIso(now, false))
            << ", \"stale\": " << stale << ", \"failing\": " << failing << ", \"sources\": [";
  auto opt_str = [](const std::string& v) { return v.empty() ? std::string("null") : JsonString(v); };
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto& s = *lines[i].s;
    std::cout << (i ? ", " : "") << "{\"source\": " << JsonString(s.source) << ", \"kind\": " << JsonString(s.kind)
              << ", \"state\": " << JsonString(StateName(lines[i].state))
              << ", \"last_attempt\": " << opt_str(Iso(s.last_attempt))
              << ", \"last_success\": " << opt_str(Iso(s.last_success))
              << ", \"newest_data\": " << opt_str(Iso(s.newest_data))
              << ", \"lag_s\": " << JsonNumber(Seconds(s.newest_data, now)) << ", \"rows_added\": " << s.rows_added
              << ", \"rows_total\": " << s.rows_total << ", \"failures\": " << s.failures
              << ", \"stale_after_s\": " << lines[i].threshold / kNsPerSec
              << ", \"last_error\": " << opt_str(s.last_error)
              << ", \"last_error_at\": " << opt_str(Iso(s.last_error_at)) << ", \"rollups_due\": " << s.rollups_due
              << ", \"collector\": " << opt_str(s.collector) << "}";
  }
  std::cout << "]}\n";
}

void WriteCsv(const std::vector<Line>& lines, TimeNs now) {
  std::cout << "source,kind,state,last_attempt,last_success,newest_data,lag_s,rows_added,rows_total,failures,"
               "stale_after_s,last_error,last_error_at,rollups_due,collector\n";
  for (const Line& l : lines) {
    const auto& s = *l.s;
    std::cout << CsvCell(s.source) << "," << s.kind << "," << StateName(l.state) << "," << Iso(s.last_attempt) << ","
              << Iso(s.last_success) << "," << Iso(s.newest_data) << "," << Whole(Seconds(s.newest_data, now)) << ","
              << s.rows_added << "," << s.rows_total << "," << s.failures << "," << l.threshold / kNsPerSec << ","
              << CsvCell(s.last_error) << "," << Iso(s.last_error_at) << "," << s.rollups_due << ","
              << CsvCell(s.collector) << "\n";
  }
}

void WriteTable(const std::string& db, const std::vector<Line>& lines, TimeNs now) {
  TextTable t({"source", "kind", "state", "last success", "lag s", "rows added", "failures", "rollups due", "collector",
               "last error"});
  for (const Line& l : lines) {
    const auto& s = *l.s;
    t.AddRow({s.source, s.kind, l.state == State::kStale ? "STALE" : StateName(l.state), Iso(s.last_success),
              Whole(Seconds(s.newest_data, now)), std::to_string(s.rows_added), std::to_string(s.failures),
              std::to_string(s.rollups_due), s.collector,
              s.last_error.empty() ? "" : Iso(s.last_error_at) + " " + s.last_error});
  }
  if (t.empty()) std::cout << "no collection source recorded in " << db << " (run vrecon collect --config)\n";
  else t.Print(std::cout);
}

}  // namespace

int RunStatusCommand(const StatusArgs& o) {
  std::optional<TimeNs> stale_after;
  if (!o.stale_after.empty()) {
    stale_after = fleet::ParseDuration(o.stale_after);
    if (!stale_after) return FailUsage("--stale-after \"" + o.stale_after + "\" is not a duration (30s, 15m, 1h)");
  }
  auto store = OpenExistingStore(o.db);
  if (!store.ok()) return Fail(store.status());
  auto rows = SourceStatuses(store->get());
  if (!rows.ok()) return Fail(rows.status());
  const TimeNs now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::vector<Line> lines;
  int stale = 0, failing = 0;
  for (const auto& s : *rows) {
    lines.push_back(Classify(s, stale_after, now));
    stale += lines.back().state == State::kStale;
    failing += lines.back().state == State::kFailing;
  }
  const OutputFormat fmt = ToFormat(o.format);
  if (fmt == OutputFormat::kJson) WriteJson(o.db, lines, now, stale, failing);
  else if (fmt == OutputFormat::kCsv) WriteCsv(lines, now);
  else WriteTable(o.db, lines, now);
  std::cout.flush();
  for (const Line& l : lines) {
    if (l.state != State::kOk) PrintError(Problem(l, now));
    if (l.s->rollups_due > 0)
      std::cerr << "vrecon: note: source " << l.s->source << ": " << l.s->rollups_due
                << " VMs' 300 s rollup ranges are still to be stored; each round asks for them again until vCenter "
                   "no longer keeps them\n";
  }
  return stale + failing ? kExitFailure : kExitOk;
}

}  // namespace vrecon::cli
