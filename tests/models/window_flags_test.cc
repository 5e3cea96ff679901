#include "models/window_flags.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;

// A series holding values[i] over window i in samples of `step` seconds.
WindowSeries Steps(const WindowGrid& g, const std::vector<double>& values, int step_s = 15) {
  WindowSeries s(g);
  for (int i = 0; i < static_cast<int>(values.size()); ++i)
    for (int t = i * 300; t < (i + 1) * 300; t += step_s) s.Add(t * kS, (t + step_s) * kS, values[i]);
  return s;
}

// One vCPU, guest busy `guest[i]`, host run `host[i]` per 300 s window.
VmSeries Vm(const WindowGrid& g, const std::vector<double>& guest, const std::vector<double>& host,
            int guest_step_s = 15) {
  VmSeries vm;
  vm.vm = "VM1";
  vm.guest_machine = "VM1";
  vm.guest_cpus.push_back(Steps(g, guest, guest_step_s));
  vm.processes.emplace("app", Steps(g, guest, guest_step_s));
  vm.host = HostSource::kHyperV;
  vm.host_vps.push_back(Steps(g, host, 20));
  return vm;
}

std::vector<WindowResult> Correct(const VmSeries& vm, const WindowGrid& g) {
  std::vector<WindowResult> r = CorrectVm(vm, g, CorrectionConfig{});
  AddWindowFlags(vm, g, WindowFlagConfig{}, &r);
  return r;
}

int Count(const WindowResult& r, const std::string& code) {
  return static_cast<int>(std::count_if(r.flags.begin(), r.flags.end(), [&](const Flag& f) { return f.code == code; }));
}

TEST(WindowFlagsTest, SteadyWindowsCarryNoFlag) {
  const WindowGrid g{0, 300 * kS, 4};
  auto r = Correct(Vm(g, {60, 62, 58, 61}, {40, 41, 39, 40}), g);
  ASSERT_EQ(r.size(), 4u);
  for (const auto& w : r) EXPECT_TRUE(w.flags.empty()) << w.flags[0].code;
}

TEST(WindowFlagsTest, ImplausibleWIsFlaggedBothWays) {
  const WindowGrid g{0, 300 * kS, 3};
  auto r = Correct(Vm(g, {50, 50, 50}, {95, 50, 5}), g);  // w = 1.9, 1.0, 0.1
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(Count(r[0], "w-implausible"), 1);
  EXPECT_EQ(Count(r[1], "w-implausible"), 0);
  EXPECT_EQ(Count(r[2], "w-implausible"), 1);
  EXPECT_NE(r[2].flags.back().message.find("0.10"), std::string::npos);
}

// Seed 000's case study: a 2-vCPU guest 97% busy while the host ran it 44% of one CPU (22% of
// its capacity), under heavy ready: w ~ 0.23, and in its worst windows under 0.2. That is what
// contention looks like, not a mismatched VM (issue 14).
TEST(WindowFlagsTest, ALowWUnderHeavyReadyOrDispatchWaitIsNotImplausible) {
  const WindowGrid g{0, 300 * kS, 3};
  VmSeries vm;
  vm.vm = vm.guest_machine = "SEED";
  for (int cpu = 0; cpu < 2; ++cpu) vm.guest_cpus.push_back(Steps(g, {97, 97, 97}));
  vm.processes.emplace("app", Steps(g, {150, 150, 150}));
  vm.host = HostSource::kVsphere;
  vm.host_vcpus = 2;
  vm.host_group = Steps(g, {22, 17, 17}, 20);             // % of capacity: w 0.23, 0.18, 0.18
  vm.host_ready = Steps(g, {2 * 60.0, 2 * 65.0, 0}, 20);  // summed over vCPUs; none in the last
  auto r = Correct(vm, g);
  ASSERT_EQ(r.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(Count(r[i], "high-ready"), 1) << i;
    EXPECT_EQ(Count(r[i], "w-implausible"), 0) << i;
  }
  EXPECT_EQ(Count(r[2], "w-implausible"), 1);  // the same low w with nothing to explain it

  // Hyper-V has no ready counter: a long wait per dispatch explains it there.
  VmSeries hv = Vm(g, {97, 97, 97}, {17, 17, 17});
  hv.host_dispatch_wait = Steps(g, {250'000, 40'000, 40'000}, 20);  // ns
  auto h = Correct(hv, g);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(Count(h[0], "high-dispatch-wait"), 1);
  EXPECT_NE(h[0].flags.front().message.find("250.0 us"), std::string::npos) << h[0].flags.front().message;
  EXPECT_EQ(Count(h[0], "w-implausible"), 0);
  EXPECT_EQ(Count(h[1], "high-dispatch-wait"), 0);
  EXPECT_EQ(Count(h[1], "w-implausible"), 1);
}

TEST(WindowFlagsTest, OneWindowSpikeOfWIsUnstableButAStepIsNot) {
  const WindowGrid g{0, 300 * kS, 7};
  // w: 0.8 0.8 0.4 0.8 0.8 (spike at 2), then 0.4 0.4 (a lasting step: contention).
  auto r = Correct(Vm(g, {50, 50, 50, 50, 50, 50, 50}, {40, 40, 20, 40, 40, 20, 20}), g);
  ASSERT_EQ(r.size(), 7u);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(Count(r[i], "w-unstable"), i == 2 ? 1 : 0) << "window " << i;
}

TEST(WindowFlagsTest, ReadyChangeExplainsAJumpOfW) {
  const WindowGrid g{0, 300 * kS, 3};
  VmSeries vm = Vm(g, {50, 50, 50}, {40, 20, 40});
  vm.host_ready = Steps(g, {1, 30, 1}, 20);
  auto r = Correct(vm, g);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(Count(r[1], "w-unstable"), 0);
  vm.host_ready = Steps(g, {1, 1, 1}, 20);
  EXPECT_EQ(Count(Correct(vm, g)[1], "w-unstable"), 1);
}

TEST(WindowFlagsTest, ShortWindowHasFewTicksWithTheErrorStated) {
  const WindowGrid g{0, 20 * kS, 1};  // 20 s on one vCPU: 1,280 ticks, +-2.7 points at 50%
  VmSeries vm;
  vm.vm = vm.guest_machine = "VM1";
  WindowSeries guest(g), host(g);
  guest.Add(0, 20 * kS, 50);
  host.Add(0, 20 * kS, 40);
  vm.guest_cpus.push_back(guest);
  vm.host = HostSource::kHyperV;
  vm.host_vps.push_back(host);
  auto r = Correct(vm, g);
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(Count(r[0], "few-ticks"), 1);
  const Flag& f = r[0].flags.back();
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_NE(f.message.find("1280 clock ticks"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("+-2.7 points"), std::string::npos) << f.message;
}

TEST(WindowFlagsTest, SubFifteenSecondSamplesAreNoted) {
  const WindowGrid g{0, 300 * kS, 1};
  auto r = Correct(Vm(g, {50}, {40}, 5), g);
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(Count(r[0], "few-ticks"), 1);
  EXPECT_EQ(r[0].flags.back().severity, Severity::kInfo);
  EXPECT_NE(r[0].flags.back().message.find("s apart (under 15 s)"), std::string::npos) << r[0].flags.back().message;
}

TEST(WindowFlagsTest, LongQueueOnAnIdleGuestIsFlaggedButNotOnABusyOne) {
  const WindowGrid g{0, 300 * kS, 2};
  VmSeries vm = Vm(g, {8, 90}, {6, 70});
  vm.guest_queue = Steps(g, {4, 4});
  auto r = Correct(vm, g);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Count(r[0], "queue-on-idle"), 1);
  EXPECT_EQ(Count(r[1], "queue-on-idle"), 0);
  // Seed 000: an artefact of the queue's measurement on an idle machine, not of the CPU figures.
  const Flag& f = r[0].flags.back();
  EXPECT_EQ(f.severity, Severity::kInfo);
  EXPECT_NE(f.message.find("queue, sampled at that tick, is inflated"), std::string::npos) << f.message;
  EXPECT_EQ(f.message.find("CPU figures"), std::string::npos) << f.message;
  vm.guest_queue = Steps(g, {0.5, 0.5});
  EXPECT_EQ(Count(Correct(vm, g)[0], "queue-on-idle"), 0);
}

}  // namespace
}  // namespace vrecon::models
