// `vrecon collect procfs`: samples this Linux machine's /proc (per-CPU busy and steal, per-process
// CPU) into the store or a PDH-CSV file. See docs/cli.md and docs/formats/linux-procfs.md.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/collect/procfs_collect.h"

namespace vrecon::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void OnStopSignal(int) { g_stop.store(true); }

}  // namespace

int RunCollectProcfsCommand(const CollectProcfsArgs& o) {
  std::unique_ptr<Store> store;
  std::error_code ec;
  const bool existed = o.db == ":memory:" || std::filesystem::exists(o.db, ec);
  if (o.out.empty()) {
    auto s = Store::Open(o.db);
    if (!s.ok()) {
      PrintError(s.status().message());
      return kExitFailure;
    }
    store = std::move(s).value();
  }
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
  auto r = CollectProcfs(store.get(), opt);
  if (opt.progress) std::cerr << "\r\033[K" << std::flush;
  if (!r.ok()) {
    PrintError(r.status().message());
    if (!existed && store) {
      store.reset();
      for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(o.db + suffix, ec);
    }
    return kExitFailure;
  }
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
