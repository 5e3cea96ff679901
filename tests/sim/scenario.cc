// The six scenarios of docs/accuracy.md. Times are true seconds since the start (03:00 UTC on
// 2026-11-01, three hours before the US fall-back at 06:00 UTC).
#include "tests/sim/simulator.h"

#include <algorithm>
#include <random>

namespace vrecon::sim {

std::vector<std::string> ScenarioNames() {
  return {"calm", "contention", "lost-ticks", "resync", "dst", "mixed", "batch"};
}

namespace {

// Batch jobs of 40-240 s at 0.5-0.9 CPUs, one every few minutes (gaps of 4 minutes on average),
// from their own random stream so the rest of the scenario draws what it always did.
std::vector<Job> BatchJobs(uint64_t seed, double hours) {
  std::mt19937_64 rng(seed * 7919 + 17);
  std::exponential_distribution<double> gap(1.0 / 240);
  std::uniform_real_distribution<double> length(40, 240), cpus(0.5, 0.9);
  std::vector<Job> jobs;
  for (double t = gap(rng); t < hours * 3600;) {
    const double until = std::min(t + length(rng), hours * 3600);
    jobs.push_back(Job{t, until, cpus(rng)});
    t = until + gap(rng);
  }
  return jobs;
}

}  // namespace

Scenario MakeScenario(const std::string& name, uint64_t seed, int run_ticks) {
  Scenario s;
  s.name = name;
  s.seed = seed;
  s.run_ticks = run_ticks;
  s.start = NsFromCivil(CivilTime{2026, 11, 1, 3, 0, 0, 0});
  constexpr double kH = 3600;
  // Short stalls: every deferred tick is delivered (no loss, no drift).
  const Episode heavy{0.75 * kH, 1.75 * kH, 0.5, 4};
  const Episode medium{3.25 * kH, 4.5 * kH, 0.65, 4};
  // Long stalls beyond the backlog cap: ticks are lost and the guest clock falls behind.
  const Episode lossy1{0.5 * kH, 1.5 * kH, 0.55, 12};
  const Episode lossy2{2.5 * kH, 3.5 * kH, 0.5, 12};
  if (name == "calm") {
  } else if (name == "contention") {
    s.contention = {heavy, medium};
  } else if (name == "lost-ticks") {
    // Longer stalls: more is lost, the clock ends about four minutes behind and is never reset.
    s.contention = {Episode{lossy1.from_s, lossy1.to_s, 0.55, 16}, Episode{lossy2.from_s, lossy2.to_s, 0.5, 16}};
    s.backlog_cap_ticks = 48;
  } else if (name == "resync") {
    s.contention = {lossy1, lossy2};
    s.backlog_cap_ticks = 48;
    s.resync_at_s = {2.0 * kH + 137, 4.5 * kH + 41};
  } else if (name == "dst") {
    s.contention = {Episode{2.5 * kH, 3.5 * kH, 0.5, 4}};
    s.dst = true;
  } else if (name == "mixed") {
    s.contention = {lossy1, Episode{2.25 * kH, 3.25 * kH, 0.5, 4}, Episode{4.25 * kH, 5.0 * kH, 0.5, 16}};
    s.backlog_cap_ticks = 64;
    s.resync_at_s = {2.0 * kH + 137};
    s.idle = {{4.25 * kH, 5.0 * kH}};
    s.dst = true;
  } else if (name == "batch") {
    // A contended host where the VM runs batch jobs that start and end inside windows.
    s.contention = {heavy, medium};
    s.jobs = BatchJobs(seed, s.hours);
  } else {
    s.name.clear();
  }
  return s;
}

}  // namespace vrecon::sim
