// The collector's life: lock the store, run a round once or every interval until SIGINT or
// SIGTERM (the batch in flight is finished, nothing half-written), reload the configuration on
// SIGHUP (a bad new file keeps the old configuration and logs why).
#ifndef VRECON_SRC_FLEET_FLEET_RUNNER_H_
#define VRECON_SRC_FLEET_FLEET_RUNNER_H_

#include <functional>
#include <optional>
#include <string>

#include "src/fleet/fleet_round.h"

namespace vrecon::fleet {

struct RunnerOptions {
  std::string config_path;
  std::optional<std::string> db;  // overrides the file's `db`
  TimeNs every = 0;               // 0: one round (--once)
  LogLevel log_level = LogLevel::kInfo;
  std::function<void(const RoundResult&)> on_round;  // after each round
  // Once the store exists, before the first round, with the store's location (`collect --listen`
  // starts its /metrics server there). An error stops the collector before it collects.
  std::function<Status(const std::string& db)> on_store_ready;
};

enum class RunOutcome { kOk, kRoundFailed, kConfigError, kRuntimeError };

// Reports errors before the first round (config, lock, store) on the log and in the outcome.
RunOutcome RunFleet(const RunnerOptions& options);

}  // namespace vrecon::fleet

#endif  // VRECON_SRC_FLEET_FLEET_RUNNER_H_
