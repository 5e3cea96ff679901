// The ratio a VM's 5-minute days show between their p95 and that of their rollups
// (models/capacity_rollups.h).
#include "models/capacity_rollups.h"

#include <gtest/gtest.h>

#include <functional>

namespace vrecon::models {
namespace {

// A day of 288 values (thousandths of a core) from `value(index)`, those `keep` says.
DemandDay Day(const std::function<int32_t(int)>& value, const std::function<bool(int)>& keep = nullptr) {
  DemandDay d;
  for (int i = 0; i < kBinsPerDay; ++i)
    if (!keep || keep(i)) d.bins.push_back({i, value(i), -1});
  return d;
}

TEST(RollupScaleTest, TheRatioOfTheFiveMinuteP95ToTheIntervalMeansP95) {
  // Each half hour: five values of 1 core, one of 4. Fine p95 4; any rollup's values are 1.5.
  const DemandDay spiky = Day([](int i) { return i % 6 == 5 ? 4000 : 1000; });
  const RollupScale s = EstimateRollupScale({spiky}, {1800, 7200, 86400});
  EXPECT_EQ(s.fine_values, 288);
  ASSERT_EQ(s.factor.size(), 3u);
  for (const auto& [interval, f] : s.factor) EXPECT_NEAR(f, 4.0 / 1.5, 1e-9) << interval;
}

TEST(RollupScaleTest, ALevelDayNeedsNoScaleAndAnAfternoonPeakMoreTheLongerTheInterval) {
  EXPECT_DOUBLE_EQ(EstimateRollupScale({Day([](int) { return 2000; })}, {1800}).factor.at(1800), 1.0);
  // 2 cores from 12:00 to 14:00, 1 core else: a 30-minute or 2-hour rollup keeps the peak whole,
  // the day's mean (1.083) does not.
  const DemandDay peak = Day([](int i) { return i >= 144 && i < 168 ? 2000 : 1000; });
  const RollupScale s = EstimateRollupScale({peak}, {1800, 7200, 86400});
  EXPECT_DOUBLE_EQ(s.factor.at(1800), 1.0);
  EXPECT_DOUBLE_EQ(s.factor.at(7200), 1.0);
  EXPECT_NEAR(s.factor.at(86400), 2.0 / 1.083, 1e-3);
}

// A day the backfill's levels meet in: its values before fine_from are rollups (here a busy
// morning's 8 cores, which would make every ratio 1) and do not count; nor do too few values.
TEST(RollupScaleTest, OnlyTheFiveMinuteValuesCountAndEnoughOfThem) {
  DemandDay meeting = Day([](int i) { return i < 144 ? 8000 : i % 6 == 5 ? 4000 : 1000; });
  meeting.fine_from = 144;
  const RollupScale alone = EstimateRollupScale({meeting}, {1800});
  EXPECT_EQ(alone.fine_values, 144);
  EXPECT_TRUE(alone.factor.empty()) << "144 values, under " << kMinFineValues;
  DemandDay next = Day([](int i) { return i % 6 == 5 ? 4000 : 1000; });
  next.day = meeting.day + kNsPerDay;
  const RollupScale both = EstimateRollupScale({meeting, next}, {1800, 86400});
  EXPECT_EQ(both.fine_values, 144 + 288);
  EXPECT_NEAR(both.factor.at(1800), 4.0 / 1.5, 1e-9);
  EXPECT_NEAR(both.factor.at(86400), 4.0 / 1.5, 1e-9);
}

TEST(RollupScaleTest, ADayIsScaledForTheShareOfItThatIsRollups) {
  RollupScale scale;
  scale.factor[1800] = 2;
  EXPECT_EQ(DayScale(scale, 300, 0), 1.0);
  EXPECT_EQ(DayScale(scale, 20, 0), 1.0);
  EXPECT_EQ(DayScale(scale, 1800, kBinsPerDay), 2.0);
  EXPECT_EQ(DayScale(scale, 1800, kBinsPerDay / 2), 1.5);
  EXPECT_FALSE(DayScale(scale, 7200, kBinsPerDay)) << "no ratio for 2 hours";
}

TEST(RollupScaleTest, NoRatioFromIdleDaysOrNone) {
  EXPECT_TRUE(EstimateRollupScale({Day([](int) { return 0; })}, {1800}).factor.empty());
  EXPECT_TRUE(EstimateRollupScale({}, {1800}).factor.empty());
}

}  // namespace
}  // namespace vrecon::models
