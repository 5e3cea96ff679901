// Which counters the agent samples: the built-in sets ("vrecon" for guests, "hyperv" for
// Hyper-V hosts), extra counter paths from the command line or a file, and the per-machine
// resolution against what PDH actually has (Process V2 instead of Process, optional VMware
// Tools objects).
#ifndef VRECON_AGENT_COUNTER_SELECTION_H_
#define VRECON_AGENT_COUNTER_SELECTION_H_

#include <string>
#include <string_view>
#include <vector>

#include "agent/pdh_api.h"
#include "src/core/status.h"

namespace vrecon::agent {

// One English counter path: \\machine\object(instance)\counter. instance "" = the object has
// no instances, "*" = every instance (expanded at each refresh).
struct CounterSpec {
  std::string machine;  // "" = the local machine
  std::string object;
  std::string instance;
  std::string counter;
  bool optional = false;           // skipped quietly when the machine does not have it
  bool prefer_process_v2 = false;  // object "Process": use "Process V2" where the OS has it
  bool operator==(const CounterSpec&) const = default;
};

// "\\WEB01\Process(*)\% Processor Time", "\Memory\Available MBytes". The instance ends at the
// last ')' before the final '\' (instances may hold parentheses). Wildcards are allowed in the
// instance only.
StatusOr<CounterSpec> ParseCounterPath(std::string_view path);

// The path as PDH takes it: "\\M\Object(instance)\Counter" (no "\\M" for the local machine).
std::string CounterPath(const CounterSpec& spec);

// Names of the built-in sets, and their counters for one machine ("" = local).
std::vector<std::string> CounterSetNames();
StatusOr<std::vector<CounterSpec>> CounterSet(std::string_view name, const std::string& machine);

// A counter file: one path per line; blank lines and lines starting with '#' are skipped;
// UTF-8 BOM and CRLF accepted. `source` names the file in errors.
StatusOr<std::vector<CounterSpec>> ParseCounterFile(std::string_view text, const std::string& source);

// Asks PDH which of `wanted` exist: object "Process" with prefer_process_v2 becomes "Process V2"
// when that machine has it (its "name:pid" instances never mix two processes in one slot; "ID
// Process" is then dropped, the pid is in the instance); optional counters the machine lacks are
// dropped with a note; duplicates are removed. Required counters are left for AddEnglishCounter
// to accept or refuse.
std::vector<CounterSpec> ResolveSelection(PdhApi& pdh, const std::vector<CounterSpec>& wanted,
                                          std::vector<std::string>* notes);

}  // namespace vrecon::agent

#endif  // VRECON_AGENT_COUNTER_SELECTION_H_
