// The simulator itself: deterministic, and its clock behaves as docs/accuracy.md says.
#include "tests/sim/simulator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

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

// The trace's last timestamp (us from its start): where every vCPU switches to Idle at its end.
int64_t TraceEndUs(const std::string& dumper) {
  const size_t line = dumper.rfind('\n', dumper.size() - 2) + 1;
  const size_t comma = dumper.find(',', line);
  return std::strtoll(dumper.c_str() + comma + 1, nullptr, 10);
}

// Issue 18: the trace is stamped on the guest's apparent clock, so lost ticks shorten it and a
// resync steps it forward, as they do Perfmon's timestamps. Long thread runs keep the text small.
TEST(SimulatorTest, TraceIsOnTheGuestClock) {
  Scenario lossy = MakeScenario("lost-ticks", 1, 1000);
  lossy.hours = 2;
  lossy.etw_minutes = 120;
  const SimOutput a = Simulate(lossy);
  const double lost_s = EventTotal(a, "lost-ticks", lossy.start + 2 * 3600 * kNsPerSec);
  ASSERT_GT(lost_s, 30);
  // At most a tick or two deferred by a stall at the very end.
  EXPECT_NEAR(TraceEndUs(a.etw_dumper) / 1e6, 7200 - lost_s, 2.0 / 64);
  EXPECT_NE(a.etw_dumper.find("Trace Start: 134379756000000000,"), std::string::npos);  // 03:00 UTC

  // The resync at 2 h 02 min 17 s gives back what the first episode lost; the second starts at 2.5 h.
  Scenario resync = MakeScenario("resync", 1, 1000);
  resync.hours = 3;
  resync.etw_minutes = 150;
  const SimOutput b = Simulate(resync);
  EXPECT_NEAR(TraceEndUs(b.etw_dumper) / 1e6, 9000, 2.0 / 64);

  // Tracing draws nothing: the logs are those of the run without a trace.
  resync.etw_minutes = 0;
  const SimOutput c = Simulate(resync);
  EXPECT_EQ(b.guest_csv, c.guest_csv);
  EXPECT_EQ(b.host_csv, c.host_csv);
  EXPECT_TRUE(c.etw_dumper.empty());
}

// Each batch job is a process of its own pid: it starts before its threads first run and ends
// after they last ran.
TEST(SimulatorTest, TraceStartsAndEndsEachBatchJob) {
  Scenario s = MakeScenario("batch", 1, 12);
  s.hours = 1;
  s.etw_minutes = 60;
  const SimOutput o = Simulate(s);
  int started = 0, ended = 0;
  for (const Job& j : s.jobs) {
    started += j.from_s < 3600 ? 1 : 0;
    ended += j.to_s < 3600 ? 1 : 0;
  }
  ASSERT_GT(ended, 3);
  int starts = -1, ends = -1;  // the header declares each once
  for (size_t p = o.etw_dumper.find("P-Start,"); p != std::string::npos; p = o.etw_dumper.find("P-Start,", p + 1))
    ++starts;
  for (size_t p = o.etw_dumper.find("P-End,"); p != std::string::npos; p = o.etw_dumper.find("P-End,", p + 1)) ++ends;
  EXPECT_EQ(starts, started);
  EXPECT_EQ(ends, ended);
  EXPECT_NE(o.etw_dumper.find("batch.exe (10064)"), std::string::npos);
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
