// The interval arithmetic of models/interval.h (issue 14 part 5).
#include "models/interval.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;

// One window of 300 s holding `values` in 15 s samples from `from_s`.
WindowStats Samples(const std::vector<double>& values, int from_s = 0, int step_s = 15) {
  WindowSeries s(WindowGrid{0, 300 * kS, 1});
  int t = from_s;
  for (double v : values) {
    s.Add(t * kS, (t + step_s) * kS, v);
    t += step_s;
  }
  return s.at(0);
}

TEST(IntervalTest, FlatSamplesGiveTheBinomialFloor) {
  const WindowStats st = Samples(std::vector<double>(20, 25));
  const MeanError e = TickMeanError(st, 300, 200, 128);  // 2 vCPUs: 128 ticks/s, full scale 200
  const double n = 128.0 * 300, p = (0.125 * n + 2) / (n + 4);
  EXPECT_NEAR(e.variance, 200 * 200 * p * (1 - p) / (n + 4), 1e-12);
  EXPECT_GE(e.df, 1e6);  // not estimated: z, not t
}

TEST(IntervalTest, ScatterAboveBinomialIsUsedWithItsDegreesOfFreedom) {
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(i % 2 ? 35 : 15);
  const MeanError e = TickMeanError(Samples(v), 300, 200, 128);
  EXPECT_NEAR(e.variance, 20.0 * 20.0 / 2 / 20, 1e-12);
  EXPECT_EQ(e.df, 19);
}

TEST(IntervalTest, TheAbsentRestOfTheWindowIsAnExactZero) {
  std::vector<double> v;
  for (int i = 0; i < 4; ++i) v.push_back(i % 2 ? 60 : 40);
  const MeanError part = TickMeanError(Samples(v), 300, 100, 64);
  // 60 of 300 s: the present mean's variance (20^2/2/4 = 50) scaled by (60/300)^2.
  EXPECT_NEAR(part.variance, 50 * 0.04, 1e-12);
  // One 15 s sample at each end unseen, at the present rate 50: 30 s x 50 / 300 s.
  EXPECT_NEAR(UnseenEdges(Samples(v), 300), 5.0, 1e-12);
  EXPECT_EQ(UnseenEdges(Samples(std::vector<double>(20, 50)), 300), 0);
}

TEST(IntervalTest, StudentQuantileApproachesTheTable) {
  EXPECT_NEAR(T95(3), 3.182, 0.005);
  EXPECT_NEAR(T95(10), 2.228, 0.001);
  EXPECT_NEAR(T95(19), 2.093, 0.001);
  EXPECT_NEAR(T95(1e9), 1.959964, 1e-6);
}

TEST(IntervalTest, HostEdgesCountOnlyWhereTheWindowCutsASample) {
  std::vector<double> v;
  for (int i = 0; i < 5; ++i) v.push_back(i % 2 ? 60 : 40);
  // 60 s samples on the window's edges: nothing cut.
  EXPECT_EQ(HostEdgeRelVariance(Samples(v, 0, 60), 48, 60, 300), 0);
  // Samples from 30 s: the first and last are cut by the edges.
  const WindowStats cut = Samples({50, 40, 60, 40, 60, 50}, -30, 60);
  EXPECT_GT(HostEdgeRelVariance(cut, 50, 60, 300), 0);
}

TEST(IntervalTest, CorrectedIntervalScalesAndWidensOnlyUpwardForUnseenCpu) {
  const MeanError e{4.0, 1e9};
  const CiBounds a = CorrectedInterval(2.0, 10, e, 0.0);
  EXPECT_NEAR(a.lo, 20 - 1.959964 * 4, 1e-9);
  EXPECT_NEAR(a.hi, 20 + 1.959964 * 4, 1e-9);
  const CiBounds b = CorrectedInterval(2.0, 10, e, 0.01, 3);
  const double half = 1.959964 * 2 * std::sqrt(4 + 100 * 0.01);
  EXPECT_NEAR(b.lo, 20 - half, 1e-9);
  EXPECT_NEAR(b.hi, 20 + half + 6, 1e-9);
  EXPECT_EQ(CorrectedInterval(1.0, 0.1, MeanError{1.0, 1e9}, 0).lo, 0);  // never below zero
}

TEST(IntervalTest, ShiftVarianceGrowsWithTheShiftAndTheScatter) {
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(i % 2 ? 60 : 40);
  const WindowStats st = Samples(v);
  EXPECT_EQ(ShiftVariance(st, 0, 300), 0);
  EXPECT_NEAR(ShiftVariance(st, 30, 300), 2 * 0.01 * 200, 1e-9);
  EXPECT_EQ(ShiftVariance(Samples(std::vector<double>(20, 50)), 30, 300), 0);
}

// A 2-vCPU VM stalled half its busy time: 100 vCPU-percent busy over 300 s is 300 vCPU-seconds, 150
// of them stalled; a process with half the busy time gets a binomial half of the stalls, of 0.1 s
// each in effect: var = 0.25 x 150 x 0.1 s^2 = 3.75 s^2, (100 / 300)^2 of it in % of one CPU.
TEST(IntervalTest, StallAttributionVarianceIsTheStallsDrawnByThread) {
  EXPECT_NEAR(StallAttributionVariance(50, 50, 2, 0.5, 300, 0.1), 3.75 * (100.0 / 300) * (100.0 / 300), 1e-9);
  EXPECT_EQ(StallAttributionVariance(50, 50, 2, 1.0, 300, 0.1), 0);   // no stall in the busy time
  EXPECT_EQ(StallAttributionVariance(50, 50, 2, 1.2, 300, 0.1), 0);   // host overhead, not stalls
  EXPECT_EQ(StallAttributionVariance(100, 50, 2, 0.5, 300, 0.1), 0);  // the only busy process: all of it
  EXPECT_EQ(StallAttributionVariance(0, 50, 2, 0.5, 300, 0.1), 0);
}

}  // namespace
}  // namespace vrecon::models
