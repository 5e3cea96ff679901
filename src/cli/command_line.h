// The command line: each command's options registered on the CLI11 app. Each Add*Command returns
// its subcommand and the function that runs it once the command line has been parsed. Only cli.cc and the
// command_line_*.cc files include this header, and so CLI11 (src/cli/command_options.h says why).
#ifndef VRECON_SRC_CLI_COMMAND_LINE_H_
#define VRECON_SRC_CLI_COMMAND_LINE_H_

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include "src/cli/command_options.h"

namespace vrecon::cli {

using RunFn = std::function<int()>;

// A subcommand of the command line and what runs when it is the one named.
struct Command {
  CLI::App* app;
  RunFn run;
};

// command_line_read.cc: the commands that read a store.
Command AddCorrectCommand(CLI::App& app);
Command AddCountersCommand(CLI::App& app);
Command AddSamplesCommand(CLI::App& app);
Command AddReadyCommand(CLI::App& app);
Command AddCapacityCommand(CLI::App& app);
Command AddReportCommand(CLI::App& app);
Command AddStatusCommand(CLI::App& app);
Command AddServeCommand(CLI::App& app);
// command_line_write.cc: the commands that write one.
Command AddIngestCommand(CLI::App& app);
Command AddPruneCommand(CLI::App& app);
// `collect`: the fleet (options of the command itself), `collect vsphere` and `collect procfs`.
Command AddCollectCommand(CLI::App& app);

// cli.cc: options several commands share.
// Adds --format table|csv|json.
void AddFormatOption(CLI::App* cmd, std::string* format);
// --db: a SQLite file or a postgresql:// URI (src/store/store_location.h). A URI that carries a
// password is a usage error that says where the password belongs. `what` begins the help text.
CLI::Option* AddDbOption(CLI::App* cmd, std::string* db, const std::string& what);
// --vm, --window, --from, --to, --map, --hyperv-counter, --vsphere-counter, --no-align.
void AddCorrectionOptions(CLI::App* cmd, CorrectionOptions* o);
// --listen, --top, --tls-cert, --tls-key, --auth-file, --insecure-listen; returns --listen. Its
// default is what `o->listen` holds.
CLI::Option* AddListenOptions(CLI::App* cmd, ListenOptions* o);

}  // namespace vrecon::cli

#endif  // VRECON_SRC_CLI_COMMAND_LINE_H_
