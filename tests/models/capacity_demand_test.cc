// Demand for capacity (models/capacity_demand.h): run + ready in cores per 5-minute bin, each
// day's p95, the p95 since a time.
#include "models/capacity_demand.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;
const TimeNs kNov2 = DaysFromCivil(2026, 11, 2) * 86400 * kS;

// 20 s samples (vSphere realtime) of `pct` from `from` for `count` samples.
std::vector<Interval> Samples(TimeNs from, int count, double pct, TimeNs step = 20 * kS) {
  std::vector<Interval> v;
  for (int i = 0; i < count; ++i) v.push_back({from + i * step, from + (i + 1) * step, pct});
  return v;
}

TEST(CapacityDemandTest, RunPlusReadyInCoresPerFiveMinutes) {
  // Two vCPUs 75% run each (150%) and 10% ready: 1.6 cores.
  const auto bins = FiveMinuteDemand(Samples(kNov2, 30, 150), Samples(kNov2, 30, 10));
  ASSERT_EQ(bins.size(), 2u);
  EXPECT_EQ(bins[0].start, kNov2);
  EXPECT_EQ(bins[1].start, kNov2 + 300 * kS);
  EXPECT_DOUBLE_EQ(bins[0].cores, 1.6);
  EXPECT_DOUBLE_EQ(bins[1].cores, 1.6);
}

TEST(CapacityDemandTest, WithoutReadyDemandIsRunAlone) {
  const auto bins = FiveMinuteDemand(Samples(kNov2, 15, 250), {});
  ASSERT_EQ(bins.size(), 1u);
  EXPECT_DOUBLE_EQ(bins[0].cores, 2.5);
}

// A sample across two bins weighs on each by its overlap; a bin run covers under half of is
// missing, not low.
TEST(CapacityDemandTest, SamplesSpreadByOverlapAndHalfCoveredBinsAreLeftOut) {
  std::vector<Interval> run = Samples(kNov2 + 200 * kS, 10, 100);  // 200 s to 400 s
  run.push_back({kNov2 + 280 * kS, kNov2 + 320 * kS, 300});        // 20 s in each bin
  auto bins = FiveMinuteDemand(run, {});
  EXPECT_TRUE(bins.empty()) << "bin 0 has 100+20 s, bin 1 has 100+20 s of run: under half each";
  run = Samples(kNov2, 8, 100);                              // 0-160 s at 1 core
  run.push_back({kNov2 + 160 * kS, kNov2 + 460 * kS, 200});  // 160-460 s at 2 cores
  bins = FiveMinuteDemand(run, {});
  ASSERT_EQ(bins.size(), 2u);
  EXPECT_NEAR(bins[0].cores, (160 * 1.0 + 140 * 2.0) / 300, 1e-12);
  EXPECT_NEAR(bins[1].cores, 2.0, 1e-12);  // 160 s of the bin covered: more than half
  run.push_back({kNov2 + 600 * kS, kNov2 + 620 * kS, std::nan("")});
  EXPECT_EQ(FiveMinuteDemand(run, {}).size(), 2u) << "a value that is not a number covers nothing";
}

TEST(CapacityDemandTest, PartsAreSummedWhereEveryPartHasTheBin) {
  const std::vector<DemandBin> vp0 = {{kNov2, 0.5}, {kNov2 + 300 * kS, 0.25}};
  const std::vector<DemandBin> vp1 = {{kNov2 + 300 * kS, 1.0}, {kNov2 + 600 * kS, 1.0}};
  const auto sum = SumOfParts({vp0, vp1});
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(sum[0].start, kNov2 + 300 * kS);
  EXPECT_DOUBLE_EQ(sum[0].cores, 1.25);
  EXPECT_EQ(SumOfParts({vp0}).size(), 2u);
  EXPECT_TRUE(SumOfParts({}).empty());
}

// Each bin remembers the longest sample it was read from: how a day of rollups is told from a day
// of 5-minute data (models/capacity_rollups.h).
TEST(CapacityDemandTest, ABinKeepsTheLongestSampleItWasReadFromThroughSums) {
  std::vector<Interval> run = Samples(kNov2, 15, 100);        // bin 0: 20 s samples
  run.push_back({kNov2 + 300 * kS, kNov2 + 2100 * kS, 100});  // bins 1-6: one 30-minute rollup
  const auto bins = FiveMinuteDemand(run, {});
  ASSERT_EQ(bins.size(), 7u);
  EXPECT_EQ(bins[0].sample_s, 20);
  EXPECT_EQ(bins[1].sample_s, 1800);
  EXPECT_EQ(bins[6].sample_s, 1800);
  const std::vector<DemandBin> a = {{kNov2, 1, 20}}, b = {{kNov2, 1, 7200}};
  EXPECT_EQ(SumOfParts({a, b}).front().sample_s, 7200);
  EXPECT_EQ(SumOfMembers({a, b}).front().sample_s, 7200);
}

// A backfill at statistics level 1: 2-hour rollups of usage x vCPUs, no run; then realtime with
// both, where run is 0.8 of usage x vCPUs (a turbo clock). Run stands where it is; the rollups
// fill its gap, scaled by 0.8.
TEST(CapacityDemandTest, RunsGapsAreFilledFromUsageScaledToRun) {
  std::vector<Interval> usage = Samples(kNov2, 2, 100, 7200 * kS);                 // 00:00-04:00
  const std::vector<Interval> realtime = Samples(kNov2 + 4 * 3600 * kS, 90, 150);  // 30 minutes
  usage.insert(usage.end(), realtime.begin(), realtime.end());
  const std::vector<Interval> run = Samples(kNov2 + 4 * 3600 * kS, 90, 120);
  const std::vector<Interval> filled = FilledFrom(run, usage);
  ASSERT_EQ(filled.size(), 92u);
  EXPECT_EQ(filled[0].start, kNov2);
  EXPECT_DOUBLE_EQ(filled[0].value, 80);
  EXPECT_DOUBLE_EQ(filled[1].value, 80);
  for (size_t i = 2; i < filled.size(); ++i) EXPECT_DOUBLE_EQ(filled[i].value, 120);
  // Nothing in common: the fallback as it is; a usage sample run covers in part is not used.
  EXPECT_DOUBLE_EQ(FilledFrom({}, usage).front().value, 100);
  const std::vector<Interval> part = {{kNov2, kNov2 + 600 * kS, 100}};
  EXPECT_EQ(FilledFrom(Samples(kNov2, 1, 50), part).size(), 1u);
}

TEST(CapacityDemandTest, DailyP95OfTheBinsByUtcDay) {
  std::vector<DemandBin> bins;
  for (int i = 0; i < 100; ++i) bins.push_back({kNov2 + i * 300 * kS, static_cast<double>(i + 1)});
  for (int i = 0; i < 5; ++i) bins.push_back({kNov2 + 86400 * kS + i * 300 * kS, 50.0});  // too few
  const auto days = DailyP95(bins);
  ASSERT_EQ(days.size(), 1u);
  EXPECT_EQ(days[0].day, DaysFromCivil(2026, 11, 2));
  EXPECT_DOUBLE_EQ(days[0].cores, 95);  // nearest rank of 1..100
  EXPECT_EQ(DailyP95(bins, 5).size(), 2u);
}

TEST(CapacityDemandTest, P95SinceATime) {
  std::vector<DemandBin> bins;
  for (int i = 0; i < 40; ++i) bins.push_back({kNov2 + i * 300 * kS, i < 20 ? 100.0 : static_cast<double>(i - 19)});
  EXPECT_DOUBLE_EQ(*P95Since(bins, kNov2 + 20 * 300 * kS), 19);  // ranks 1..20: the 19th
  EXPECT_DOUBLE_EQ(*P95Since(bins, kNov2), 100);
  EXPECT_FALSE(P95Since(bins, kNov2 + 86400 * kS));
}

}  // namespace
}  // namespace vrecon::models
