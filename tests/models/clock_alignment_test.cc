#include "models/clock_alignment.h"

#include "models/interval_flags.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "tests/support/step_load.h"
#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;
constexpr TimeNs kClockT0 = 1'790'000'000 * kS;  // 2026-09-21, a multiple of 300 s

// A utilization that changes level every 20..120 s (seconds since kClockT0, true time).
std::vector<double> Levels(int seconds, unsigned seed) { return vrecon::testing::StepLoad(seconds, seed, 10, 90); }

double MeanOver(const std::vector<double>& u, double a, double b) {
  double s = 0;
  int n = 0;
  for (int t = std::max(0, static_cast<int>(std::floor(a))); t < std::min<int>(u.size(), std::ceil(b)); ++t)
    s += u[t], ++n;
  return n ? s / n : 0;
}

// Host samples every 20 s in true time.
std::vector<TimedValue> Host(const std::vector<double>& u) {
  std::vector<TimedValue> h;
  for (int t = 0; t + 20 <= static_cast<int>(u.size()); t += 20)
    h.push_back({kClockT0 + t * kS, kClockT0 + (t + 20) * kS, MeanOver(u, t, t + 20)});
  return h;
}

// Guest samples every 15 s of guest time; `offset(true_s)` is guest minus true, seconds.
std::vector<TimedValue> Guest(const std::vector<double>& u, const std::function<double(double)>& offset) {
  std::vector<TimedValue> g;
  const double first = offset(0);
  for (double gs = std::ceil(first / 15) * 15 + 15;; gs += 15) {
    // Invert guest = true + offset(true) by fixed-point iteration (offset changes slowly).
    auto truth = [&](double gt) {
      double t = gt - offset(gt);
      for (int i = 0; i < 4; ++i) t = gt - offset(t);
      return t;
    };
    const double a = truth(gs), b = truth(gs + 15);
    if (b >= u.size()) break;
    if (a < 0) continue;
    g.push_back(
        {kClockT0 + static_cast<TimeNs>(gs * kS), kClockT0 + static_cast<TimeNs>((gs + 15) * kS), MeanOver(u, a, b)});
  }
  return g;
}

TEST(ClockAlignmentTest, RecoversKnownOffsetAndDrift) {
  const std::vector<double> u = Levels(6 * 3600, 7);
  const double drift = 200e-6;  // the guest clock gains 0.72 s an hour
  auto off = [&](double t) { return 40.0 + drift * t; };
  const std::vector<TimedValue> g = Guest(u, off), h = Host(u);
  const ClockModel m = EstimateClock(g, h, {}, AlignmentConfig{});
  ASSERT_EQ(m.segments.size(), 1u);
  ASSERT_TRUE(m.segments[0].estimated);
  for (double t : {1800.0, 10800.0, 19800.0}) {
    const TimeNs guest = kClockT0 + static_cast<TimeNs>((t + off(t)) * kS);
    ASSERT_TRUE(m.OffsetAt(guest).has_value());
    EXPECT_NEAR(*m.OffsetAt(guest), off(t), 1.0) << "at " << t << " s";
    EXPECT_NEAR(static_cast<double>(m.ToHost(guest) - kClockT0) / kS, t, 1.0);
  }
  EXPECT_NEAR(m.segments[0].drift_ppm, 200, 80);
}

TEST(ClockAlignmentTest, NegativeOffsetIsRecovered) {
  const std::vector<double> u = Levels(3 * 3600, 11);
  const ClockModel m = EstimateClock(Guest(u, [](double) { return -73.0; }), Host(u), {}, AlignmentConfig{});
  ASSERT_TRUE(m.OffsetAt(kClockT0 + 5000 * kS).has_value());
  EXPECT_NEAR(*m.OffsetAt(kClockT0 + 5000 * kS), -73.0, 1.0);
}

// A smooth load (an hourly and a 10-minute wave, as in bench/fleet_correct_bench) has a
// correlation top wider than +-10 s: each one-hour range must still land near the true offset
// (it used to stick to the 5 s coarse step, 10 or 15 s for 11.3 s here, and the ranges 5 s apart
// read as elapsed-time disagreement).
TEST(ClockAlignmentTest, SmoothLoadRangesFindTheOffsetBetweenCoarseSteps) {
  std::vector<double> u(12 * 3600);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> noise(-2, 2);
  for (size_t t = 0; t < u.size(); ++t)
    u[t] = 50 + 20 * std::sin(6.283 * t / 3600 + 1.1) + 10 * std::sin(6.283 * t / 600 + 0.4) + noise(rng);
  const std::vector<TimedValue> g = Guest(u, [](double) { return 11.3; }), h = Host(u);
  const std::vector<RangeEstimate> ranges = RangeOffsets(g, h, g.front().start, g.back().end, AlignmentConfig{});
  ASSERT_GE(ranges.size(), 10u);
  int estimated = 0;
  for (const RangeEstimate& r : ranges) {
    if (!r.offset_s) continue;
    ++estimated;
    EXPECT_NEAR(*r.offset_s, 11.3, 1.5) << "range at " << (r.from - kClockT0) / kS << " s";
  }
  EXPECT_GE(estimated, 10);
  const ClockModel m = EstimateClock(g, h, {}, AlignmentConfig{});
  ASSERT_TRUE(m.OffsetAt(kClockT0 + 6 * 3600 * kS).has_value());
  EXPECT_NEAR(*m.OffsetAt(kClockT0 + 6 * 3600 * kS), 11.3, 0.75);
}

TEST(ClockAlignmentTest, FlatSeriesLeaveTheOffsetUnknown) {
  std::vector<double> u(4 * 3600, 42.0);
  const ClockModel m = EstimateClock(Guest(u, [](double) { return 40.0; }), Host(u), {}, AlignmentConfig{});
  ASSERT_EQ(m.segments.size(), 1u);
  EXPECT_FALSE(m.segments[0].estimated);
  EXPECT_FALSE(m.OffsetAt(kClockT0 + 3600 * kS).has_value());
  EXPECT_EQ(m.ToHost(kClockT0 + 3600 * kS), kClockT0 + 3600 * kS);  // offset 0 used, never invented
}

TEST(ClockAlignmentTest, UnrelatedSeriesDoNotCorrelate) {
  const std::vector<double> a = Levels(4 * 3600, 1), b = Levels(4 * 3600, 2);
  const ClockModel m = EstimateClock(Guest(a, [](double) { return 0.0; }), Host(b), {}, AlignmentConfig{});
  ASSERT_EQ(m.segments.size(), 1u);
  EXPECT_FALSE(m.segments[0].estimated);
}

TEST(ClockAlignmentTest, ResyncStepSplitsTheSegments) {
  const std::vector<double> u = Levels(8 * 3600, 3);
  const double step_at = 4 * 3600;  // true time of the resync: the guest clock jumps +25 s
  auto off = [&](double t) { return t < step_at ? 40.0 : 65.0; };
  const std::vector<TimedValue> g = Guest(u, off), h = Host(u);
  // The first guest sample end after the step, as AnalyzeGuestTimes would report it.
  TimeNs cut = 0;
  for (const TimedValue& s : g)
    if (s.end - kClockT0 > static_cast<TimeNs>((step_at + 65) * kS)) {
      cut = s.end;
      break;
    }
  const std::vector<TimeNs> steps{cut};
  const ClockModel m = EstimateClock(g, h, steps, AlignmentConfig{});
  ASSERT_EQ(m.segments.size(), 2u);
  EXPECT_EQ(m.segments[1].guest_from, cut);
  ASSERT_TRUE(m.segments[0].estimated && m.segments[1].estimated);
  EXPECT_NEAR(*m.OffsetAt(kClockT0 + 3600 * kS), 40.0, 1.0);
  EXPECT_NEAR(*m.OffsetAt(kClockT0 + 6 * 3600 * kS), 65.0, 1.0);
  // Without the split one line cannot hold both sides.
  const ClockModel one = EstimateClock(g, h, {}, AlignmentConfig{});
  ASSERT_EQ(one.segments.size(), 1u);
  EXPECT_GT(
      std::abs(*one.OffsetAt(kClockT0 + 3600 * kS) - 40.0) + std::abs(*one.OffsetAt(kClockT0 + 6 * 3600 * kS) - 65.0),
      2.0);
}

// A 30 s jump is two sampling intervals: the spacing alone reads it as two missed samples. The
// offsets on either side tell the step from a gap.
TEST(ClockAlignmentTest, GapWithTheOffsetChangedIsAStep) {
  const std::vector<double> u = Levels(6 * 3600, 4);
  std::vector<TimedValue> g = Guest(u, [](double) { return 40.0; });
  const size_t i = g.size() / 2;
  for (size_t j = i; j < g.size(); ++j) g[j].start += j > i ? 30 * kS : 0, g[j].end += 30 * kS;
  std::vector<TimeNs> ends;
  ends.reserve(g.size());
  for (const TimedValue& s : g) ends.push_back(s.end);
  GuestTimeline t = AnalyzeGuestTimes(ends, {}, TimelineConfig{});
  ASSERT_EQ(t.events.size(), 1u);
  EXPECT_EQ(t.events[0].kind, ClockEventKind::kGap);
  std::vector<RangeEstimate> ranges;
  const ClockModel m = AlignGuestClock(&t, g, Host(u), AlignmentConfig{}, TimelineConfig{}, &ranges);
  ASSERT_EQ(t.events.size(), 1u);
  EXPECT_EQ(t.events[0].kind, ClockEventKind::kStep);
  EXPECT_NEAR(t.events[0].size_s, 30.0, 1.5);
  ASSERT_EQ(m.segments.size(), 2u);
  EXPECT_NEAR(*m.OffsetAt(g[i / 2].end), 40.0, 1.0);
  EXPECT_NEAR(*m.OffsetAt(g[i + i / 2].end), 70.0, 1.0);

  // Real missing samples (the offset holds) stay a gap and leave one segment.
  std::vector<TimedValue> gap = Guest(u, [](double) { return 40.0; });
  gap.erase(gap.begin() + i, gap.begin() + i + 2);
  gap[i].start = gap[i - 1].end;
  ends.clear();
  for (const TimedValue& s : gap) ends.push_back(s.end);
  t = AnalyzeGuestTimes(ends, {}, TimelineConfig{});
  const ClockModel same = AlignGuestClock(&t, gap, Host(u), AlignmentConfig{}, TimelineConfig{}, &ranges);
  ASSERT_EQ(t.events.size(), 1u);
  EXPECT_EQ(t.events[0].kind, ClockEventKind::kGap);
  EXPECT_EQ(same.segments.size(), 1u);
}

TEST(ClockAlignmentTest, EmptyModelIsIdentity) {
  const ClockModel m;
  EXPECT_EQ(m.ToHost(kClockT0), kClockT0);
  EXPECT_FALSE(m.OffsetAt(kClockT0).has_value());
}

}  // namespace
}  // namespace vrecon::models

namespace vrecon::models {
namespace {

// Issue 14 part 5: where no range could be matched (here a flat first hour) the line is
// extrapolated, and the model says a window there may be off by the whole lag searched; where
// ranges agree with the line the residual is small.
TEST(ClockAlignmentTest, BlindRangesAndResidualSayHowFarAWindowMayBeOff) {
  std::vector<double> u = Levels(4 * 3600, 5);
  for (int t = 0; t < 3600; ++t) u[t] = 40;  // too flat to match
  const std::vector<TimedValue> g = Guest(u, [](double) { return 30.0; }), h = Host(u);
  const AlignmentConfig cfg;
  const ClockModel m = EstimateClock(g, h, {}, cfg);
  ASSERT_EQ(m.segments.size(), 1u);
  ASSERT_TRUE(m.segments[0].estimated);
  EXPECT_LT(m.segments[0].residual_s, 2.0);  // the lags' 1 s grid
  EXPECT_DOUBLE_EQ(m.ResidualAt(kClockT0 + 1200 * kS), cfg.max_lag_s);
  EXPECT_LT(m.ResidualAt(kClockT0 + 9000 * kS), 2.0);
}

}  // namespace
}  // namespace vrecon::models
