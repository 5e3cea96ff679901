// domain.md section 7: a Linux guest with a steal clock already charges processes real time;
// the engine reports steal and w but does not rescale processes.
#include <gtest/gtest.h>

#include "models/correction.h"

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;

WindowSeries FlatSeries(const WindowGrid& g, double value, int from_s, int to_s, int step_s = 15) {
  WindowSeries s(g);
  for (int t = from_s; t < to_s; t += step_s) s.Add(t * kS, (t + step_s) * kS, value);
  return s;
}

VmSeries LinuxVm(const WindowGrid& g) {
  VmSeries vm;
  vm.vm = "LNX01";
  vm.guest_machine = "lnx01";
  vm.guest_cpus.push_back(FlatSeries(g, 60, 0, 600));
  vm.processes.emplace("java:1234", FlatSeries(g, 50, 0, 600));
  vm.host = HostSource::kVsphere;
  vm.host_group = FlatSeries(g, 45, 0, 600, 20);
  return vm;
}

TEST(LinuxStealTest, StealKnownProcessesNotRescaled) {
  const WindowGrid g{0, 300 * kS, 2};
  VmSeries vm = LinuxVm(g);
  vm.guest_steal = FlatSeries(g, 4, 0, 300);  // steal only in the first window
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 2u);
  // Window 0: steal known -> corrected = guest, w still reported, info flag.
  ASSERT_TRUE(r[0].steal_pct);
  EXPECT_DOUBLE_EQ(*r[0].steal_pct, 4);
  ASSERT_TRUE(r[0].w);
  EXPECT_NEAR(*r[0].w, 45.0 / 60.0, 1e-12);
  EXPECT_DOUBLE_EQ(*r[0].processes[0].corrected_pct, 50);
  EXPECT_LT(*r[0].processes[0].ci_lo, 50);
  EXPECT_GT(*r[0].processes[0].ci_hi, 50);
  ASSERT_EQ(r[0].flags.size(), 1u);
  EXPECT_EQ(r[0].flags[0].code, "linux-steal-corrected");
  EXPECT_EQ(r[0].flags[0].severity, Severity::kInfo);
  // Window 1: no steal value -> the usual w x guest.
  EXPECT_FALSE(r[1].steal_pct);
  EXPECT_NEAR(*r[1].processes[0].corrected_pct, 50 * 45.0 / 60.0, 1e-9);
  EXPECT_TRUE(r[1].flags.empty());
}

TEST(LinuxStealTest, NoStealSeriesMeansWindowsCorrection) {
  const WindowGrid g{0, 300 * kS, 1};
  auto r = CorrectVm(LinuxVm(g), g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].steal_pct);
  EXPECT_NEAR(*r[0].processes[0].corrected_pct, 37.5, 1e-9);
}

TEST(LinuxStealTest, ZeroStealStillMeansSteadyClock) {
  // A kernel that prints steal (even 0) has the field; its process CPU is real time.
  const WindowGrid g{0, 300 * kS, 1};
  VmSeries vm = LinuxVm(g);
  vm.guest_steal = FlatSeries(g, 0, 0, 300);
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_TRUE(r[0].steal_pct);
  EXPECT_DOUBLE_EQ(*r[0].processes[0].corrected_pct, 50);
}

}  // namespace
}  // namespace vrecon::models
