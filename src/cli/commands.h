// What the commands share: exit codes, error output, and the parsing of option values that
// CLI11 leaves as text. Free of CLI11 (src/cli/command_options.h says why).
#ifndef VRECON_SRC_CLI_COMMANDS_H_
#define VRECON_SRC_CLI_COMMANDS_H_

#include <memory>
#include <optional>
#include <string>

#include "src/core/status.h"
#include "src/core/time_util.h"
#include "src/report/output.h"
#include "src/store/store.h"

namespace vrecon::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// "vrecon: error: <message>" on stderr: an error the command reports and goes on after.
void PrintError(const std::string& message);
// How a command ends on an error, the one way: the message on stderr (PrintError), then the exit
// code it returns: kExitFailure, or kExitUsage from FailUsage when the command line must change.
[[nodiscard]] int Fail(const Status& status);
[[nodiscard]] int Fail(const std::string& message);
[[nodiscard]] int FailUsage(const Status& status);
[[nodiscard]] int FailUsage(const std::string& message);
// --format's value (table, csv, json).
OutputFormat ToFormat(const std::string& s);
// Parses --from/--to into *out (unset when `text` is empty: not given); a usage error names the
// option.
Status ParseTimeOption(const std::string& option, const std::string& text, std::optional<TimeNs>* out);
// --from and --to: both optional, and --to after --from when both are given.
Status ParseTimeRange(const std::string& from_text, const std::string& to_text, std::optional<TimeNs>* from,
                      std::optional<TimeNs>* to);
// Opens a store a command reads from; NotFound, telling how to create it, when the file does
// not exist (opening would create an empty one).
StatusOr<std::unique_ptr<Store>> OpenExistingStore(const std::string& path);
// Parses --map GUEST=VM.
Status ParseMapping(const std::string& text, std::string* guest, std::string* vm);

}  // namespace vrecon::cli

#endif  // VRECON_SRC_CLI_COMMANDS_H_
