// /metrics rendering benchmark (issue 17): `vrecon_bench_metrics [VMS] [PROCESSES] [REPEAT]`
// builds a snapshot of VMS VMs x PROCESSES processes (defaults 5000 x 10) with every field set,
// renders it REPEAT times (default 20) and prints the fastest and median wall time, the
// exposition's size and lines. Run it pinned to one core: taskset -c 0 (bench/metrics_bench.sh).
// With `--db D` (a new store) it also stores the snapshot as the VMs' latest windows and times a
// whole scrape's work: reading them back (ReadMetricsSnapshot) and rendering.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/serve/metrics_snapshot.h"
#include "src/serve/metrics_text.h"
#include "src/store/latest_window.h"
#include "src/store/store.h"

namespace {

using vrecon::serve::MetricsSnapshot;
using vrecon::serve::VmMetrics;

MetricsSnapshot Synthetic(int vms, int processes) {
  MetricsSnapshot s;
  s.vms.reserve(static_cast<size_t>(vms));
  for (int i = 0; i < vms; ++i) {
    VmMetrics m;
    m.vm.vm = "VM" + std::to_string(i);
    m.vm.vm_key = "vsphere:vc01.example/vm-" + std::to_string(1000 + i);
    m.vm.vm_source = "vc01.example";
    m.vm.guest_machine = m.vm.vm;
    m.vm.host_source = "vsphere";
    m.vm.host_counter = "cpu.usage.average";
    m.window.start = 1'793'615'100'000'000'000LL;
    m.window.end = m.window.start + 300'000'000'000LL;
    m.window.vcpus = 4;
    m.window.guest_util = 41.25 + i % 7;
    m.window.host_util = 52.5 + i % 5;
    m.window.w = *m.window.host_util / *m.window.guest_util;
    m.window.ready = 3.1;
    m.window.costop = 0.4;
    m.window.steal = 0;
    m.window.clock_offset_s = 0.012;
    m.window.guest_cov = m.window.host_cov = 1;
    m.window.flags = {{"ready-high", vrecon::Severity::kWarning, "ready 6%"}};
    for (int p = 0; p < processes; ++p) {
      const double g = 30.0 / (p + 1);
      vrecon::ProcessAggregate& a = m.processes.emplace_back();
      a.name = "process-" + std::to_string(p);
      a.n_guest = a.n_corr = 1;
      a.sum_guest = g;
      a.sum_corr = g * *m.window.w;
      a.sum_hw2 = 0.8;
    }
    m.dispatch = {{"vsphere", 180.0, 950.0}};
    s.vms.push_back(std::move(m));
  }
  return s;
}

// Stores the snapshot's VMs as their latest windows (one transaction).
bool Fill(vrecon::Store* store, const MetricsSnapshot& s) {
  auto tx = store->BeginTransaction();
  if (!tx.ok()) return false;
  for (const VmMetrics& m : s.vms) {
    auto id = vrecon::UpsertCorrVm(store, m.vm);
    if (!id.ok() || !vrecon::PutLatestWindow(store, *id, m.window, m.processes, 0, 0).ok()) return false;
  }
  return tx->Commit().ok();
}

double Seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

int main(int argc, char** argv) {
  const int vms = argc > 1 ? std::atoi(argv[1]) : 5000;
  const int processes = argc > 2 ? std::atoi(argv[2]) : 10;
  const int repeat = argc > 3 ? std::max(1, std::atoi(argv[3])) : 20;
  const MetricsSnapshot snapshot = Synthetic(vms, processes);
  std::vector<double> times;
  std::string out;
  for (int r = 0; r < repeat; ++r) {
    out.clear();
    const auto t0 = std::chrono::steady_clock::now();
    vrecon::serve::RenderMetrics(snapshot, 0.0, &out);
    times.push_back(Seconds(std::chrono::steady_clock::now() - t0));
  }
  std::sort(times.begin(), times.end());
  const long lines = std::count(out.begin(), out.end(), '\n');
  std::printf("render %d VMs x %d processes: fastest %.1f ms, median %.1f ms over %d runs; %.1f MB, %ld lines\n", vms,
              processes, times.front() * 1e3, times[times.size() / 2] * 1e3, repeat,
              static_cast<double>(out.size()) / 1e6, lines);
  if (argc > 5 && std::string(argv[4]) == "--db") {
    auto store = vrecon::Store::Open(argv[5]);
    if (!store.ok() || !Fill(store->get(), snapshot)) {
      std::fprintf(stderr, "cannot fill %s: %s\n", argv[5],
                   store.ok() ? "write failed" : store.status().message().c_str());
      return 1;
    }
    times.clear();
    for (int r = 0; r < repeat; ++r) {
      out.clear();
      const auto t0 = std::chrono::steady_clock::now();
      auto read = vrecon::serve::ReadMetricsSnapshot(store->get(), processes);
      if (!read.ok()) return 1;
      vrecon::serve::RenderMetrics(*read, 0.0, &out);
      times.push_back(Seconds(std::chrono::steady_clock::now() - t0));
    }
    std::sort(times.begin(), times.end());
    std::printf("read + render from %s: fastest %.1f ms, median %.1f ms over %d runs\n", argv[5], times.front() * 1e3,
                times[times.size() / 2] * 1e3, repeat);
  }
  return 0;
}
