// `vrecon collect procfs`: samples this Linux machine's /proc (per-CPU busy and steal, per-process
// CPU) into the store or a PDH-CSV file. See docs/cli.md and docs/formats/linux-procfs.md.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <iostream>
#include <optional>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/collect/procfs_collect.h"
#include "src/store/staged_store.h"
#include "src/store/store_location.h"

namespace vrecon::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void OnStopSignal(int) { g_stop.store(true); }

}  // namespace

int RunCollectProcfsCommand(const CollectProcfsArgs& o) {
  // A store that does not exist yet is staged now (an unwritable place fails at once) and
  // published at the first flush, when there are rows for it: a run that fails before that
  // leaves nothing behind and has nothing to remove (src/store/staged_store.h).
  std::unique_ptr<Store> store;
  std::optional<StagedStore> staged;
  if (o.out.empty()) {
    if (IsNewStoreFile(o.db)) {
      auto s = StagedStore::Begin(o.db);
      if (!s.ok()) return Fail(s.status());
      staged.emplace(std::move(s).value());
    } else {
      auto s = Store::Open(o.db);
      if (!s.ok()) return Fail(s.status());
      store = std::move(s).value();
    }
  }
  const StoreOpener open_store = [&]() -> StatusOr<Store*> {
    if (!store) {
      bool ours = false;  // either way the published store is the one to write into
      ASSIGN_OR_RETURN(store, staged->Publish(&ours));
      staged.reset();
    }
    return store.get();
  };
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  ProcfsCollectOptions opt;
  opt.interval_s = o.interval;
  opt.duration_s = o.duration;
  opt.count = o.count;
  opt.out = o.out;
  opt.stop = &g_stop;
  if (isatty(STDERR_FILENO)) {
    opt.progress = [](int64_t done, std::optional<int64_t> total) {
      std::cerr << "\rsampling " << done;
      if (total) std::cerr << "/" << *total;
      std::cerr << (total && done == *total ? "\r\033[K" : "") << std::flush;
    };
  }
  auto r = CollectProcfs(open_store, opt);
  if (opt.progress) std::cerr << "\r\033[K" << std::flush;
  if (!r.ok()) return Fail(r.status());
  std::cout << "procfs " << r->machine << ": " << r->rows << " samples";
  if (r->first_end) std::cout << ", " << FormatIso(*r->first_end, false) << " .. " << FormatIso(*r->last_end, false);
  std::cout << ", up to " << r->columns_max << " counters, " << r->processes_last << " processes at the end";
  if (o.out.empty()) {
    std::cout << ", " << r->flushes << " transaction(s) into " << o.db;
  } else {
    std::cout << ", written to " << o.out;
  }
  std::cout << (r->stopped ? " (stopped by signal)" : "") << "\n";
  return kExitOk;
}

}  // namespace vrecon::cli
