// The capacity definitions (models/capacity.h; docs/capacity.md, "Definitions").
#include "models/capacity.h"

#include <gtest/gtest.h>

namespace vrecon::models {
namespace {

TEST(CapacityTest, HostCapacityIsCoresWithHyperThreadingElseLogicalProcessors) {
  auto on = HostCapacity({16, 32, true});
  ASSERT_TRUE(on);
  EXPECT_EQ(on->cores, 16);
  EXPECT_FALSE(on->logical);
  auto off = HostCapacity({16, 16, false});
  ASSERT_TRUE(off);
  EXPECT_EQ(off->cores, 16);
  EXPECT_FALSE(off->logical);
  auto unknown = HostCapacity({std::nullopt, 48, std::nullopt});  // Hyper-V: LP instances only
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->cores, 48);
  EXPECT_TRUE(unknown->logical);
  EXPECT_FALSE(HostCapacity({}));
}

TEST(CapacityTest, ClusterHoldsBackItsLargestHostsForHa) {
  EXPECT_EQ(ClusterCapacity({16, 32, 24}, 1), 40);
  EXPECT_EQ(ClusterCapacity({16, 32, 24}, 2), 16);
  EXPECT_EQ(ClusterCapacity({16, 32, 24}, 0), 72);
  EXPECT_EQ(ClusterCapacity({16}, 3), 0);
  EXPECT_DOUBLE_EQ(ClusterCapacityLessShare({16, 32, 24}, 25), 54);
  EXPECT_DOUBLE_EQ(ClusterCapacityLessShare({16, 32, 24}, 150), 0) << "at most all of it";
  EXPECT_EQ(DefaultHaHosts(1), 0);
  EXPECT_EQ(DefaultHaHosts(2), 1);
  EXPECT_DOUBLE_EQ(UsableCores(40, 10), 36);
  EXPECT_DOUBLE_EQ(UsableCores(40, 0), 40);
}

Forecast Flat(double mid, double half_band, int days = 10) {
  Forecast f;
  f.sufficient = true;
  f.as_of_day = 100;
  for (int h = 1; h <= days; ++h) f.days.push_back({100 + h, mid - half_band, mid, mid + half_band});
  return f;
}

TEST(CapacityTest, TimeRemainingReadsTheRisksBand) {
  Forecast f = Flat(20, 3);
  f.days[4].mid = 31;  // day +5
  f.days[4].upper = 34;
  f.days[1].upper = 30.5;  // day +2, upper band only
  const std::vector<DailyDemand> history = {{95, 20}, {100, 21}};
  EXPECT_EQ(TimeRemainingDays(f, history, 30, Risk::kAggressive), 5);
  EXPECT_EQ(TimeRemainingDays(f, history, 30, Risk::kConservative), 2);
  EXPECT_FALSE(TimeRemainingDays(f, history, 40, Risk::kConservative));
}

TEST(CapacityTest, TimeRemainingIsZeroWhenTheLastWeekAlreadyExceeded) {
  Forecast f = Flat(20, 3);
  EXPECT_EQ(TimeRemainingDays(f, {{96, 31}}, 30, Risk::kAggressive), 0);
  EXPECT_FALSE(TimeRemainingDays(f, {{93, 31}}, 30, Risk::kAggressive)) << "more than a week ago";
  f.peak_days = {96};
  EXPECT_FALSE(TimeRemainingDays(f, {{96, 31}}, 30, Risk::kAggressive)) << "a peak day is not the series";
}

TEST(CapacityTest, CapacityRemainingIsTheGapOverTheNextThreeDays) {
  Forecast f = Flat(20, 4);
  f.days[2].mid = 27;   // day +3 counts
  f.days[3].mid = 100;  // day +4 does not
  EXPECT_DOUBLE_EQ(*CapacityRemainingPct(f, 30, Risk::kAggressive), 10);
  EXPECT_DOUBLE_EQ(*CapacityRemainingPct(f, 30, Risk::kConservative), 20);  // upper 24
  EXPECT_DOUBLE_EQ(*CapacityRemainingPct(f, 20, Risk::kAggressive), 0);     // floor 0
  EXPECT_FALSE(CapacityRemainingPct(f, 0, Risk::kAggressive));
}

TEST(CapacityTest, RecommendedVcpusCoverTheP95AtTheTargetUtilisation) {
  EXPECT_EQ(RecommendVcpus(2.1, 70, 32, std::nullopt, false).recommended, 3);
  EXPECT_EQ(RecommendVcpus(2.8, 70, 32, std::nullopt, false).recommended, 4);  // exactly 4
  EXPECT_EQ(RecommendVcpus(0.01, 70, 32, std::nullopt, false).recommended, 1);
  EXPECT_EQ(RecommendVcpus(50, 70, 16, std::nullopt, false).recommended, 16);  // the host's cores
  EXPECT_EQ(RecommendVcpus(50, 70, std::nullopt, std::nullopt, false).recommended, 72);
  const VcpuAdvice capped = RecommendVcpus(50, 70, 16, 8, false);
  ASSERT_EQ(capped.hints.size(), 1u);
  EXPECT_NE(capped.hints[0].message.find("more than its host's 16 cores: 16 vCPU(s), it has 8"), std::string::npos)
      << capped.hints[0].message;
}

TEST(CapacityTest, ResizeHintsAndCoStop) {
  VcpuAdvice fewer = RecommendVcpus(1.0, 70, 32, 8, false);
  ASSERT_EQ(fewer.hints.size(), 1u);
  EXPECT_EQ(fewer.hints[0].code, "fewer-vcpus");
  EXPECT_NE(fewer.hints[0].message.find("2 vCPU(s), it has 8"), std::string::npos) << fewer.hints[0].message;
  EXPECT_TRUE(RecommendVcpus(1.0, 70, 32, 2, false).hints.empty());
  VcpuAdvice more = RecommendVcpus(5.0, 70, 32, 4, false);
  ASSERT_EQ(more.hints.size(), 1u);
  EXPECT_EQ(more.hints[0].code, "more-vcpus");
  EXPECT_EQ(more.hints[0].severity, Severity::kWarning);
  VcpuAdvice costop = RecommendVcpus(5.0, 70, 32, 4, true);
  ASSERT_EQ(costop.hints.size(), 1u);
  EXPECT_EQ(costop.hints[0].severity, Severity::kInfo);
  EXPECT_NE(costop.hints[0].message.find("co-stop is high"), std::string::npos);
}

TEST(CapacityTest, RiskNames) {
  EXPECT_EQ(ParseRisk("conservative"), Risk::kConservative);
  EXPECT_EQ(ParseRisk("aggressive"), Risk::kAggressive);
  EXPECT_FALSE(ParseRisk("Conservative"));
  EXPECT_EQ(RiskName(Risk::kAggressive), "aggressive");
}

}  // namespace
}  // namespace vrecon::models
