// The Ready-Time analysis on hand-computed numbers.
#include "models/ready_analysis.h"

#include <gtest/gtest.h>

namespace vrecon::models {
namespace {

constexpr TimeNs S = kNsPerSec;

std::vector<Interval> Series(const std::vector<double>& values, TimeNs step = 20 * S) {
  std::vector<Interval> out;
  for (size_t i = 0; i < values.size(); ++i)
    out.push_back({static_cast<TimeNs>(i) * step, static_cast<TimeNs>(i + 1) * step, values[i]});
  return out;
}

bool HasHint(const VmReadySummary& s, const std::string& code) {
  for (const Hint& h : s.hints)
    if (h.code == code) return true;
  return false;
}

TEST(ReadyAnalysisTest, AggregateReadyIsDividedByVcpus) {
  // 2 vCPUs, aggregate ready 20% of the interval -> 10% per vCPU.
  EXPECT_DOUBLE_EQ(*PerVcpu(20.0, 2), 10.0);
  EXPECT_FALSE(PerVcpu(20.0, std::nullopt));
  EXPECT_FALSE(PerVcpu(std::nullopt, 2));
  ReadyInput in;
  in.vm = "WEB01";
  in.vcpus = 2;
  in.ready = Series({20});
  in.costop = Series({4});
  in.run = Series({120});
  in.wait = Series({56});
  const auto states = PerVcpuStates(in);
  ASSERT_EQ(states.size(), 1u);
  EXPECT_DOUBLE_EQ(*states[0].ready, 10);
  EXPECT_DOUBLE_EQ(*states[0].costop, 2);
  EXPECT_DOUBLE_EQ(*states[0].run, 60);
  EXPECT_DOUBLE_EQ(*states[0].wait, 28);
  // The state picture adds up to the interval: 60 + 10 + 2 + 28 = 100.
  EXPECT_DOUBLE_EQ(*states[0].run + *states[0].ready + *states[0].costop + *states[0].wait, 100);
}

TEST(ReadyAnalysisTest, WithoutVcpuCountPerVcpuValuesAreUnknown) {
  ReadyInput in;
  in.ready = Series({20, 30});
  const VmReadySummary s = AnalyzeVm(in);
  EXPECT_FALSE(s.ready.mean);
  EXPECT_FALSE(s.ready.p95);
  EXPECT_EQ(s.samples, 2);
}

TEST(ReadyAnalysisTest, PercentileInterpolatesBetweenRanks) {
  // 1..20: h = 19 * 0.95 = 18.05 -> 19 + 0.05 * (20 - 19) = 19.05.
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);
  EXPECT_NEAR(*Percentile(v, 0.95), 19.05, 1e-12);
  EXPECT_DOUBLE_EQ(*Percentile({7}, 0.95), 7);
  EXPECT_FALSE(Percentile({}, 0.95));
}

TEST(ReadyAnalysisTest, SummaryMeanP95AndShares) {
  // Per-vCPU ready (1 vCPU): 2, 4, 6, 8, 12 -> mean 6.4; above 5: 3/5; above 10: 1/5.
  ReadyInput in;
  in.vcpus = 1;
  in.ready = Series({2, 4, 6, 8, 12});
  const VmReadySummary s = AnalyzeVm(in);
  EXPECT_DOUBLE_EQ(*s.ready.mean, 6.4);
  // h = 4 * 0.95 = 3.8 -> 8 + 0.8 * 4 = 11.2
  EXPECT_NEAR(*s.ready.p95, 11.2, 1e-12);
  ASSERT_EQ(s.ready.share_above.size(), 2u);
  EXPECT_DOUBLE_EQ(s.ready.share_above[0], 0.6);
  EXPECT_DOUBLE_EQ(s.ready.share_above[1], 0.2);
  EXPECT_EQ(s.samples, 5);
  EXPECT_TRUE(HasHint(s, "ready-elevated"));
  EXPECT_FALSE(HasHint(s, "host-overcommit"));
}

TEST(ReadyAnalysisTest, ThresholdsAreConfigurable) {
  ReadyInput in;
  in.vcpus = 1;
  in.ready = Series({2, 4, 6, 8, 12});
  ReadyThresholds t;
  t.ready_warn_pct = 1;
  t.ready_crit_pct = 6;
  const VmReadySummary s = AnalyzeVm(in, t);
  EXPECT_DOUBLE_EQ(s.ready.share_above[0], 1.0);
  EXPECT_DOUBLE_EQ(s.ready.share_above[1], 0.4);
  EXPECT_TRUE(HasHint(s, "host-overcommit"));
}

TEST(ReadyAnalysisTest, FewerVcpusHintNeedsCostopAndLowUsage) {
  // 2 vCPUs, co-stop 10% aggregate = 5% per vCPU, % Used 60 = 30% per vCPU: fewer vCPUs would help.
  ReadyInput in;
  in.vm = "APP";
  in.vcpus = 2;
  in.costop = Series({10, 10});
  in.used = Series({60, 60});
  VmReadySummary s = AnalyzeVm(in);
  EXPECT_DOUBLE_EQ(*s.costop.mean, 5);
  EXPECT_DOUBLE_EQ(*s.usage_mean, 30);
  EXPECT_TRUE(HasHint(s, "fewer-vcpus"));
  // Busy vCPUs (80% each): the co-stop is not from idle vCPUs, no hint.
  in.used = Series({160, 160});
  EXPECT_FALSE(HasHint(AnalyzeVm(in), "fewer-vcpus"));
  // One vCPU cannot co-stop usefully: no hint.
  in.used = Series({30, 30});
  in.vcpus = 1;
  in.costop = Series({5, 5});
  EXPECT_FALSE(HasHint(AnalyzeVm(in), "fewer-vcpus"));
  // vSphere cpu.usage.average is already per capacity: not divided again.
  ReadyInput v;
  v.vcpus = 4;
  v.costop = Series({16});
  v.usage = Series({20});
  s = AnalyzeVm(v);
  EXPECT_DOUBLE_EQ(*s.usage_mean, 20);
  EXPECT_TRUE(HasHint(s, "fewer-vcpus"));
}

TEST(ReadyAnalysisTest, HighReadyMeansHostOvercommit) {
  ReadyInput in;
  in.vcpus = 2;
  in.ready = Series({30, 26});  // 15% and 13% per vCPU
  const VmReadySummary s = AnalyzeVm(in);
  EXPECT_DOUBLE_EQ(*s.ready.mean, 14);
  EXPECT_TRUE(HasHint(s, "host-overcommit"));
  EXPECT_FALSE(HasHint(s, "fewer-vcpus"));
}

TEST(ReadyAnalysisTest, HyperVWaitPerDispatchAndHostLoad) {
  ReadyInput in;
  in.vm = "SQL01";
  in.source = "hyperv";
  in.host = "HV01";
  in.vcpus = 2;
  in.wait_per_dispatch_ns = Series({50'000, 70'000, 150'000, 130'000});  // 50, 70, 150, 130 us
  in.host_load = Series({70, 80, 85, 88});
  VmReadySummary s = AnalyzeVm(in);
  ASSERT_TRUE(s.wait_per_dispatch_us);
  EXPECT_DOUBLE_EQ(*s.wait_per_dispatch_us->mean, 100);
  EXPECT_DOUBLE_EQ(s.wait_per_dispatch_us->share_above[0], 0.75);  // above 60 us
  EXPECT_DOUBLE_EQ(s.wait_per_dispatch_us->share_above[1], 0.5);   // above 100 us
  EXPECT_FALSE(HasHint(s, "host-overcommit"));                     // mean 100 is not above 100
  EXPECT_TRUE(HasHint(s, "ready-elevated"));
  ASSERT_TRUE(s.host_load);
  EXPECT_TRUE(HasHint(s, "host-load-high"));  // p95 = 85 + 0.85 * 3 = 87.55 > 75
  EXPECT_FALSE(HasHint(s, "host-load-critical"));
  in.host_load = Series({95, 95});
  EXPECT_TRUE(HasHint(AnalyzeVm(in), "host-load-critical"));
  in.host_load = Series({40, 50});
  EXPECT_FALSE(HasHint(AnalyzeVm(in), "host-load-high"));
}

TEST(ReadyAnalysisTest, CalmVmHasNoHints) {
  ReadyInput in;
  in.vcpus = 4;
  in.ready = Series({4, 8});   // 1%, 2%
  in.costop = Series({0, 4});  // 0%, 1%
  in.used = Series({100, 120});
  EXPECT_TRUE(AnalyzeVm(in).hints.empty());
}

TEST(ReadyAnalysisTest, WindowFlags) {
  EXPECT_TRUE(ReadyWindowFlags(10.0, 3.0).empty()) << "thresholds are strict";
  EXPECT_TRUE(ReadyWindowFlags(std::nullopt, std::nullopt).empty());
  auto f = ReadyWindowFlags(15.0, 5.0);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].code, "high-ready");
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_NE(f[0].message.find("unreliable"), std::string::npos);
  EXPECT_EQ(f[1].code, "high-costop");
}

TEST(ReadyAnalysisTest, CorrectVmReportsPerVcpuWindowMeans) {
  WindowGrid grid{0, 300 * S, 1};
  VmSeries vm;
  vm.vm = "APP";
  vm.host_vcpus = 2;
  vm.host_ready.emplace(grid);
  vm.host_ready->Add(0, 150 * S, 30);  // time-weighted: (30 * 150 + 10 * 150) / 300 = 20 -> 10 per vCPU
  vm.host_ready->Add(150 * S, 300 * S, 10);
  vm.host_costop.emplace(grid);
  vm.host_costop->Add(0, 300 * S, 8);  // 4 per vCPU
  vm.guest_total.emplace(grid);
  vm.guest_total->Add(0, 300 * S, 50);
  auto r = CorrectVm(vm, grid, CorrectionConfig{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_DOUBLE_EQ(*r[0].ready_pct_per_vcpu, 10);
  EXPECT_DOUBLE_EQ(*r[0].costop_pct, 4);
  bool ready = false, costop = false;
  for (const Flag& f : r[0].flags) ready |= f.code == "high-ready", costop |= f.code == "high-costop";
  EXPECT_FALSE(ready);
  EXPECT_TRUE(costop);
}

}  // namespace
}  // namespace vrecon::models
