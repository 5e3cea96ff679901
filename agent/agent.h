// The agent without Windows: command-line options, the counter selection they make, and the
// sampling loop over the PdhApi / Clock / OutputFiles seams. agent/windows/main.cc only supplies
// the real implementations and the stop signal.
#ifndef VRECON_AGENT_AGENT_H_
#define VRECON_AGENT_AGENT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "agent/counter_selection.h"
#include "agent/pdh_api.h"
#include "agent/rotating_writer.h"
#include "src/core/status.h"

namespace vrecon::agent {

struct Options {
  double interval_seconds = 15;
  std::string out_dir = ".";
  std::vector<std::string> sets;           // empty = {"vrecon"}; "none" = only extra counters
  std::vector<std::string> counters;       // --counter PATH
  std::vector<std::string> counter_files;  // --counter-file FILE (read by main)
  std::vector<std::string> computers;      // --computer NAME; empty = the local machine
  std::uint64_t max_bytes = 64ull << 20;   // --max-size MB
  std::int64_t rotate_seconds = 3600;      // --rotate-minutes N
  std::int64_t refresh_seconds = 300;      // --refresh SECONDS (new instances -> new columns)
  std::string prefix;                      // "" = the (first) machine name
  std::int64_t count = 0;                  // rows, 0 = until stopped
  double duration_seconds = 0;             // 0 = until stopped
  bool list = false;                       // print the resolved counters and exit
  bool service = false;                    // run under the service control manager
  bool help = false, version = false;
};

// Exit codes: 0 ok, 1 failure, 2 bad usage.
StatusOr<Options> ParseOptions(const std::vector<std::string>& args);
std::string UsageText();
inline constexpr const char* kAgentVersion = "0.1.0";

// The counters the options ask for; `file_texts[i]` is the content of options.counter_files[i].
StatusOr<std::vector<CounterSpec>> BuildSelection(const Options& options, const std::vector<std::string>& file_texts);

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Stamp Now() = 0;
  // Waits until utc_ms (returns at once when past). False when a stop was requested.
  virtual bool SleepUntil(std::int64_t utc_ms) = 0;
  virtual bool StopRequested() = 0;
};

struct RunStats {
  std::int64_t rows = 0;
  std::int64_t missing_cells = 0;   // cells written " " (data errors, gone instances, first values)
  std::int64_t collect_errors = 0;  // collections PDH failed as a whole (row written blank)
  std::vector<std::string> files;
};

// Samples until stopped (or count/duration), writing rows through `files`. Progress and notes
// go to `log`. A Status error means the agent could not start or could not write.
Status RunAgent(const Options& options, const std::vector<CounterSpec>& selection, PdhApi& pdh, Clock& clock,
                OutputFiles& files, const std::string& local_machine, std::ostream& log, RunStats* stats);

}  // namespace vrecon::agent

#endif  // VRECON_AGENT_AGENT_H_
