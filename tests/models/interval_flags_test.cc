#include "models/interval_flags.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;
constexpr TimeNs kFlagsT0 = 1'790'000'000 * kS;  // a multiple of 300 s

// Sample ends every 15 s from kFlagsT0 + 15 s, `n` of them.
std::vector<TimeNs> Ends(int n) {
  std::vector<TimeNs> e;
  for (int i = 1; i <= n; ++i) e.push_back(kFlagsT0 + i * 15 * kS);
  return e;
}

int Count(const GuestTimeline& t, ClockEventKind k) {
  return static_cast<int>(
      std::count_if(t.events.begin(), t.events.end(), [k](const ClockEvent& e) { return e.kind == k; }));
}

std::vector<std::string> Codes(const std::vector<Flag>& flags) {
  std::vector<std::string> c;
  for (const Flag& f : flags) c.push_back(f.code);
  return c;
}

TEST(IntervalFlagsTest, CalmSamplingHasNoEvents) {
  std::vector<TimeNs> e = Ends(2000);
  for (size_t i = 0; i < e.size(); ++i) e[i] += static_cast<TimeNs>((i * 37) % 200) * kNsPerMs;  // +-0.2 s noise
  std::sort(e.begin(), e.end());
  const GuestTimeline t = AnalyzeGuestTimes(e, {}, TimelineConfig{});
  EXPECT_NEAR(t.median_spacing_s, 15.0, 0.2);
  EXPECT_TRUE(t.events.empty());
}

TEST(IntervalFlagsTest, LateSampleMadeUpIsJitter) {
  std::vector<TimeNs> e = Ends(100);
  e[50] += 4 * kS;  // 19 s then 11 s
  const GuestTimeline t = AnalyzeGuestTimes(e, {}, TimelineConfig{});
  ASSERT_EQ(t.events.size(), 1u);
  EXPECT_EQ(t.events[0].kind, ClockEventKind::kJitter);
  EXPECT_NEAR(t.events[0].size_s, 4.0, 1e-9);
  EXPECT_TRUE(t.Steps().empty());
}

TEST(IntervalFlagsTest, MissingSamplesAreAGap) {
  std::vector<TimeNs> e = Ends(100);
  e.erase(e.begin() + 40, e.begin() + 43);  // 3 samples missing: one 60 s spacing
  const GuestTimeline t = AnalyzeGuestTimes(e, {}, TimelineConfig{});
  ASSERT_EQ(t.events.size(), 1u);
  EXPECT_EQ(t.events[0].kind, ClockEventKind::kGap);
  EXPECT_NEAR(t.events[0].size_s, 60.0, 1e-9);
}

TEST(IntervalFlagsTest, ForwardAndBackwardStepsAreFound) {
  std::vector<TimeNs> e = Ends(200);
  for (size_t i = 60; i < e.size(); ++i) e[i] += 25 * kS;   // resync: +25 s
  for (size_t i = 140; i < e.size(); ++i) e[i] -= 10 * kS;  // clock set back 10 s
  const GuestTimeline t = AnalyzeGuestTimes(e, {}, TimelineConfig{});
  ASSERT_EQ(Count(t, ClockEventKind::kStep), 2);
  EXPECT_EQ(Count(t, ClockEventKind::kGap), 0);
  EXPECT_EQ(t.events[0].at, e[60]);
  EXPECT_NEAR(t.events[0].size_s, 25.0, 1e-9);
  EXPECT_NEAR(t.events[1].size_s, -10.0, 1e-9);
  EXPECT_EQ(t.Steps(), (std::vector<TimeNs>{e[60], e[140]}));
}

TEST(IntervalFlagsTest, RecordedBackwardStepAndDstShiftAreKept) {
  const std::vector<TimeNs> e = Ends(100);
  // Ingest skipped rows: the row's time was 15 s before the previous one's (a -30 s step).
  const std::vector<ClockEvent> rec{{ClockEventKind::kStep, e[30] + 1, -15.0},
                                    {ClockEventKind::kDstShift, e[70], -3600.0}};
  const GuestTimeline t = AnalyzeGuestTimes(e, rec, TimelineConfig{});
  ASSERT_EQ(t.events.size(), 2u);
  EXPECT_EQ(t.events[0].kind, ClockEventKind::kStep);
  EXPECT_NEAR(t.events[0].size_s, -30.0, 1e-9);
  EXPECT_EQ(t.events[1].kind, ClockEventKind::kDstShift);
}

TEST(IntervalFlagsTest, WindowsGetOneSentencePerEvent) {
  std::vector<TimeNs> e = Ends(200);                       // 3000 s: 10 windows of 300 s
  e[10] += 3 * kS;                                         // jitter in window 0
  e.erase(e.begin() + 45, e.begin() + 47);                 // gap in window 2
  for (size_t i = 100; i < e.size(); ++i) e[i] += 7 * kS;  // step in window 5
  std::vector<ClockEvent> rec{{ClockEventKind::kDstShift, kFlagsT0 + 2500 * kS, 3600.0}};
  const GuestTimeline t = AnalyzeGuestTimes(e, rec, TimelineConfig{});
  const WindowGrid grid{kFlagsT0, 300 * kS, 11};
  const auto flags = IntervalFlags(t, ClockModel{}, {}, grid, false, TimelineConfig{});
  ASSERT_EQ(flags.size(), 11u);
  EXPECT_EQ(Codes(flags[0]), std::vector<std::string>{"interval-jitter"});
  EXPECT_EQ(Codes(flags[2]), std::vector<std::string>{"gap"});
  EXPECT_NE(flags[2][0].message.find("45 s"), std::string::npos) << flags[2][0].message;
  const int step_window = static_cast<int>((e[100] - kFlagsT0) / (300 * kS));
  EXPECT_EQ(Codes(flags[step_window]), std::vector<std::string>{"clock-step"});
  EXPECT_NE(flags[step_window][0].message.find("forward by 7.0 s"), std::string::npos) << flags[step_window][0].message;
  EXPECT_EQ(Codes(flags[8]), std::vector<std::string>{"dst-shift"});
  int flagged = 0;
  for (const auto& f : flags) flagged += !f.empty();
  EXPECT_EQ(flagged, 4);
}

TEST(IntervalFlagsTest, UnknownOffsetAndElapsedMismatchWhenAligned) {
  const GuestTimeline t = AnalyzeGuestTimes(Ends(240), {}, TimelineConfig{});  // one hour
  const WindowGrid grid{kFlagsT0, 300 * kS, 12};
  ClockModel m;
  m.segments.push_back({kFlagsT0, kFlagsT0 + 1800 * kS, 40.0, 0.0, true, 0, {}, 0});
  m.segments.push_back({kFlagsT0 + 1800 * kS, kFlagsT0 + 3600 * kS, 0.0, 0.0, false, 0, {}, 0});
  auto flags = IntervalFlags(t, m, {}, grid, true, TimelineConfig{});
  EXPECT_TRUE(flags[1].empty());
  EXPECT_EQ(Codes(flags[9]), std::vector<std::string>{"alignment-unknown"});
  // A guest clock running 2% slow over a window: 6 s of 300 disagree.
  ClockModel slow;
  slow.segments.push_back({kFlagsT0, kFlagsT0 + 3600 * kS, 0.0, -20000.0, true, 0, {}, 0});
  flags = IntervalFlags(t, slow, {}, grid, true, TimelineConfig{});
  EXPECT_EQ(Codes(flags[3]), std::vector<std::string>{"elapsed-mismatch"});
  EXPECT_NE(flags[3][0].message.find("294.0 s"), std::string::npos) << flags[3][0].message;
  // A range whose measured offset is far off its segment's line.
  const std::vector<RangeEstimate> ranges{{kFlagsT0 + 600 * kS, kFlagsT0 + 1200 * kS, 52.0}};
  flags = IntervalFlags(t, m, ranges, grid, true, TimelineConfig{});
  EXPECT_EQ(Codes(flags[1]), std::vector<std::string>{"elapsed-mismatch"});
  EXPECT_TRUE(flags[5].empty());
}

}  // namespace
}  // namespace vrecon::models
