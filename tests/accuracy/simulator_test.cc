// The simulator itself: deterministic, and its clock behaves as docs/accuracy.md says.
#include "tests/sim/simulator.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace vrecon::sim {
namespace {

double EventTotal(const SimOutput& o, const std::string& code, TimeNs before) {
  double sum = 0;
  for (const TruthEvent& e : o.events)
    if (e.code == code && e.at < before) sum += e.amount;
  return sum;
}

// UTC of the guest log's last row (local stamp + the header's -60 min bias).
TimeNs LastGuestUtc(const SimOutput& o) {
  const std::string& g = o.guest_csv;
  const size_t start = g.rfind('\n', g.size() - 2) + 2;  // after the newline and the quote
  CivilTime c;
  EXPECT_EQ(std::sscanf(g.c_str() + start, "%d/%d/%d %d:%d:%d.%d", &c.month, &c.day, &c.year, &c.hour, &c.minute,
                        &c.second, &c.millis),
            7);
  return NsFromCivil(c) - 60 * 60 * kNsPerSec;
}

TEST(SimulatorTest, SameSeedSameLogsOtherSeedOtherLogs) {
  const SimOutput a = Simulate(MakeScenario("mixed", 7)), b = Simulate(MakeScenario("mixed", 7));
  const SimOutput c = Simulate(MakeScenario("mixed", 8));
  EXPECT_EQ(a.guest_csv, b.guest_csv);
  EXPECT_EQ(a.host_csv, b.host_csv);
  EXPECT_EQ(TruthCsv(a), TruthCsv(b));
  EXPECT_NE(a.guest_csv, c.guest_csv);
}

TEST(SimulatorTest, LostTicksLeaveTheGuestClockBehindByWhatWasLost) {
  const Scenario s = MakeScenario("lost-ticks", 1);
  const SimOutput o = Simulate(s);
  const double lost_s = EventTotal(o, "lost-ticks", s.start + 24 * 3600 * kNsPerSec);
  EXPECT_NEAR(lost_s, static_cast<double>(o.lost_ticks) / 64, 1e-9);
  ASSERT_GT(lost_s, 60);
  // Rows come every 15 s of apparent time: the last one is at most 15 s after the apparent end.
  const double behind_s = static_cast<double>(s.start + s.hours * 3600 * kNsPerSec - LastGuestUtc(o)) / kNsPerSec;
  EXPECT_GE(behind_s, lost_s - 0.1);
  EXPECT_LE(behind_s, lost_s + 15.1);
}

TEST(SimulatorTest, ResyncStepsTheClockForwardByTheLossSoFar) {
  const Scenario s = MakeScenario("resync", 1);
  const SimOutput o = Simulate(s);
  int steps = 0;
  double stepped = 0;
  for (const TruthEvent& e : o.events) {
    if (e.code != "clock-step") continue;
    ++steps;
    // Both episodes end before their resync, so each step is the loss since the previous one.
    EXPECT_NEAR(stepped + e.amount, EventTotal(o, "lost-ticks", e.at), 1.0 / 64 + 1e-9);
    stepped += e.amount;
    EXPECT_GT(e.amount, 5);
  }
  EXPECT_EQ(steps, 2);
}

TEST(SimulatorTest, CalmTruthMatchesTheHostWithinSampling) {
  const SimOutput o = Simulate(MakeScenario("calm", 1));
  ASSERT_EQ(o.windows.size(), 72u);
  double sum = 0;
  for (const auto& [name, pct] : o.windows[0].process_pct) sum += pct;
  EXPECT_GT(sum, 60);  // about 1.3 CPUs of demand less 0.5% waiting
  EXPECT_LT(sum, 190);
  EXPECT_EQ(o.lost_ticks, 0);
  EXPECT_NE(o.guest_csv.find("\\\\GUEST01\\System\\Processor Queue Length"), std::string::npos);
  EXPECT_NE(o.host_csv.find("Hyper-V Hypervisor Virtual Processor(GUEST01:Hv VP 1)\\% Total Run Time"),
            std::string::npos);
}

}  // namespace
}  // namespace vrecon::sim
