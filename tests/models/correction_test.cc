#include "models/correction.h"
#include "models/interval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;

WindowGrid Grid(int windows) { return WindowGrid{0, 300 * kS, windows}; }

// A series holding `value` over [from, to) in samples of `step` seconds.
WindowSeries Flat(const WindowGrid& g, double value, int from_s, int to_s, int step_s = 15) {
  WindowSeries s(g);
  for (int t = from_s; t < to_s; t += step_s) s.Add(t * kS, (t + step_s) * kS, value);
  return s;
}

VmSeries SeedVm(const WindowGrid& g) {
  VmSeries vm;
  vm.vm = "WEB01";
  vm.guest_machine = "web01.corp.example";
  vm.guest_cpus.push_back(Flat(g, 73, 0, 300));
  vm.processes.emplace("A", Flat(g, 40, 0, 300));
  vm.processes.emplace("B", Flat(g, 20, 0, 300));
  vm.host = HostSource::kHyperV;
  vm.host_vps.push_back(Flat(g, 88, 0, 300, 20));
  return vm;
}

TEST(CorrectionTest, SeedWorkedExample) {
  const WindowGrid g = Grid(1);
  auto r = CorrectVm(SeedVm(g), g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].w);
  EXPECT_NEAR(*r[0].w, 88.0 / 73.0, 1e-12);
  ASSERT_EQ(r[0].processes.size(), 2u);
  EXPECT_EQ(r[0].processes[0].name, "A");
  EXPECT_NEAR(*r[0].processes[0].corrected_pct, 48.219, 0.001);
  EXPECT_NEAR(*r[0].processes[1].corrected_pct, 24.110, 0.001);
  EXPECT_TRUE(r[0].flags.empty());
  EXPECT_EQ(r[0].vcpus, 1);
}

// Issue 14: a process that exists for the first 60 s of a 300 s window at 50% used 10% of one
// CPU in that window, not 50% (and w x 50 = 146.67 on a 1-vCPU VM was reported before).
TEST(CorrectionTest, AProcessAliveForPartOfTheWindowCountsZeroWhileAbsent) {
  const WindowGrid g = Grid(1);
  VmSeries vm;
  vm.vm = "VM1";
  vm.guest_machine = "VM1";
  vm.guest_cpus.push_back(Flat(g, 60, 0, 300));
  vm.guest_total = Flat(g, 60, 0, 300);
  vm.processes.emplace("batch", Flat(g, 50, 0, 60));
  vm.processes.emplace("svc", Flat(g, 10, 0, 300));
  vm.host = HostSource::kHyperV;
  vm.host_vps.push_back(Flat(g, 176, 0, 300, 20));  // w = 176 / 60: contention made the guest see less
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].w);
  const double w = 176.0 / 60.0;
  const ProcessResult* batch = nullptr;
  for (const ProcessResult& p : r[0].processes)
    if (p.name == "batch") batch = &p;
  ASSERT_NE(batch, nullptr);
  EXPECT_NEAR(*batch->guest_pct, 10.0, 1e-9);
  EXPECT_NEAR(*batch->corrected_pct, w * 10.0, 1e-9);
  EXPECT_NEAR(batch->present_s, 60.0, 1e-9);
  EXPECT_TRUE(batch->partial);
  // Its interval is that of a 10% share over the whole window, plus on the upper side what PDH
  // could not show: one 15 s sample at 50% at each end, 30 s x 50% / 300 s = 5 points.
  ASSERT_TRUE(batch->ci_lo && batch->ci_hi);
  const double upper = *batch->ci_hi - *batch->corrected_pct, lower = *batch->corrected_pct - *batch->ci_lo;
  EXPECT_NEAR(upper - lower, w * 5.0, 1e-9);
  EXPECT_GT(lower, 0);
  for (const ProcessResult& p : r[0].processes)
    if (p.name == "svc") {
      EXPECT_FALSE(p.partial);
    }
  // w = 2.93 puts no process above one CPU: no impossible-value.
  for (const Flag& f : r[0].flags) EXPECT_NE(f.code, "impossible-value") << f.message;
}

TEST(CorrectionTest, ACorrectedValueAboveTheVcpusIsFlagged) {
  const WindowGrid g = Grid(1);
  VmSeries vm = SeedVm(g);
  vm.host_vps[0] = Flat(g, 100, 0, 300, 20);
  vm.guest_cpus[0] = Flat(g, 20, 0, 300);  // w = 5: A (40) corrects to 200% of the one vCPU
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].processes[0].corrected_pct);
  EXPECT_GT(*r[0].processes[0].corrected_pct, 100);
  bool flagged = false;
  for (const Flag& f : r[0].flags)
    flagged = flagged || (f.code == "impossible-value" && f.message.find("Process(A)") != std::string::npos);
  EXPECT_TRUE(flagged);
}

// A _Total-only guest log against vSphere usage (% of the VM's capacity) without an inventory:
// nothing says how many vCPUs there are, and 1 is not assumed (issue 14, part 3).
TEST(CorrectionTest, UnknownVcpusAreFlaggedAndNoIntervalIsGuessed) {
  const WindowGrid g = Grid(1);
  VmSeries vm;
  vm.vm = vm.guest_machine = "VM1";
  vm.guest_total = Flat(g, 50, 0, 300);
  vm.processes.emplace("app", Flat(g, 80, 0, 300));  // 80% of one CPU: fine on 2 vCPUs, not on 1
  vm.host = HostSource::kVsphere;
  vm.host_group = Flat(g, 60, 0, 300, 20);
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].vcpus);
  ASSERT_TRUE(r[0].w);
  EXPECT_NEAR(*r[0].w, 1.2, 1e-12);
  ASSERT_EQ(r[0].processes.size(), 1u);
  EXPECT_NEAR(*r[0].processes[0].corrected_pct, 96, 1e-9);
  EXPECT_FALSE(r[0].processes[0].ci_lo);
  EXPECT_FALSE(r[0].processes[0].ci_hi);
  bool unknown = false;
  for (const Flag& f : r[0].flags) {
    unknown = unknown || f.code == "vcpus-unknown";
    EXPECT_NE(f.code, "processes-exceed-total");  // 80 > 50 x 1 only if one assumed 1 vCPU
  }
  EXPECT_TRUE(unknown);
}

TEST(CorrectionTest, GuestAndHostVcpuCountsThatDifferAreFlagged) {
  const WindowGrid g = Grid(1);
  VmSeries vm = SeedVm(g);
  vm.host_vps.clear();
  vm.host = HostSource::kVsphere;  // usage, % of capacity; the inventory says 4 vCPUs
  vm.host_group = Flat(g, 22, 0, 300, 20);
  vm.host_vcpus = 4;
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 1u);
  bool mismatch = false;
  for (const Flag& f : r[0].flags) mismatch = mismatch || f.code == "vcpu-count-mismatch";
  EXPECT_TRUE(mismatch);
  EXPECT_EQ(r[0].vcpus, 1);  // the guest's count
}

// Issue 14: a vCPU hot-add (1 -> 2) between two windows. The count is each window's own: before
// it, esxtop's % Used (summed over vCPUs) is divided by 1, not by the later 2 (w 1.21, not 0.60),
// and the first window's CPU is fully covered although CPU 1 did not exist yet.
TEST(CorrectionTest, VcpuCountIsPerWindowAcrossAHotAdd) {
  const WindowGrid g = Grid(2);
  VmSeries vm;
  vm.vm = vm.guest_machine = "VM1";
  vm.guest_cpus.push_back(Flat(g, 73, 0, 600));
  vm.guest_cpus.push_back(Flat(g, 73, 300, 600));  // CPU 1 from the hot-add on
  vm.processes.emplace("app", Flat(g, 60, 0, 600));
  vm.host = HostSource::kEsxtop;
  vm.host_group = WindowSeries(g);
  for (int t = 0; t < 600; t += 20) vm.host_group->Add(t * kS, (t + 20) * kS, t < 300 ? 88 : 176);
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].vcpus, 1);
  EXPECT_EQ(r[1].vcpus, 2);
  ASSERT_TRUE(r[0].w && r[1].w);
  EXPECT_NEAR(*r[0].w, 88.0 / 73.0, 1e-12);
  EXPECT_NEAR(*r[1].w, 88.0 / 73.0, 1e-12);
  EXPECT_NEAR(r[0].guest_coverage, 1.0, 1e-12);
  for (const Flag& f : r[0].flags) EXPECT_NE(f.code, "low-coverage") << f.message;
}

// vSphere's two CPU counters (issue 14, part 3): usage (% of capacity, frequency-scaled) and run
// (% of the interval summed over vCPUs, time as the guest's ticks count it).
TEST(CorrectionTest, VsphereRunIsPerVcpuAndAFrequencyGapIsNoted) {
  const WindowGrid g = Grid(2);
  VmSeries vm;
  vm.vm = vm.guest_machine = "VM1";
  for (int cpu = 0; cpu < 2; ++cpu) vm.guest_cpus.push_back(Flat(g, 50, 0, 600));
  vm.host = HostSource::kVsphere;
  vm.host_vcpus = 2;
  vm.vsphere_usage = WindowSeries(g);
  vm.vsphere_run = WindowSeries(g);
  for (int t = 0; t < 600; t += 20) {
    vm.vsphere_usage->Add(t * kS, (t + 20) * kS, t < 300 ? 72 : 61);  // turbo in the first window
    vm.vsphere_run->Add(t * kS, (t + 20) * kS, 120);                  // 60% per vCPU
  }
  vm.host_counter = "cpu.run.summation";
  vm.host_group = vm.vsphere_run;
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 2u);
  ASSERT_TRUE(r[0].w);
  EXPECT_NEAR(*r[0].w, 60.0 / 50.0, 1e-12);
  EXPECT_EQ(r[0].host_counter, "cpu.run.summation");
  auto count = [](const WindowResult& w) {
    return std::count_if(w.flags.begin(), w.flags.end(), [](const Flag& f) { return f.code == "frequency-scaled"; });
  };
  EXPECT_EQ(count(r[0]), 1);  // 72 against 60: 17% apart
  EXPECT_EQ(count(r[1]), 0);  // 61 against 60
}

// esxtop's two (issue 39 part 2): % Used is % Run scaled by the clock plus % System; % Run is
// time. Turbo at 1.25 shows as % Used less % System 25% above % Run: noted, whichever w uses.
TEST(CorrectionTest, EsxtopRunIsTimeAndUsedLessSystemAboveItIsNoted) {
  const WindowGrid g = Grid(2);
  VmSeries vm;
  vm.vm = vm.guest_machine = "VM1";
  for (int cpu = 0; cpu < 2; ++cpu) vm.guest_cpus.push_back(Flat(g, 50, 0, 600));
  vm.host = HostSource::kEsxtop;
  vm.esxtop_used = WindowSeries(g);
  vm.esxtop_run = WindowSeries(g);
  vm.esxtop_system = WindowSeries(g);
  for (int t = 0; t < 600; t += 5) {
    // Two vCPUs 60% running: % Run 120; % System 4; turbo 1.25 in the first window, none after.
    vm.esxtop_run->Add(t * kS, (t + 5) * kS, 120);
    vm.esxtop_system->Add(t * kS, (t + 5) * kS, 4);
    vm.esxtop_used->Add(t * kS, (t + 5) * kS, t < 300 ? 120 * 1.25 + 4 : 120 + 4);
  }
  auto count = [](const WindowResult& w) {
    return std::count_if(w.flags.begin(), w.flags.end(), [](const Flag& f) { return f.code == "frequency-scaled"; });
  };
  vm.host_counter = "% Run";
  vm.host_group = vm.esxtop_run;
  auto run = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(run.size(), 2u);
  ASSERT_TRUE(run[0].w);
  EXPECT_NEAR(*run[0].w, 60.0 / 50.0, 1e-12);  // time against time
  EXPECT_EQ(run[0].host_counter, "% Run");
  EXPECT_EQ(count(run[0]), 1);
  EXPECT_EQ(count(run[1]), 0);  // % Used less % System equals % Run
  vm.host_counter = "% Used";
  vm.host_group = vm.esxtop_used;
  auto used = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_TRUE(used[0].w);
  EXPECT_NEAR(*used[0].w, (150.0 + 4) / 2 / 50.0, 1e-12);  // the clock's gain and % System in w
  EXPECT_EQ(count(used[0]), 1);
  const auto f = std::find_if(used[0].flags.begin(), used[0].flags.end(),
                              [](const Flag& x) { return x.code == "frequency-scaled"; });
  EXPECT_NE(f->message.find("w uses % Used (--esxtop-counter)"), std::string::npos) << f->message;
}

// VMware Tools' VM Processor(_Total) (issue 39 part 2): read as its vCPUs' mean unless the log
// shows it is their sum.
TEST(CorrectionTest, VmProcessorTotalIsReadAsTheLogShowsIt) {
  const WindowGrid g = Grid(1);
  VmSeries vm;
  vm.vm = vm.guest_machine = "VM1";
  for (int cpu = 0; cpu < 2; ++cpu) vm.guest_cpus.push_back(Flat(g, 50, 0, 300));
  vm.host = HostSource::kVmTools;
  vm.host_counter = "VM Processor(_Total)\\% Processor Time";
  vm.vmtools_cpus = {Flat(g, 70, 0, 300), Flat(g, 50, 0, 300)};
  auto flagged = [](const WindowResult& w) {
    return std::count_if(w.flags.begin(), w.flags.end(), [](const Flag& f) { return f.code == "vm-processor-scale"; });
  };
  vm.host_group = Flat(g, 60, 0, 300);  // their mean: as assumed
  auto mean = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_TRUE(mean[0].w);
  EXPECT_NEAR(*mean[0].host_util_pct, 60, 1e-9);
  EXPECT_EQ(flagged(mean[0]), 0);
  vm.host_group = Flat(g, 120, 0, 300);  // their sum
  auto sum = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_TRUE(sum[0].w);
  EXPECT_NEAR(*sum[0].host_util_pct, 60, 1e-9);
  EXPECT_NEAR(*sum[0].w, 60.0 / 50.0, 1e-9);
  ASSERT_EQ(flagged(sum[0]), 1);
  const auto f = std::find_if(sum[0].flags.begin(), sum[0].flags.end(),
                              [](const Flag& x) { return x.code == "vm-processor-scale"; });
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(f->message.find("the sum of its 2 vCPU instances"), std::string::npos) << f->message;
  // Without instances there is nothing to decide from: read as logged.
  vm.vmtools_cpus.clear();
  EXPECT_NEAR(*CorrectVm(vm, g, CorrectionConfig{})[0].host_util_pct, 120, 1e-9);
}

TEST(CorrectionTest, IntervalFollowsTickSamplingError) {
  const WindowGrid g = Grid(1);
  auto r = CorrectVm(SeedVm(g), g, CorrectionConfig{});
  const ProcessResult& a = r[0].processes[0];
  // Samples without scatter: the binomial floor, n = 64 ticks/s * 300 s * 1 vCPU, p = 0.4 (with
  // Agresti-Coull's two and two added), plus w's share: the guest's 73% from the same ticks.
  const double n = 64.0 * 300, p = (0.4 * n + 2) / (n + 4);
  const double var_a = 100 * 100 * p * (1 - p) / (n + 4);
  const double rel_w = 100 * 100 * 0.73 * 0.27 / n / (73.0 * 73.0);
  const double w = 88.0 / 73.0;
  const double half = 1.959964 * w * std::sqrt(var_a + 40 * 40 * rel_w);
  EXPECT_NEAR(*a.ci_lo, w * 40 - half, 1e-9);
  EXPECT_NEAR(*a.ci_hi, w * 40 + half, 1e-9);
}

// Issue 14 part 5: samples that scatter more than independent ticks would give (threads keep a
// CPU for many ticks) widen the interval to what the scatter says.
TEST(CorrectionTest, IntervalWidensWithTheScatterOfTheSamples) {
  const WindowGrid g = Grid(1);
  VmSeries vm = SeedVm(g);
  WindowSeries a(g);
  for (int t = 0; t < 300; t += 15) a.Add(t * kS, (t + 15) * kS, (t / 15) % 2 ? 50 : 30);  // mean 40
  vm.processes.erase("A");
  vm.processes.emplace("A", a);
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  const ProcessResult& pa = r[0].processes[0];
  ASSERT_EQ(pa.name, "A");
  // 19 successive differences of 20 points: a sample's variance 20^2 / 2 = 200, the mean's
  // 200 / 20 = 10, far above the binomial 1.25; t with 19 degrees of freedom.
  const double rel_w = 100 * 100 * 0.73 * 0.27 / (64.0 * 300) / (73.0 * 73.0);
  const double w = 88.0 / 73.0;
  const double half = T95(19) * w * std::sqrt(10 + 40 * 40 * rel_w);
  EXPECT_NEAR(*pa.ci_hi - *pa.corrected_pct, half, 1e-9);
  EXPECT_NEAR(T95(19), 2.093, 0.002);
  const ProcessResult& pb = r[0].processes[1];  // B, flat: the binomial floor still
  EXPECT_LT(*pb.ci_hi - *pb.corrected_pct, half / 2);
}

TEST(CorrectionTest, MultiVcpuAveragesCpusAndVps) {
  const WindowGrid g = Grid(1);
  VmSeries vm;
  vm.vm = "SQL01";
  vm.guest_cpus.push_back(Flat(g, 90, 0, 300));
  vm.guest_cpus.push_back(Flat(g, 50, 0, 300));            // G = 70
  vm.processes.emplace("sqlservr", Flat(g, 120, 0, 300));  // % of one CPU: up to 200 on 2 vCPUs
  vm.host = HostSource::kHyperV;
  vm.host_vps.push_back(Flat(g, 60, 0, 300, 20));
  vm.host_vps.push_back(Flat(g, 40, 0, 300, 20));  // H = 50
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].vcpus, 2);
  EXPECT_NEAR(*r[0].guest_util_pct, 70, 1e-9);
  EXPECT_NEAR(*r[0].host_util_pct, 50, 1e-9);
  EXPECT_NEAR(*r[0].processes[0].corrected_pct, 120 * 50.0 / 70.0, 1e-9);
}

TEST(CorrectionTest, EsxtopUsedIsDividedByVcpus) {
  const WindowGrid g = Grid(1);
  VmSeries vm;
  vm.guest_cpus.push_back(Flat(g, 80, 0, 300));
  vm.guest_cpus.push_back(Flat(g, 80, 0, 300));
  vm.processes.emplace("app", Flat(g, 100, 0, 300));
  vm.host = HostSource::kEsxtop;
  vm.host_group = Flat(g, 120, 0, 300, 5);  // summed over 2 vCPUs -> 60 per vCPU
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  EXPECT_NEAR(*r[0].host_util_pct, 60, 1e-9);
  EXPECT_NEAR(*r[0].w, 0.75, 1e-9);
}

bool HasFlag(const WindowResult& r, const std::string& code) {
  for (const Flag& f : r.flags)
    if (f.code == code) return true;
  return false;
}

TEST(CorrectionTest, IdleGuestLeavesProcessesUncorrected) {
  const WindowGrid g = Grid(1);
  VmSeries vm = SeedVm(g);
  vm.guest_cpus[0] = Flat(g, 2, 0, 300);
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  EXPECT_TRUE(HasFlag(r[0], "idle-guest"));
  EXPECT_FALSE(r[0].w.has_value());
  for (const auto& p : r[0].processes) {
    EXPECT_FALSE(p.corrected_pct.has_value()) << "an idle guest's processes must be null, not guessed";
    EXPECT_TRUE(p.guest_pct.has_value());
  }
}

TEST(CorrectionTest, MissingHostSideIsFlaggedAndNotCorrected) {
  const WindowGrid g = Grid(2);
  VmSeries vm = SeedVm(g);
  vm.guest_cpus[0] = Flat(g, 73, 0, 600);
  vm.processes.at("A") = Flat(g, 40, 0, 600);
  auto r = CorrectVm(vm, g, CorrectionConfig{});  // host only covers window 0
  ASSERT_EQ(r.size(), 2u);
  EXPECT_FALSE(HasFlag(r[0], "missing-host"));
  EXPECT_TRUE(HasFlag(r[1], "missing-host"));
  EXPECT_FALSE(r[1].w.has_value());
}

TEST(CorrectionTest, LowCoverageIsFlagged) {
  const WindowGrid g = Grid(1);
  VmSeries vm = SeedVm(g);
  vm.guest_cpus[0] = Flat(g, 73, 0, 150);  // half the window
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  EXPECT_TRUE(HasFlag(r[0], "low-coverage"));
  EXPECT_NEAR(r[0].guest_coverage, 0.5, 1e-9);
}

TEST(CorrectionTest, ImpossibleValuesAreFlagged) {
  const WindowGrid g = Grid(1);
  VmSeries vm = SeedVm(g);
  vm.processes.at("B").Add(0, 15 * kS, 1071);  // above 100 x 1 vCPU
  vm.guest_cpus[0].Add(15 * kS, 30 * kS, 130);
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  int impossible = 0;
  for (const Flag& f : r[0].flags) impossible += f.code == "impossible-value";
  EXPECT_EQ(impossible, 2);
}

TEST(CorrectionTest, ProcessesAboveTotalAreFlagged) {
  const WindowGrid g = Grid(1);
  VmSeries vm = SeedVm(g);
  vm.processes.emplace("C", Flat(g, 30, 0, 300));  // 40 + 20 + 30 = 90 > 73
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  EXPECT_TRUE(HasFlag(r[0], "processes-exceed-total"));
  EXPECT_FALSE(HasFlag(CorrectVm(SeedVm(g), g, CorrectionConfig{})[0], "processes-exceed-total"));
}

TEST(CorrectionTest, SlotReuseSeenThroughIdProcess) {
  const WindowGrid g = Grid(2);
  VmSeries vm = SeedVm(g);
  vm.guest_cpus[0] = Flat(g, 73, 0, 600);
  vm.host_vps[0] = Flat(g, 88, 0, 600, 20);
  WindowSeries ids(g);
  ids.Add(0, 150 * kS, 1234);
  ids.Add(150 * kS, 300 * kS, 1234);
  ids.Add(300 * kS, 450 * kS, 1234);
  ids.Add(450 * kS, 600 * kS, 5678);  // svchost#1 now another process
  vm.process_ids.emplace("svchost#1", std::move(ids));
  auto r = CorrectVm(vm, g, CorrectionConfig{});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_FALSE(HasFlag(r[0], "instance-slot-reuse"));
  EXPECT_TRUE(HasFlag(r[1], "instance-slot-reuse"));
}

TEST(CorrectionTest, WindowsWithoutAnyDataAreSkipped) {
  const WindowGrid g = Grid(3);
  auto r = CorrectVm(SeedVm(g), g, CorrectionConfig{});  // data only in window 0
  EXPECT_EQ(r.size(), 1u);
}

}  // namespace
}  // namespace vrecon::models
