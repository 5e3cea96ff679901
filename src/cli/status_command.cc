// `vrecon status --db PATH`: per collection source, when it last succeeded, how far behind its
// newest data is, the rows its last round added and its last error. Exit 1 when a source is
// stale (no success within --stale-after), for monitoring. See docs/fleet.md.
#include <chrono>
#include <iostream>

#include "src/cli/commands.h"
#include "src/core/text_util.h"
#include "src/fleet/fleet_config.h"
#include "src/fleet/source_status.h"

namespace vrecon::cli {
namespace {

constexpr TimeNs kDefaultStale = 15 * 60 * kNsPerSec;  // for a --once collector (interval unknown)

std::string Iso(const std::optional<TimeNs>& t) { return t ? FormatIso(*t, false) : ""; }

std::optional<double> Seconds(const std::optional<TimeNs>& since, TimeNs now) {
  if (!since) return std::nullopt;
  return static_cast<double>(now - *since) / kNsPerSec;
}

std::string Whole(const std::optional<double>& v) { return v ? FormatFixed(*v, 0) : ""; }

}  // namespace

RunFn AddStatusCommand(CLI::App& app) {
  struct Opts {
    std::string db = "vrecon.db", stale_after, format = "table";
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand(
      "status", "Per collection source: last success, lag, rows added, last error; exits 1 when a source is stale");
  cmd->add_option("--db", o->db, "Store file")->capture_default_str();
  cmd->add_option("--stale-after", o->stale_after,
                  "A source without a success for this long is stale (30s, 15m, 1h; default 3 x the collector's "
                  "--every, or 15m after --once rounds)");
  AddFormatOption(cmd, &o->format);
  return [o]() {
    std::optional<TimeNs> stale_after;
    if (!o->stale_after.empty()) {
      stale_after = fleet::ParseDuration(o->stale_after);
      if (!stale_after) {
        PrintError("--stale-after \"" + o->stale_after + "\" is not a duration (30s, 15m, 1h)");
        return kExitUsage;
      }
    }
    auto store = OpenExistingStore(o->db);
    if (!store.ok()) {
      PrintError(store.status().message());
      return kExitFailure;
    }
    auto rows = fleet::SourceStatuses((*store)->db());
    if (!rows.ok()) {
      PrintError(rows.status().message());
      return kExitFailure;
    }
    const TimeNs now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::system_clock::now().time_since_epoch()).count();
    int stale_count = 0;
    struct Line {
      const fleet::SourceStatus* s;
      bool stale;
      TimeNs threshold;
    };
    std::vector<Line> lines;
    for (const auto& s : *rows) {
      const TimeNs threshold =
          stale_after ? *stale_after : s.round_interval_s ? 3 * *s.round_interval_s * kNsPerSec : kDefaultStale;
      const bool stale = !s.last_success || now - *s.last_success > threshold;
      stale_count += stale;
      lines.push_back({&s, stale, threshold});
    }
    const OutputFormat fmt = ToFormat(o->format);
    if (fmt == OutputFormat::kJson) {
      std::cout << "{\"db\": " << JsonString(o->db) << ", \"now\": " << JsonString(FormatIso(now, false))
                << ", \"stale\": " << stale_count << ", \"sources\": [";
      for (size_t i = 0; i < lines.size(); ++i) {
        const auto& s = *lines[i].s;
        auto opt_str = [](const std::string& v) { return v.empty() ? std::string("null") : JsonString(v); };
        std::cout << (i ? ", " : "") << "{\"source\": " << JsonString(s.source) << ", \"kind\": " << JsonString(s.kind)
                  << ", \"state\": " << JsonString(lines[i].stale ? "stale" : s.failures ? "failing" : "ok")
                  << ", \"last_attempt\": " << opt_str(Iso(s.last_attempt))
                  << ", \"last_success\": " << opt_str(Iso(s.last_success))
                  << ", \"newest_data\": " << opt_str(Iso(s.newest_data))
                  << ", \"lag_s\": " << JsonNumber(Seconds(s.newest_data, now))
                  << ", \"rows_added\": " << s.rows_added << ", \"rows_total\": " << s.rows_total
                  << ", \"failures\": " << s.failures << ", \"stale_after_s\": " << lines[i].threshold / kNsPerSec
                  << ", \"last_error\": " << opt_str(s.last_error)
                  << ", \"last_error_at\": " << opt_str(Iso(s.last_error_at)) << "}";
      }
      std::cout << "]}\n";
    } else if (fmt == OutputFormat::kCsv) {
      std::cout << "source,kind,state,last_attempt,last_success,newest_data,lag_s,rows_added,rows_total,failures,"
                   "stale_after_s,last_error,last_error_at\n";
      for (const Line& l : lines) {
        const auto& s = *l.s;
        std::cout << CsvCell(s.source) << "," << s.kind << "," << (l.stale ? "stale" : s.failures ? "failing" : "ok")
                  << "," << Iso(s.last_attempt) << "," << Iso(s.last_success) << "," << Iso(s.newest_data) << ","
                  << Whole(Seconds(s.newest_data, now)) << "," << s.rows_added << "," << s.rows_total << ","
                  << s.failures << "," << l.threshold / kNsPerSec << "," << CsvCell(s.last_error) << ","
                  << Iso(s.last_error_at) << "\n";
      }
    } else {
      TextTable t({"source", "kind", "state", "last success", "lag s", "rows added", "failures", "last error"});
      for (const Line& l : lines) {
        const auto& s = *l.s;
        t.AddRow({s.source, s.kind, l.stale ? "STALE" : s.failures ? "failing" : "ok", Iso(s.last_success),
                  Whole(Seconds(s.newest_data, now)), std::to_string(s.rows_added), std::to_string(s.failures),
                  s.last_error.empty() ? "" : Iso(s.last_error_at) + " " + s.last_error});
      }
      if (t.empty()) std::cout << "no collection source recorded in " << o->db << " (run vrecon collect --config)\n";
      else t.Print(std::cout);
    }
    if (stale_count) {
      PrintError(std::to_string(stale_count) + " source(s) in " + o->db + " are stale (no success within the threshold)");
      return kExitFailure;
    }
    return kExitOk;
  };
}

}  // namespace vrecon::cli
