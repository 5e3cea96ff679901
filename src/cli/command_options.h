// Each command's options as parsed: plain values with their defaults. The command line
// (src/cli/command_line.h) fills them; the command's Run function (its *_command.cc) reads them.
// Kept apart so that only the few files that register options compile CLI11, a header-only
// library that makes each file including it slow to compile and to lint (docs/development.md).
#ifndef VRECON_SRC_CLI_COMMAND_OPTIONS_H_
#define VRECON_SRC_CLI_COMMAND_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/cli/correction_options.h"
#include "src/cli/listen_options.h"

namespace vrecon::cli {

struct IngestArgs {
  std::string db = "vrecon.db";
  std::vector<std::string> files;
  std::vector<std::string> maps;
  std::optional<int> tz_bias;
  std::string encoding;
  std::string date;
  std::string machine;
  std::string trace_start;
  std::string format = "table";
};

struct CorrectArgs {
  std::string db = "vrecon.db";
  CorrectionOptions sel;
  std::vector<std::string> guest, host;
  std::string machine, trace_start;  // ad hoc: for guest inputs that do not carry them (ETW traces)
  std::string format = "table";
  int top = -1;
  double idle = 5.0;
  std::optional<int> tz_bias;
  bool counters = false;  // typed guest counters (docs/counter-types.md)
  std::string host_disk;
  bool calibrate_bias = false;  // models/sampling_bias.h
};

struct CountersArgs {
  std::string db = "vrecon.db";
  CorrectionOptions sel;
  std::string host_disk, format = "table";
};

struct SamplesArgs {
  std::string db = "vrecon.db";
  std::string machine, object, counter, instance, source, from, to, format = "table";
};

struct ReadyArgs {
  std::string db = "vrecon.db";
  std::string vm, from, to, format = "table";
};

struct CapacityArgs {
  std::string db = "vrecon.db";
  std::string scope = "all", risk = "conservative", as_of, format = "table", forecast_out;
  std::vector<std::string> names;
  int horizon_days = 365;
  double buffer_pct = 10, target_util_pct = 70;
  int ha_hosts = -1;  // -1: 1 for a cluster of two hosts or more
};

struct ReportArgs {
  std::string db = "vrecon.db";
  std::string vm, from, to, format = "html", out, vsphere_counter = "usage", esxtop_counter = "used";
  bool recompute = false;
};

struct StatusArgs {
  std::string db = "vrecon.db", stale_after, format = "table";
};

struct PruneArgs {
  std::string db = "vrecon.db", samples, corrections, format = "table";
  bool dry_run = false;
};

struct ServeArgs {
  std::string db = "vrecon.db";
  ListenOptions listen = [] {
    ListenOptions l;
    l.listen = "127.0.0.1:9477";
    return l;
  }();
};

// `collect vsphere`.
struct CollectVsphereArgs {
  std::string url, user, password_file, ca, vm = "*", since = "1h", db = "vrecon.db", format = "table";
  bool insecure = false, allow_http = false, historical = false;
  int backfill_days = 0;  // a VM or host seen the first time: its history from the rollups
  int concurrency = 4;
  int timeout = 120;
};

// `collect --config FILE --every D | --once`.
struct CollectFleetArgs {
  std::string config, every, db, log_level = "info", format = "table";
  bool once = false;
  ListenOptions listen;
};

// `collect procfs`.
struct CollectProcfsArgs {
  std::string db = "vrecon.db", out;
  double interval = 15;
  std::optional<double> duration;
  std::optional<int64_t> count;
};

// Each returns the exit code (src/cli/commands.h).
int RunIngestCommand(const IngestArgs& o);
int RunCorrectCommand(const CorrectArgs& o);
int RunCountersCommand(const CountersArgs& o);
int RunSamplesCommand(const SamplesArgs& o);
int RunReadyCommand(const ReadyArgs& o);
int RunCapacityCommand(const CapacityArgs& o);
int RunReportCommand(const ReportArgs& o);
int RunStatusCommand(const StatusArgs& o);
int RunPruneCommand(const PruneArgs& o);
int RunServeCommand(const ServeArgs& o);
int RunCollectVsphereCommand(const CollectVsphereArgs& o);
int RunCollectFleetCommand(const CollectFleetArgs& o);
int RunCollectProcfsCommand(const CollectProcfsArgs& o);

}  // namespace vrecon::cli

#endif  // VRECON_SRC_CLI_COMMAND_OPTIONS_H_
