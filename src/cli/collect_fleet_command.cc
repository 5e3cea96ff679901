// `vrecon collect --config FILE --every 5m | --once`: scheduled collection against the fleet the
// TOML file describes (src/fleet). Its options are the `collect` command's own, beside its
// `vsphere` and `procfs` subcommands (src/cli/command_line_write.cc). See docs/fleet.md and
// docs/config.md.
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/core/text_util.h"
#include "src/fleet/fleet_runner.h"

namespace vrecon::cli {
namespace {

void PrintRound(const fleet::RoundResult& r, OutputFormat fmt) {
  if (fmt == OutputFormat::kJson) {
    std::cout << "{\"started\": " << JsonString(FormatIso(r.started, false))
              << ", \"seconds\": " << FormatFixed(r.seconds, 3) << ", \"ok\": " << (r.ok() ? "true" : "false")
              << ", \"windows_stored\": " << r.windows_stored
              << ", \"correction_error\": " << (r.correction_error.empty() ? "null" : JsonString(r.correction_error))
              << ", \"pruned_rows\": " << r.pruned_rows << ", \"pruned_windows\": " << r.pruned_windows
              << ", \"retention_error\": " << (r.retention_error.empty() ? "null" : JsonString(r.retention_error))
              << ", \"sources\": [";
    for (size_t i = 0; i < r.sources.size(); ++i) {
      const auto& s = r.sources[i];
      std::cout << (i ? ", " : "") << "{\"source\": " << JsonString(s.source) << ", \"kind\": " << JsonString(s.kind)
                << ", \"ok\": " << (s.ok ? "true" : "false") << ", \"attempts\": " << s.attempts
                << ", \"rows\": " << s.rows << ", \"detail\": " << JsonString(s.detail)
                << ", \"seconds\": " << FormatFixed(s.seconds, 3)
                << ", \"error\": " << (s.error.empty() || s.ok ? "null" : JsonString(s.error)) << "}";
    }
    std::cout << "]}" << std::endl;
    return;
  }
  if (fmt == OutputFormat::kCsv) {
    std::cout << "source,kind,ok,attempts,rows,seconds,detail,error\n";
    for (const auto& s : r.sources)
      std::cout << CsvCell(s.source) << "," << s.kind << "," << (s.ok ? "true" : "false") << "," << s.attempts << ","
                << s.rows << "," << FormatFixed(s.seconds, 3) << "," << CsvCell(s.detail) << ","
                << CsvCell(s.ok ? "" : s.error) << "\n";
    std::cout << std::flush;
    return;
  }
  TextTable t({"source", "kind", "result", "attempts", "rows", "seconds", "detail", "error"});
  for (const auto& s : r.sources)
    t.AddRow({s.source, s.kind, s.ok ? "ok" : "FAILED", std::to_string(s.attempts), std::to_string(s.rows),
              FormatFixed(s.seconds, 1), s.detail, s.ok ? "" : s.error});
  t.Print(std::cout);
  std::cout << "round: " << FormatFixed(r.seconds, 1) << " s, " << r.windows_stored << " correction windows stored"
            << (r.correction_error.empty() ? "" : "; " + r.correction_error)
            << (r.pruned_rows || r.pruned_windows
                    ? "; retention removed " + std::to_string(r.pruned_rows) + " sample rows and " +
                          std::to_string(r.pruned_windows) + " windows"
                    : "")
            << (r.retention_error.empty() ? "" : "; " + r.retention_error) << std::endl;
}

}  // namespace

int RunCollectFleetCommand(const CollectFleetArgs& o) {
  if (o.config.empty())
    return FailUsage("collect needs --config FILE with --every DURATION or --once, or a subcommand (vsphere, procfs)");
  fleet::RunnerOptions r;
  r.config_path = o.config;
  if (!o.db.empty()) r.db = o.db;
  if (o.every.empty() == !o.once) return FailUsage("collect --config needs either --every DURATION or --once");
  if (!o.every.empty()) {
    auto d = fleet::ParseDuration(o.every);
    if (!d || *d < kNsPerSec)
      return FailUsage("--every \"" + o.every + "\" is not a duration of at least one second (30s, 5m, 1h)");
    r.every = *d;
  }
  r.log_level = *fleet::ParseLogLevel(o.log_level);
  // The server lives as long as the collector: it is made once the store exists, and goes when
  // RunFleet returns (its requests in flight finish first).
  std::shared_ptr<std::unique_ptr<serve::HttpServer>> server;
  if (!o.listen.listen.empty()) {
    StatusOr<serve::ServerOptions> checked = ToServerOptions(o.listen, "");
    if (!checked.ok()) return FailUsage(checked.status());
    if (Status a = LoadAuthFile(o.listen, &*checked); !a.ok()) return Fail(a);
    server = std::make_shared<std::unique_ptr<serve::HttpServer>>();
    r.on_store_ready = [server, s = *checked](const std::string& db) mutable -> Status {
      s.db = db;
      ASSIGN_OR_RETURN(*server, serve::HttpServer::Start(s));
      std::cerr << "vrecon collect: metrics on " << (*server)->url() << std::endl;
      return Status::Ok();
    };
  }
  const OutputFormat fmt = ToFormat(o.format);
  r.on_round = [fmt](const fleet::RoundResult& round) { PrintRound(round, fmt); };
  switch (fleet::RunFleet(r)) {
    case fleet::RunOutcome::kOk: return kExitOk;
    case fleet::RunOutcome::kConfigError: return kExitUsage;
    default: return kExitFailure;
  }
}

}  // namespace vrecon::cli
