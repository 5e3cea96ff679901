// `vrecon collect procfs`: samples this Linux machine's /proc (per-CPU busy and steal, per-process
// CPU) into the store or a PDH-CSV file. See docs/cli.md and docs/formats/linux-procfs.md.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <iostream>

#include "src/cli/commands.h"
#include "src/collect/procfs_collect.h"

namespace vrecon::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void OnStopSignal(int) { g_stop.store(true); }

}  // namespace

RunFn AddCollectProcfsCommand(CLI::App* collect) {
  struct Opts {
    std::string db = "vrecon.db", out;
    double interval = 15;
    std::optional<double> duration;
    std::optional<int64_t> count;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = collect->add_subcommand(
      "procfs",
      "Sample this Linux machine's /proc (per-CPU % Processor Time and % Steal Time, per-process "
      "% Processor Time) into the store, or into a PDH-CSV file with --out; stops on Ctrl+C");
  AddDbOption(cmd, &o->db, "Store to write every 20 samples, one transaction each")->capture_default_str();
  cmd->add_option("--interval", o->interval, "Seconds between samples")
      ->check(CLI::Range(0.05, 86400.0))
      ->capture_default_str();
  auto* duration =
      cmd->add_option("--duration", o->duration, "Stop after this many seconds")->check(CLI::PositiveNumber);
  auto* count = cmd->add_option("--count", o->count, "Stop after this many samples (rows)")->check(CLI::PositiveNumber);
  duration->excludes(count);
  auto* out = cmd->add_option("--out", o->out, "Write a PDH-CSV 4.0 file instead of the store");
  out->excludes(cmd->get_option("--db"));
  return [o, cmd]() {
    if (!cmd->parsed()) return kExitUsage;
    std::unique_ptr<Store> store;
    std::error_code ec;
    const bool existed = o->db == ":memory:" || std::filesystem::exists(o->db, ec);
    if (o->out.empty()) {
      auto s = Store::Open(o->db);
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
    opt.interval_s = o->interval;
    opt.duration_s = o->duration;
    opt.count = o->count;
    opt.out = o->out;
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
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(o->db + suffix, ec);
      }
      return kExitFailure;
    }
    std::cout << "procfs " << r->machine << ": " << r->rows << " samples";
    if (r->first_end) std::cout << ", " << FormatIso(*r->first_end, false) << " .. " << FormatIso(*r->last_end, false);
    std::cout << ", up to " << r->columns_max << " counters, " << r->processes_last << " processes at the end";
    if (o->out.empty()) {
      std::cout << ", " << r->flushes << " transaction(s) into " << o->db;
    } else {
      std::cout << ", written to " << o->out;
    }
    std::cout << (r->stopped ? " (stopped by signal)" : "") << "\n";
    return kExitOk;
  };
}

}  // namespace vrecon::cli
