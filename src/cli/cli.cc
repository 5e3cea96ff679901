#include "src/cli/cli.h"

#include <filesystem>
#include <iostream>

#include "src/cli/commands.h"
#include "src/core/time_util.h"
#include "src/store/store_location.h"
#include "vrecon_build_info.h"

namespace vrecon::cli {

void PrintError(const std::string& message) { std::cerr << "vrecon: error: " << message << std::endl; }

void AddFormatOption(CLI::App* cmd, std::string* format) {
  cmd->add_option("--format", *format, "Output format")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
}

OutputFormat ToFormat(const std::string& s) {
  OutputFormat f = OutputFormat::kTable;
  ParseOutputFormat(s, &f);
  return f;
}

Status ParseTimeOption(const std::string& option, const std::string& text, std::optional<TimeNs>* out) {
  if (text.empty()) return Status::Ok();
  auto t = ParseIso(text);
  if (!t)
    return Status::InvalidArgument(option + " \"" + text + "\" is not an ISO 8601 time (e.g. 2026-11-01T10:00:00Z)");
  *out = t;
  return Status::Ok();
}

Status ParseTimeRange(const std::string& from_text, const std::string& to_text, std::optional<TimeNs>* from,
                      std::optional<TimeNs>* to) {
  RETURN_IF_ERROR(ParseTimeOption("--from", from_text, from));
  RETURN_IF_ERROR(ParseTimeOption("--to", to_text, to));
  if (*from && *to && **to <= **from)
    return Status::InvalidArgument("--to " + to_text + " is not after --from " + from_text);
  return Status::Ok();
}

StatusOr<std::unique_ptr<Store>> OpenExistingStore(const std::string& path) {
  std::error_code ec;
  if (path != ":memory:" && !IsPostgresUri(path) && !std::filesystem::exists(path, ec))
    return Status::NotFound("store " + path + " does not exist: run `vrecon ingest --db " + path + " FILE...` first");
  return Store::OpenForReading(path);
}

CLI::Option* AddDbOption(CLI::App* cmd, std::string* db, const std::string& what) {
  auto check = [](const std::string& value) -> std::string {
    if (!IsPostgresUri(value)) return {};
    Status s = CheckPostgresUri(value);
    return s.ok() ? std::string() : s.message();
  };
  return cmd->add_option("--db", *db, what + " (a SQLite file or a postgresql:// URI)")
      ->check(CLI::Validator(check, "PATH|URI"));
}

Status ParseMapping(const std::string& text, std::string* guest, std::string* vm) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    return Status::InvalidArgument("--map \"" + text + "\" should be GUEST=VM");
  *guest = text.substr(0, eq);
  *vm = text.substr(eq + 1);
  return Status::Ok();
}

int Main(int argc, char** argv) {
  CLI::App app{
      "vrecon: reconcile what a VM's guest says about its CPU with what the hypervisor measured, and turn the "
      "guest's per-process CPU into real CPU."};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "vrecon " VRECON_VERSION " (commit " VRECON_GIT_COMMIT ")");
  RunFn ingest = AddIngestCommand(app);
  RunFn correct = AddCorrectCommand(app);
  RunFn samples = AddSamplesCommand(app);
  RunFn collect = AddCollectCommand(app);
  RunFn ready = AddReadyCommand(app);
  RunFn report = AddReportCommand(app);
  RunFn status = AddStatusCommand(app);
  RunFn counters = AddCountersCommand(app);
  RunFn prune = AddPruneCommand(app);
  RunFn serve = AddServeCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? kExitOk : kExitUsage;  // --help, --version
    // A usage error reads like every other error: "vrecon: error: ..." and where to look.
    std::string command;
    for (const CLI::App* sub : app.get_subcommands()) command = " " + sub->get_name();
    std::cerr << "vrecon: error: " << e.what() << "\nRun `vrecon" << command << " --help` for the options.\n";
    return kExitUsage;
  }
  if (app.got_subcommand("ingest")) return ingest();
  if (app.got_subcommand("correct")) return correct();
  if (app.got_subcommand("samples")) return samples();
  if (app.got_subcommand("collect")) return collect();
  if (app.got_subcommand("ready")) return ready();
  if (app.got_subcommand("report")) return report();
  if (app.got_subcommand("status")) return status();
  if (app.got_subcommand("counters")) return counters();
  if (app.got_subcommand("prune")) return prune();
  if (app.got_subcommand("serve")) return serve();
  std::cerr << app.help();
  return kExitUsage;
}

}  // namespace vrecon::cli
