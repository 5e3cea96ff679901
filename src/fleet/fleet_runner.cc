#include "src/fleet/fleet_runner.h"

#include <signal.h>

#include <atomic>

#include "src/core/free_memory.h"
#include "src/core/interruptible_sleep.h"
#include "src/fleet/store_lock.h"
#include "src/store/source_tables.h"
#include "src/store/store.h"
#include "src/store/store_location.h"

namespace vrecon::fleet {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<bool> g_reload{false};

extern "C" void OnStop(int) { g_stop.store(true); }
extern "C" void OnReload(int) { g_reload.store(true); }

void InstallHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnStop;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  struct sigaction hup {};
  hup.sa_handler = OnReload;
  sigemptyset(&hup.sa_mask);
  sigaction(SIGHUP, &hup, nullptr);
}

std::string DbOf(const FleetConfig& cfg, const RunnerOptions& o) { return o.db ? *o.db : cfg.db; }

Status SaveMappings(const std::string& db, const FleetConfig& cfg) {
  if (cfg.mappings.empty()) return Status::Ok();
  ASSIGN_OR_RETURN(auto store, Store::Open(db));
  for (const auto& [guest, vm] : cfg.mappings) RETURN_IF_ERROR(store->SetMapping(guest, vm));
  return Status::Ok();
}

// When a collector of this store last tried a source: the previous round, for a collector that
// runs one round at a time (--once) or starts again. Unset when none did, or it cannot be read.
std::optional<TimeNs> NewestAttempt(Store* store) {
  StatusOr<std::vector<SourceStatus>> statuses = SourceStatuses(store);
  std::optional<TimeNs> newest;
  if (statuses.ok())
    for (const SourceStatus& s : *statuses)
      if (s.last_attempt && (!newest || *s.last_attempt > *newest)) newest = s.last_attempt;
  return newest;
}

// A new configuration replaces the old one only when it loads and writes the same store.
void Reload(const RunnerOptions& o, FleetConfig* cfg, Logger* log) {
  auto fresh = LoadFleetConfig(o.config_path);
  if (!fresh.ok()) {
    log->Error("reload refused, keeping the previous configuration: " + fresh.status().message());
    return;
  }
  if (DbOf(*fresh, o) != DbOf(*cfg, o)) {
    log->Error("reload refused, keeping the previous configuration: " + o.config_path +
               ": db: the store cannot "
               "change while the collector runs (" +
               DbOf(*cfg, o) + "); restart it instead");
    return;
  }
  Status s = SaveMappings(DbOf(*fresh, o), *fresh);
  if (!s.ok()) log->Error("reload: cannot store the mappings: " + s.message());
  *cfg = std::move(fresh).value();
  log->Info("configuration reloaded from " + o.config_path + ": " + std::to_string(cfg->vcenters.size()) +
            " vCenter(s), " + std::to_string(cfg->drop_folders.size()) + " drop folder(s)");
}

}  // namespace

RunOutcome RunFleet(const RunnerOptions& o) {
  Logger log(o.log_level);
  auto loaded = LoadFleetConfig(o.config_path);
  if (!loaded.ok()) {
    log.Error(loaded.status().message());
    return RunOutcome::kConfigError;
  }
  FleetConfig cfg = std::move(loaded).value();
  const std::string db = DbOf(cfg, o);
  if (db.empty()) {
    log.Error(o.config_path + ": db: no store given; set db = \"/var/lib/vrecon/vrecon.db\" or pass --db");
    return RunOutcome::kConfigError;
  }
  g_stop.store(false);
  g_reload.store(false);
  InstallHandlers();
  // SQLite: one collector per store file. PostgreSQL: any number, each source claimed by one of
  // them at a time (ClaimSource).
  auto lock = IsPostgresUri(db) ? StatusOr<std::unique_ptr<StoreLock>>(nullptr) : StoreLock::Acquire(db);
  if (!lock.ok()) {
    log.Error(lock.status().message());
    return RunOutcome::kRuntimeError;
  }
  std::unique_ptr<Store> store;  // the runner's own connection (RoundContext::store)
  {
    auto opened = Store::Open(db);  // creates and migrates it before the sources open theirs
    if (!opened.ok()) {
      log.Error(opened.status().message());
      return RunOutcome::kRuntimeError;
    }
    store = std::move(opened).value();
  }
  if (Status s = SaveMappings(db, cfg); !s.ok()) {
    log.Error("cannot store the mappings: " + s.message());
    return RunOutcome::kRuntimeError;
  }
  if (o.on_store_ready) {
    if (Status s = o.on_store_ready(db); !s.ok()) {
      log.Error(s.message());
      return RunOutcome::kRuntimeError;
    }
  }
  std::optional<int> interval_s;
  if (o.every > 0) interval_s = static_cast<int>(o.every / kNsPerSec);
  log.Info(std::string(o.every > 0 ? "collector started" : "one round") + ": " + std::to_string(cfg.vcenters.size()) +
           " vCenter(s), " + std::to_string(cfg.drop_folders.size()) + " drop folder(s), store " + db);
  bool last_ok = true;
  std::optional<TimeNs> previous_round = NewestAttempt(store.get());
  while (true) {
    if (g_reload.exchange(false)) Reload(o, &cfg, &log);
    const TimeNs started = SleepClock::Real().Now();
    RoundContext ctx{&cfg, db, &log, &g_stop, interval_s, &store, previous_round};
    RoundResult round = RunRound(ctx);
    previous_round = round.started;
    last_ok = round.ok();
    log.Info("round finished in " + std::to_string(round.seconds).substr(0, 5) + " s, " +
             std::to_string(round.windows_stored) + " correction windows stored");
    if (o.on_round) o.on_round(round);
    if (o.every == 0 || g_stop.load()) break;
    ReturnFreedMemory();
    const TimeNs next = started + o.every;
    if (SleepClock::Real().Now() >= next) log.Warn("the round took longer than --every; the next starts now");
    // A SIGHUP while waiting is read at once, not at the next round.
    const bool waited = SleepUntil(next, &g_stop, SleepClock::Real(), [&] {
      if (g_reload.exchange(false)) Reload(o, &cfg, &log);
    });
    if (!waited) break;
  }
  if (g_stop.load()) {
    log.Info("stopped by a signal; every stored batch is complete");
    return RunOutcome::kOk;
  }
  return last_ok ? RunOutcome::kOk : RunOutcome::kRoundFailed;
}

}  // namespace vrecon::fleet
