#include "models/alignment_grid.h"

#include "models/lag_correlation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;
constexpr TimeNs kT0 = 1'790'000'000 * kS;

std::vector<double> Cells(const std::vector<CellRun>& runs) {
  std::vector<double> out;
  for (const CellRun& r : runs)
    for (int k = r.start; k < r.end; ++k) out.push_back(r.value);
  return out;
}

// Samples of about 15 s with boundaries off the whole second, some missing (unless `all`), one
// of no length.
std::vector<TimedValue> JitteredSamples(unsigned seed, bool all = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<TimedValue> s;
  TimeNs t = kT0 - 40 * kS;
  for (int i = 0; i < 300; ++i) {
    const TimeNs len = static_cast<TimeNs>((15 + (u(rng) - 0.5) * 2) * kS);
    if (u(rng) > 0.1 || all) s.push_back({t, t + len, 100 * u(rng)});
    if (i == 50) s.push_back({t + len, t + len, 99});
    t += len;
  }
  return s;
}

// Pearson r of guest[k] and host[k + shift] over cells where both have a value, as defined.
double NaivePearson(const std::vector<double>& g, const std::vector<double>& h, int shift) {
  double sg = 0, sh = 0, sgg = 0, shh = 0, sgh = 0;
  int n = 0;
  for (int k = 0; k < static_cast<int>(g.size()); ++k) {
    const int j = k + shift;
    if (j < 0 || j >= static_cast<int>(h.size()) || std::isnan(g[k]) || std::isnan(h[j])) continue;
    sg += g[k], sh += h[j], sgg += g[k] * g[k], shh += h[j] * h[j], sgh += g[k] * h[j], ++n;
  }
  if (n < 8) return NAN;
  return (sgh - sg * sh / n) / std::sqrt((sgg - sg * sg / n) * (shh - sh * sh / n));
}

TEST(AlignmentGridTest, WholeSamplesBecomeOneRunEach) {
  std::vector<TimedValue> s;
  s.reserve(8);
  for (int i = 0; i < 8; ++i) s.push_back({kT0 + i * 15 * kS, kT0 + (i + 1) * 15 * kS, 10.0 + i});
  const std::vector<CellRun> runs = OnGridRuns(s, Disjoint(s), kT0, kS, 120);
  ASSERT_EQ(runs.size(), 8u);
  EXPECT_EQ(runs[3].start, 45);
  EXPECT_EQ(runs[3].end, 60);
  EXPECT_EQ(runs[3].value, 13.0);
}

TEST(AlignmentGridTest, SampleBySampleRunsEqualTheCellByCellGrid) {
  const std::vector<TimedValue> s = JitteredSamples(3);
  ASSERT_TRUE(Disjoint(s));
  const int n = 3600;
  const std::vector<double> fast = Cells(OnGridRuns(s, true, kT0, kS, n));
  const std::vector<double> dense = Cells(OnGridRuns(s, false, kT0, kS, n));
  ASSERT_EQ(fast.size(), static_cast<size_t>(n));
  ASSERT_EQ(dense.size(), static_cast<size_t>(n));
  int empty = 0;
  for (int k = 0; k < n; ++k) {
    if (std::isnan(dense[k])) {
      EXPECT_TRUE(std::isnan(fast[k])) << k;
      ++empty;
    } else {
      EXPECT_EQ(fast[k], dense[k]) << k;  // same sums in the same order
    }
  }
  EXPECT_GT(empty, 0);  // the missing samples left cells without a value
}

TEST(AlignmentGridTest, SamplesOfWholeCellsOffTheGridEqualTheCellByCellGrid) {
  // Equal lengths of whole cells starting 0.3 s into a cell (the cell of each end is carried
  // over from the sample before), then one a little longer and a gap.
  std::vector<TimedValue> s;
  TimeNs t = kT0 + kS * 3 / 10;
  for (int i = 0; i < 40; ++i, t += 15 * kS) s.push_back({t, t + 15 * kS, 10.0 + i % 7});
  s.push_back({t, t + 15 * kS + kS / 4, 50});
  t += 40 * kS;
  for (int i = 0; i < 20; ++i, t += 20 * kS) s.push_back({t, t + 20 * kS, 30.0 + i % 5});
  ASSERT_TRUE(Disjoint(s));
  const std::vector<double> fast = Cells(OnGridRuns(s, true, kT0, kS, 1100));
  const std::vector<double> dense = Cells(OnGridRuns(s, false, kT0, kS, 1100));
  ASSERT_EQ(fast.size(), dense.size());
  for (size_t k = 0; k < fast.size(); ++k) {
    if (std::isnan(dense[k])) {
      EXPECT_TRUE(std::isnan(fast[k])) << k;
    } else {
      EXPECT_EQ(fast[k], dense[k]) << k;
    }
  }
}

TEST(AlignmentGridTest, PartlyCoveredCellNeedsHalfItsLength) {
  const std::vector<TimedValue> s = {{kT0, kT0 + 10 * kS + kS * 4 / 10, 20},
                                     {kT0 + 12 * kS + kS / 2, kT0 + 20 * kS, 40}};
  const std::vector<double> c = Cells(OnGridRuns(s, Disjoint(s), kT0, kS, 20));
  EXPECT_EQ(c[9], 20);
  EXPECT_TRUE(std::isnan(c[10]));  // 0.4 s covered
  EXPECT_TRUE(std::isnan(c[11]));
  EXPECT_EQ(c[12], 40);  // 0.5 s covered
  EXPECT_EQ(c[13], 40);
}

TEST(AlignmentGridTest, OverlappingSamplesAreAveraged) {
  const std::vector<TimedValue> s = {{kT0, kT0 + 60 * kS, 30}, {kT0 + 30 * kS, kT0 + 90 * kS, 50}};
  EXPECT_FALSE(Disjoint(s));
  const std::vector<double> c = Cells(OnGridRuns(s, false, kT0, kS, 100));
  EXPECT_EQ(c[10], 30);
  EXPECT_EQ(c[45], 40);
  EXPECT_EQ(c[80], 50);
  EXPECT_TRUE(std::isnan(c[95]));
}

TEST(AlignmentGridTest, CoarseCellsAverageTheirCellsWithMoreThanHalfValid) {
  const std::vector<TimedValue> s = JitteredSamples(5);
  const std::vector<CellRun> fine = OnGridRuns(s, true, kT0, kS, 1000);
  const std::vector<double> f = Cells(fine), c = Cells(CoarsenRuns(fine, 5, 1000));
  ASSERT_EQ(c.size(), 200u);
  for (int i = 0; i < 200; ++i) {
    double sum = 0;
    int valid = 0;
    for (int j = 0; j < 5; ++j)
      if (!std::isnan(f[i * 5 + j])) sum += f[i * 5 + j], ++valid;
    if (2 * valid > 5) {
      EXPECT_NEAR(c[i], sum / valid, 1e-12) << i;
    } else {
      EXPECT_TRUE(std::isnan(c[i])) << i;
    }
  }
}

TEST(AlignmentGridTest, StdDevOfRunsIsThatOfTheirCells) {
  const std::vector<CellRun> runs = {{0, 3, 10}, {3, 5, NAN}, {5, 6, 16}};
  EXPECT_NEAR(Stats(runs).StdDev(), std::sqrt(((10 - 11.5) * (10 - 11.5) * 3 + 4.5 * 4.5) / 3), 1e-12);
  EXPECT_EQ(Stats({{0, 1, 5}}).StdDev(), 0);
}

TEST(LagCorrelationTest, EveryShiftMatchesThePearsonDefinition) {
  // Guest and host each complete or with empty cells (the host starting late): At and
  // AtConsecutive both, on every path.
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    const std::vector<CellRun> g = OnGridRuns(JitteredSamples(seed, seed >= 3), true, kT0, kS, 2000);
    std::vector<TimedValue> hs;
    std::mt19937 rng(seed + 10);
    std::uniform_real_distribution<double> u(0, 100);
    const TimeNs h0 = kT0 - 180 * kS + (seed % 2 == 0 ? 300 * kS : 0);  // even seeds: the host starts late
    for (TimeNs t = h0; t < kT0 + 2200 * kS; t += 20 * kS) hs.push_back({t, t + 20 * kS, u(rng)});
    const std::vector<CellRun> h = OnGridRuns(hs, true, kT0 - 180 * kS, kS, 2360);
    const std::vector<double> gc = Cells(g), hc = Cells(h);
    const LagCorrelator corr(g, h);
    std::vector<double> batch(400);
    corr.AtConsecutive(-20, 400, batch.data());
    for (int shift = -20; shift < 380; ++shift) {
      const double want = NaivePearson(gc, hc, shift);
      EXPECT_NEAR(corr.At(shift), want, 1e-9) << seed << " " << shift;
      EXPECT_NEAR(batch[shift + 20], want, 1e-9) << seed << " " << shift;
    }
  }
}

TEST(LagCorrelationTest, ResetGivesTheValuesOfANewCorrelator) {
  // One correlator reset on grids of other sizes, with and without empty cells, in the memory
  // of the last: the same values to the bit as a correlator made for each, however many lags a
  // call asks for (each lag's sums are the same whatever the lags beside it).
  LagCorrelator reused;
  for (unsigned seed : {3u, 1u, 4u, 2u}) {
    const int n = seed % 2 == 0 ? 1200 : 2000;
    const std::vector<CellRun> g = OnGridRuns(JitteredSamples(seed, seed >= 3), true, kT0, kS, n);
    std::vector<TimedValue> hs;
    std::mt19937 rng(seed + 10);
    std::uniform_real_distribution<double> u(0, 100);
    for (TimeNs t = kT0 - 180 * kS; t < kT0 + (n + 200) * kS; t += 20 * kS) hs.push_back({t, t + 20 * kS, u(rng)});
    const std::vector<CellRun> h = OnGridRuns(hs, true, kT0 - 180 * kS, kS, n + 360);
    reused.Reset(g, Stats(g), h, Stats(h));
    std::vector<double> b(400);
    LagCorrelator(g, h).AtConsecutive(-5, 400, b.data());
    for (int count : {1, 3, 7, 8, 13, 16, 17, 40, 400}) {
      std::vector<double> a(count);
      reused.AtConsecutive(-5, count, a.data());
      for (int i = 0; i < count; ++i) {
        if (std::isnan(b[i])) {
          EXPECT_TRUE(std::isnan(a[i])) << seed << " " << count << " " << i;
        } else {
          EXPECT_EQ(a[i], b[i]) << seed << " " << count << " " << i;
        }
      }
    }
  }
}

TEST(LagCorrelationTest, CompleteGridsFindTheTrueLag) {
  // A host series and the guest = the host 37 cells later: r = 1 at shift 37, not elsewhere.
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(0, 100);
  std::vector<CellRun> h;
  for (int k = 0; k < 600; k += 5) h.push_back({k, k + 5, u(rng)});
  std::vector<CellRun> g;
  for (int k = 0; k < 400; ++k) {
    const double v = h[(k + 37) / 5].value;
    if (g.empty() || g.back().value != v) g.push_back({k, k + 1, v});
    else g.back().end = k + 1;
  }
  std::vector<double> r(201);
  LagCorrelator(g, h).AtConsecutive(0, 201, r.data());
  EXPECT_NEAR(r[37], 1.0, 1e-12);
  for (int s = 0; s <= 200; ++s) {
    if (s != 37) {
      EXPECT_LT(r[s], 0.999) << s;
    }
  }
}

}  // namespace
}  // namespace vrecon::models
