#include "models/window_series.h"

#include <gtest/gtest.h>

namespace vrecon::models {
namespace {

constexpr TimeNs kS = kNsPerSec;

TEST(WindowSeriesTest, StraddlingIntervalSplitsByOverlap) {
  WindowSeries s(WindowGrid{0, 300 * kS, 2});
  s.Add(0, 290 * kS, 10);
  s.Add(290 * kS, 310 * kS, 100);  // half in each window
  s.Add(310 * kS, 600 * kS, 20);
  EXPECT_NEAR(*s.Mean(0), (10.0 * 290 + 100.0 * 10) / 300, 1e-9);
  EXPECT_NEAR(*s.Mean(1), (100.0 * 10 + 20.0 * 290) / 300, 1e-9);
  EXPECT_DOUBLE_EQ(s.Coverage(0), 1.0);
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
