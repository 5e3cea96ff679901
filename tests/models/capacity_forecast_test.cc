// The capacity forecast (models/capacity_forecast.h) on daily series with a known future: linear
// growth, flat and declining load, a level step, a weekly profile, month-end peaks, gaps and too
// little history.
#include "models/capacity_forecast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "models/capacity.h"
#include "src/core/time_util.h"

namespace vrecon::models {
namespace {

const int64_t kStart = DaysFromCivil(2026, 1, 5);  // a Monday

// The weekly profile of an office estate: Monday to Friday busier, Wednesday the busiest.
double Weekly(int64_t day) {
  static constexpr double kByWeekday[7] = {-1.5, 0.5, 0.5, 1.0, 0.5, 0.5, -1.5};  // Sunday first
  return kByWeekday[WeekdayOf(day)];
}

// `days` days from kStart of truth(t) plus Gaussian noise of `noise` cores.
std::vector<DailyDemand> Series(int days, const std::function<double(int64_t, int)>& truth, double noise,
                                unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0, noise);
  std::vector<DailyDemand> out;
  for (int t = 0; t < days; ++t) out.push_back({kStart + t, truth(kStart + t, t) + n(rng)});
  return out;
}

// The first day after `as_of` on which the noise-free truth exceeds `usable`, in days.
std::optional<int> TrueCrossing(const std::function<double(int64_t, int)>& truth, int days, double usable) {
  for (int h = 1; h <= 365; ++h)
    if (truth(kStart + days - 1 + h, days - 1 + h) > usable) return h;
  return std::nullopt;
}

TEST(CapacityForecastTest, LinearGrowthCrossesWhereTheTruthDoes) {
  const auto truth = [](int64_t day, int t) { return 10 + 0.05 * t + Weekly(day); };
  const auto history = Series(180, truth, 0.3);
  const Forecast f = ForecastDemand(history);
  ASSERT_TRUE(f.sufficient) << f.model;
  EXPECT_TRUE(f.trend);
  EXPECT_TRUE(f.weekly);
  EXPECT_NEAR(f.slope_per_day, 0.05, 0.005);
  EXPECT_FALSE(f.step_day) << f.model;
  EXPECT_TRUE(f.peak_days.empty()) << f.model;
  const std::optional<int> want = TrueCrossing(truth, 180, 30);
  ASSERT_TRUE(want);
  const std::optional<int> mid = TimeRemainingDays(f, history, 30, Risk::kAggressive);
  const std::optional<int> upper = TimeRemainingDays(f, history, 30, Risk::kConservative);
  ASSERT_TRUE(mid && upper);
  EXPECT_LE(std::abs(*mid - *want), std::max(7.0, 0.15 * *want)) << *mid << " vs " << *want;
  EXPECT_LE(*upper, *mid);
  // The band holds the truth a month out.
  const ForecastDay& d30 = f.days[29];
  EXPECT_LE(d30.lower, truth(d30.day, 179 + 30));
  EXPECT_GE(d30.upper, truth(d30.day, 179 + 30));
}

TEST(CapacityForecastTest, FlatLoadHasNoTrendAndNoCrossing) {
  const auto history = Series(
      180, [](int64_t day, int) { return 20 + Weekly(day); }, 0.5);
  const Forecast f = ForecastDemand(history);
  ASSERT_TRUE(f.sufficient);
  EXPECT_FALSE(f.trend) << f.model;
  EXPECT_EQ(f.slope_per_day, 0);
  EXPECT_NEAR(f.days.back().mid, 20 + Weekly(f.days.back().day), 0.5);
  EXPECT_FALSE(TimeRemainingDays(f, history, 26, Risk::kAggressive));
  EXPECT_FALSE(TimeRemainingDays(f, history, 26, Risk::kConservative));
}

TEST(CapacityForecastTest, DecliningLoadNeverCrosses) {
  const auto history = Series(
      120, [](int64_t day, int t) { return 25 - 0.03 * t + Weekly(day); }, 0.3);
  const Forecast f = ForecastDemand(history);
  ASSERT_TRUE(f.sufficient);
  EXPECT_TRUE(f.trend);
  EXPECT_LT(f.slope_per_day, 0);
  EXPECT_FALSE(TimeRemainingDays(f, history, 26.5, Risk::kAggressive));
  EXPECT_FALSE(TimeRemainingDays(f, history, 26.5, Risk::kConservative));
  for (const ForecastDay& d : f.days) EXPECT_GE(d.lower, 0);  // demand never forecast below zero
}

// A new workload from day 120 on: the level after the step is what goes on, not a trend fitted
// through both levels.
TEST(CapacityForecastTest, ALevelStepIsFoundAndTheNewLevelGoesOn) {
  const auto truth = [](int64_t day, int t) { return (t < 120 ? 10.0 : 18.0) + 0.01 * t + Weekly(day); };
  const auto history = Series(160, truth, 0.4);
  const Forecast f = ForecastDemand(history);
  ASSERT_TRUE(f.sufficient);
  ASSERT_TRUE(f.step_day) << f.model;
  EXPECT_NEAR(static_cast<double>(*f.step_day - kStart), 120, 1);
  EXPECT_NEAR(f.step_cores, 8, 0.5);
  for (int h : {1, 30, 90}) {
    const ForecastDay& d = f.days[static_cast<size_t>(h - 1)];
    EXPECT_NEAR(d.mid, truth(d.day, 159 + h), 1.0) << "day +" << h;
  }
  EXPECT_NE(f.model.find("level step from 2026-05-05"), std::string::npos) << f.model;
}

TEST(CapacityForecastTest, TheBusiestWeekdayRunsOutFirst) {
  const auto truth = [](int64_t day, int t) { return 10 + 0.04 * t + (WeekdayOf(day) == 3 ? 3.0 : 0.0); };
  const auto history = Series(150, truth, 0.3);
  const Forecast f = ForecastDemand(history);
  const std::optional<int> mid = TimeRemainingDays(f, history, 22, Risk::kAggressive);
  ASSERT_TRUE(mid);
  EXPECT_EQ(WeekdayOf(f.as_of_day + *mid), 3) << "a Wednesday";
  EXPECT_LE(std::abs(*mid - *TrueCrossing(truth, 150, 22)), 7);
}

bool MonthEnd(int64_t day) {
  const CivilTime c = CivilFromNs(day * 86400 * kNsPerSec);
  return c.day == DaysInMonth(c.year, c.month);
}

// A month-end batch at 2.5 times the regular load: peaks, not trend; forecast on their own.
TEST(CapacityForecastTest, MonthEndPeaksAreLeftOutAndForecastOnTheirOwn) {
  const auto truth = [](int64_t day, int) { return (MonthEnd(day) ? 25.0 : 10.0) + (MonthEnd(day) ? 0 : Weekly(day)); };
  const auto history = Series(200, truth, 0.3);
  const Forecast f = ForecastDemand(history);
  ASSERT_TRUE(f.sufficient);
  EXPECT_FALSE(f.trend) << f.model;
  EXPECT_EQ(f.peak_days.size(), 6u) << f.model;  // January to June
  for (int64_t d : f.peak_days) EXPECT_TRUE(MonthEnd(d));
  ASSERT_TRUE(f.recurring_peak);
  EXPECT_EQ(f.recurring_peak->rule, "month-end");
  EXPECT_EQ(f.recurring_peak->from_end, 0);
  ASSERT_FALSE(f.peak_days_ahead.empty());
  for (const ForecastDay& d : f.peak_days_ahead) {
    EXPECT_TRUE(MonthEnd(d.day));
    EXPECT_NEAR(d.mid, 25, 2);
  }
  EXPECT_NEAR(f.days[20].mid, 10 + Weekly(f.days[20].day), 0.5);
  EXPECT_FALSE(TimeRemainingDays(f, history, 20, Risk::kConservative));
  EXPECT_EQ(PeakTimeRemainingDays(f, history, 20, Risk::kAggressive), 0);  // the last month-end did
  EXPECT_FALSE(PeakTimeRemainingDays(f, history, 30, Risk::kAggressive));
  EXPECT_NE(f.model.find("recurring: month-end"), std::string::npos) << f.model;
}

TEST(CapacityForecastTest, ASinglePeakDayIsLeftOutButDoesNotRecur) {
  const auto truth = [](int64_t day, int t) { return t == 90 ? 40.0 : 12 + Weekly(day); };
  const auto history = Series(120, truth, 0.3);
  const Forecast f = ForecastDemand(history);
  ASSERT_TRUE(f.sufficient);
  EXPECT_EQ(f.peak_days, (std::vector<int64_t>{kStart + 90}));
  EXPECT_FALSE(f.recurring_peak);
  EXPECT_FALSE(PeakTimeRemainingDays(f, history, 20, Risk::kConservative));
  EXPECT_FALSE(TimeRemainingDays(f, history, 20, Risk::kConservative));
}

// Days without data are absent, not zero: the level is that of the days there are.
TEST(CapacityForecastTest, MissingDaysAreNotZero) {
  auto history = Series(
      150, [](int64_t day, int t) { return 15 + 0.02 * t + Weekly(day); }, 0.3);
  std::erase_if(history, [](const DailyDemand& d) { return (d.day - kStart) % 3 == 1; });
  history.push_back({kStart + 151, std::nan("")});
  const Forecast f = ForecastDemand(history);
  ASSERT_TRUE(f.sufficient);
  EXPECT_EQ(f.history_days, 100);
  EXPECT_EQ(f.as_of_day, kStart + 149);
  EXPECT_NEAR(f.days[0].mid, 15 + 0.02 * 150 + Weekly(f.days[0].day), 0.6);
}

TEST(CapacityForecastTest, TooLittleHistoryGivesNoForecast) {
  const auto history = Series(
      20, [](int64_t, int t) { return 10 + t; }, 0.1);
  const Forecast f = ForecastDemand(history);
  EXPECT_FALSE(f.sufficient);
  EXPECT_EQ(f.history_days, 20);
  EXPECT_TRUE(f.days.empty());
  EXPECT_EQ(f.model, "none: 20 day(s) of history, 21 needed");
  EXPECT_FALSE(TimeRemainingDays(f, history, 5, Risk::kConservative));
  EXPECT_FALSE(CapacityRemainingPct(f, 50, Risk::kConservative));
  EXPECT_FALSE(ForecastDemand({}).sufficient);
  EXPECT_EQ(ForecastDemand({}).model, "none: 0 day(s) of history, 21 needed");
}

TEST(CapacityForecastTest, WeekdaysCountFromSunday) {
  EXPECT_EQ(WeekdayOf(0), 4);  // 1970-01-01, a Thursday
  EXPECT_EQ(WeekdayOf(kStart), 1);
  EXPECT_EQ(WeekdayOf(-1), 3);
}

}  // namespace
}  // namespace vrecon::models
