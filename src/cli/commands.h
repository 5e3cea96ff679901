// Each subcommand registers its options on the CLI11 app and returns the function that runs
// it once the command line has been parsed.
#ifndef VRECON_SRC_CLI_COMMANDS_H_
#define VRECON_SRC_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include "src/core/status.h"
#include "src/core/time_util.h"
#include "src/report/output.h"
#include "src/store/store.h"

namespace vrecon::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

using RunFn = std::function<int()>;

RunFn AddIngestCommand(CLI::App& app);
RunFn AddCorrectCommand(CLI::App& app);
RunFn AddSamplesCommand(CLI::App& app);
RunFn AddCollectCommand(CLI::App& app);
RunFn AddReadyCommand(CLI::App& app);
RunFn AddReportCommand(CLI::App& app);
RunFn AddStatusCommand(CLI::App& app);
RunFn AddCountersCommand(CLI::App& app);
RunFn AddPruneCommand(CLI::App& app);
RunFn AddServeCommand(CLI::App& app);
// `collect procfs`, registered under the `collect` command by AddCollectCommand.
RunFn AddCollectProcfsCommand(CLI::App* collect);
// `collect --config FILE --every D | --once` (the fleet), options of the `collect` command itself.
RunFn AddCollectFleetOptions(CLI::App* collect);

// "vrecon: error: <message>" on stderr.
void PrintError(const std::string& message);
// Adds --format table|csv|json.
void AddFormatOption(CLI::App* cmd, std::string* format);
OutputFormat ToFormat(const std::string& s);
// Parses --from/--to; a usage error names the option.
Status ParseTimeOption(const std::string& option, const std::string& text, std::optional<TimeNs>* out);
// --from and --to: both optional, and --to after --from when both are given.
Status ParseTimeRange(const std::string& from_text, const std::string& to_text, std::optional<TimeNs>* from,
                      std::optional<TimeNs>* to);
// Opens a store a command reads from; NotFound, telling how to create it, when the file does
// not exist (opening would create an empty one).
StatusOr<std::unique_ptr<Store>> OpenExistingStore(const std::string& path);
// --db: a SQLite file or a postgresql:// URI (src/store/store_location.h). A URI that carries a
// password is a usage error that says where the password belongs. `what` begins the help text.
CLI::Option* AddDbOption(CLI::App* cmd, std::string* db, const std::string& what);
// Parses --map GUEST=VM.
Status ParseMapping(const std::string& text, std::string* guest, std::string* vm);

}  // namespace vrecon::cli

#endif  // VRECON_SRC_CLI_COMMANDS_H_
