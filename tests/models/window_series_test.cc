#include "models/window_series.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;

TEST(WindowSeriesTest, StraddlingIntervalSplitsByOverlap) {
  WindowSeries s(WindowGrid{0, 300 * kS, 2});
  s.Add(0, 290 * kS, 10);
  s.Add(290 * kS, 310 * kS, 100);  // half in each window
  s.Add(310 * kS, 600 * kS, 20);
  EXPECT_NEAR(*s.Mean(0), (10.0 * 290 + 100.0 * 10) / 300, 1e-9);
  EXPECT_NEAR(*s.Mean(1), (100.0 * 10 + 20.0 * 290) / 300, 1e-9);
  EXPECT_DOUBLE_EQ(s.Coverage(0), 1.0);
}

TEST(WindowSeriesTest, AddAllEqualsAddPerSampleBitForBit) {
  // 15 s samples across window edges, an instantaneous one, a missing one, ones before and after
  // the grid, unequal lengths, and a jump back into an earlier window.
  std::vector<TimeNs> starts, ends;
  std::vector<double> values;
  auto sample = [&](double a, double b, double v) {
    starts.push_back(static_cast<TimeNs>(a * kS));
    ends.push_back(static_cast<TimeNs>(b * kS));
    values.push_back(v);
  };
  sample(-20, -5, 1);
  sample(-10, 5, 2);
  for (int i = 0; i < 50; ++i) sample(5 + 15 * i, 20 + 15 * i, 0.1 * i + 1.0 / 3);
  sample(400, 400, 99);
  sample(410, 437.5, NAN);
  sample(290, 291, 7);
  sample(880, 910, 3);
  sample(920, 935, 4);
  const WindowGrid grid{0, 300 * kS, 3};
  sample(950, 940, 5);  // ends before it starts: ignored
  for (TimeNs shift : {TimeNs{0}, 7 * kS, -3 * kS}) {
    WindowSeries one(grid), all(grid), planned(grid);
    for (size_t i = 0; i < values.size(); ++i)
      if (!std::isnan(values[i])) one.Add(starts[i] + shift, ends[i] + shift, values[i]);
    all.AddAll(starts, ends, values, shift);
    // A plan made once serves another series of the same times (here: the same values twice,
    // on a series that already holds them once).
    const BlockPlan plan = planned.Plan(starts, ends, shift);
    planned.AddPlanned(plan, starts, ends, values, shift);
    for (int w = 0; w < grid.count; ++w) {
      for (const WindowSeries* x : {&all, &planned}) {
        EXPECT_EQ(x->at(w).weighted_sum, one.at(w).weighted_sum) << w;
        EXPECT_EQ(x->at(w).covered_s, one.at(w).covered_s) << w;
        EXPECT_EQ(x->at(w).max, one.at(w).max) << w;
        EXPECT_EQ(x->at(w).min, one.at(w).min) << w;
        EXPECT_EQ(x->at(w).samples, one.at(w).samples) << w;
      }
    }
    WindowSeries twice(grid);
    twice.AddAll(starts, ends, values, shift);
    twice.AddAll(starts, ends, values, shift);
    planned.AddPlanned(plan, starts, ends, values, shift);
    for (int w = 0; w < grid.count; ++w) {
      EXPECT_EQ(planned.at(w).weighted_sum, twice.at(w).weighted_sum) << w;
      EXPECT_EQ(planned.at(w).samples, twice.at(w).samples) << w;
    }
  }
}

TEST(WindowSeriesTest, CompleteBlocksTakeTheShortRunLoopWithTheSameSums) {
  // 15 s samples (runs of one length) and a 20 s one; `complete` says no value is missing. A
  // NaN in a block that claims to be complete (a damaged count) is still left out.
  std::vector<TimeNs> starts, ends;
  std::vector<double> values;
  for (int i = 0; i < 120; ++i) {
    starts.push_back(i * 15 * kS);
    ends.push_back((i + 1) * 15 * kS + (i == 40 ? 5 * kS : 0));
    values.push_back(std::cos(i * 0.3) * 30 + 40 + 1.0 / 7);
  }
  const WindowGrid grid{0, 300 * kS, 7};
  for (bool damaged : {false, true}) {
    if (damaged) values[65] = NAN;
    for (TimeNs shift : {TimeNs{0}, 11 * kS + 90'000'000}) {
      WindowSeries one(grid), planned(grid);
      for (size_t i = 0; i < values.size(); ++i)
        if (!std::isnan(values[i])) one.Add(starts[i] + shift, ends[i] + shift, values[i]);
      const BlockPlan plan = planned.Plan(starts, ends, shift);
      planned.AddPlanned(plan, starts, ends, values, shift, /*complete=*/true);
      for (int w = 0; w < grid.count; ++w) {
        EXPECT_EQ(planned.at(w).weighted_sum, one.at(w).weighted_sum) << w;
        EXPECT_EQ(planned.at(w).covered_s, one.at(w).covered_s) << w;
        EXPECT_EQ(planned.at(w).max, one.at(w).max) << w;
        EXPECT_EQ(planned.at(w).min, one.at(w).min) << w;
        EXPECT_EQ(planned.at(w).samples, one.at(w).samples) << w;
      }
    }
  }
}

TEST(WindowSeriesTest, PlanGroupsSamplesByWindow) {
  // Four 100 s samples on 300 s windows, shifted by 50 s: [50,150) [150,250) in window 0,
  // [250,350) crosses into window 1, [350,450) in window 1.
  const std::vector<TimeNs> starts = {0, 100 * kS, 200 * kS, 300 * kS};
  const std::vector<TimeNs> ends = {100 * kS, 200 * kS, 300 * kS, 400 * kS};
  const WindowSeries s(WindowGrid{0, 300 * kS, 2});
  const BlockPlan p = s.Plan(starts, ends, 50 * kS);
  ASSERT_EQ(p.runs.size(), 3u);
  EXPECT_EQ(p.runs[0].window, 0);
  EXPECT_EQ(p.runs[0].end - p.runs[0].begin, 2u);
  EXPECT_EQ(p.runs[1].window, BlockPlan::kSplit);
  ASSERT_EQ(p.runs[1].p1 - p.runs[1].p0, 2u);  // 50 s in each window
  EXPECT_EQ(p.pieces[p.runs[1].p0].window, 0);
  EXPECT_DOUBLE_EQ(p.pieces[p.runs[1].p0].secs, 50.0);
  EXPECT_EQ(p.pieces[p.runs[1].p0 + 1].window, 1);
  EXPECT_EQ(p.runs[2].window, 1);
  EXPECT_TRUE(p.runs[0].same_secs);
  EXPECT_DOUBLE_EQ(p.secs[3], 100.0);
}

TEST(WindowSeriesTest, InstantaneousReadingsCountForMinMaxOnly) {
  WindowSeries s(WindowGrid{0, 300 * kS, 1});
  s.Add(10 * kS, 10 * kS, 7);
  EXPECT_FALSE(s.Mean(0).has_value());
  EXPECT_EQ(s.at(0).samples, 1);
  EXPECT_EQ(s.at(0).max, 7);
  EXPECT_DOUBLE_EQ(s.Coverage(0), 0.0);
}

TEST(WindowSeriesTest, GridAlignsToWindowMultiples) {
  const WindowGrid g = WindowGrid::Covering(301 * kS, 901 * kS, 300 * kS);
  EXPECT_EQ(g.origin, 300 * kS);
  EXPECT_EQ(g.count, 3);  // 300-600, 600-900, 900-1200
  EXPECT_EQ(WindowGrid::Covering(0, 600 * kS, 300 * kS).count, 2);
}

TEST(WindowSeriesTest, DataOutsideTheGridIsIgnored) {
  WindowSeries s(WindowGrid{300 * kS, 300 * kS, 1});
  s.Add(0, 300 * kS, 50);
  s.Add(600 * kS, 900 * kS, 50);
  EXPECT_FALSE(s.Mean(0).has_value());
}

}  // namespace
}  // namespace vrecon::models
