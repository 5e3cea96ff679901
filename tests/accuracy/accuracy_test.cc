// Accuracy against ground truth (issue 4): each simulator scenario goes through the real
// binary (vrecon ingest, vrecon correct --format json) and is scored against the truth. The
// targets are the issue's; docs/accuracy.md has the method and the measured numbers.
#include <gtest/gtest.h>

#include "tests/sim/accuracy.h"
#include "tests/sim/simulator.h"
#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

struct SimRun {
  sim::SimOutput sim;
  sim::Accuracy accuracy;
};

SimRun SimulateAndCorrect(const std::string& scenario, uint64_t seed, int run_ticks = 1) {
  SimRun r;
  r.sim = sim::Simulate(sim::MakeScenario(scenario, seed, run_ticks));
  TempDir dir;
  WriteText(dir.File("guest.csv"), r.sim.guest_csv);
  WriteText(dir.File("host.csv"), r.sim.host_csv);
  const std::string db = dir.File("sim.db");
  CliResult ingest = RunVrecon({"ingest", "--db", db, dir.File("guest.csv"), dir.File("host.csv")});
  EXPECT_EQ(ingest.exit_code, 0) << ingest.err;
  CliResult correct = RunVrecon({"correct", "--db", db, "--format", "json"});
  EXPECT_EQ(correct.exit_code, 0) << correct.err;
  r.accuracy = sim::Score(correct.out, r.sim.windows, r.sim.events);
  return r;
}

std::string Misses(const sim::Accuracy& a) {
  std::string s;
  for (const std::string& m : a.misses) s += "\n  " + m;
  return s;
}

class AccuracyTest : public ::testing::TestWithParam<std::string> {};

// Where the guest is wrong by 10+ points, the correction is within 1.5 points of the truth.
TEST_P(AccuracyTest, CorrectedErrorWithinTargetWhereNaiveErrorIsLarge) {
  const SimRun r = SimulateAndCorrect(GetParam(), 1);
  const sim::Accuracy& a = r.accuracy;
  ASSERT_EQ(a.windows, static_cast<int>(r.sim.windows.size())) << "every simulated window is in the output";
  ASSERT_GT(a.hard, 0) << "the scenario must contain windows where the guest is 10+ points off";
  EXPECT_EQ(a.hard_missed, 0) << a.hard_missed << " of " << a.hard << " windows above 1.5 points (worst "
                              << a.hard_worst << ")" << Misses(a);
  EXPECT_LT(a.corrected_mae, a.naive_mae);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, AccuracyTest, ::testing::Values("contention", "lost-ticks", "resync", "mixed"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// Every injected clock step and DST change carries its flag (clock-step, dst-shift), for
// several seeds.
class ClockEventTest : public ::testing::TestWithParam<std::string> {};
TEST_P(ClockEventTest, EveryInjectedClockEventIsFlagged) {
  for (uint64_t seed : {1, 2, 3}) {
    const SimRun r = SimulateAndCorrect(GetParam(), seed);
    ASSERT_GT(r.accuracy.clock_events, 0);
    EXPECT_EQ(r.accuracy.clock_events_flagged, r.accuracy.clock_events) << "seed " << seed << Misses(r.accuracy);
  }
}
INSTANTIATE_TEST_SUITE_P(Scenarios, ClockEventTest, ::testing::Values("resync", "dst", "mixed"));

// A calm VM: the guest's figures are close to the truth and at most 5% of windows are flagged.
TEST(AccuracyCalmTest, AtMostFivePercentOfCalmWindowsFlagged) {
  for (uint64_t seed : {1, 2, 3}) {
    const SimRun r = SimulateAndCorrect("calm", seed);
    const sim::Accuracy& a = r.accuracy;
    ASSERT_EQ(a.windows, static_cast<int>(r.sim.windows.size()));
    EXPECT_LE(a.flagged_windows, a.windows * 5 / 100)
        << "seed " << seed << ": " << a.flagged_windows << " of " << a.windows << " windows flagged";
    EXPECT_EQ(a.hard, 0);
    EXPECT_LT(a.corrected_mae, 1.5) << "seed " << seed;
  }
}

// The queue-on-idle flag finds the timer clumping injected in the mixed scenario.
TEST(AccuracyMixedTest, IdleGuestWithStalledTicksShowsQueueOnIdle) {
  const SimRun r = SimulateAndCorrect("mixed", 4);
  ASSERT_EQ(r.accuracy.idle_queue_events, 1);
  EXPECT_EQ(r.accuracy.idle_queue_flagged, 1);
}

// Issue 14 part 5: the 95% intervals hold the truth in at least 94% of process-windows in every
// scenario, whether each tick is drawn afresh or threads keep a vCPU for 6 or 12 ticks.
class IntervalCoverageTest : public ::testing::TestWithParam<std::tuple<std::string, int>> {};
TEST_P(IntervalCoverageTest, AtLeast94PercentOfIntervalsHoldTheTruth) {
  const auto& [scenario, run_ticks] = GetParam();
  const SimRun r = SimulateAndCorrect(scenario, 1, run_ticks);
  const sim::Accuracy& a = r.accuracy;
  ASSERT_GT(a.ci_n, 300) << "intervals for most process-windows";
  EXPECT_EQ(a.ci_missing, 0);
  EXPECT_GE(a.ci_covered, 0.94 * a.ci_n) << a.ci_covered << " of " << a.ci_n
                                         << " intervals hold the truth (median width " << a.ci_median_width
                                         << " points)";
}
INSTANTIATE_TEST_SUITE_P(Scenarios, IntervalCoverageTest,
                         ::testing::Combine(::testing::Values("calm", "contention", "lost-ticks", "resync", "dst",
                                                              "mixed", "batch"),
                                            ::testing::Values(1, 6, 12)),
                         [](const auto& info) {
                           std::string n = std::get<0>(info.param);
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n + "_run" + std::to_string(std::get<1>(info.param));
                         });

// Issue 14 part 1: batch jobs that start and end inside windows. Corrected, the job is closer to
// the truth than the guest's own figure and near what the true w gives (not zero: Perfmon cannot
// rate a job's first and last partial sample interval).
TEST(AccuracyBatchTest, ShortLivedJobsCorrectedNearTheTrueWFloor) {
  for (uint64_t seed : {1, 2}) {
    const SimRun r = SimulateAndCorrect("batch", seed);
    const sim::Accuracy& a = r.accuracy;
    ASSERT_GT(a.job_windows, 30) << "seed " << seed;
    EXPECT_LT(a.job_corrected_mae, a.job_naive_mae) << "seed " << seed;
    EXPECT_LT(a.job_corrected_mae, a.job_floor_mae + 0.5) << "seed " << seed;
    EXPECT_GT(a.job_floor_mae, 0.5) << "the unseen partial intervals leave a floor";
    EXPECT_EQ(a.hard_missed, 0) << Misses(a);
  }
}

// An esxtop host whose % Used is the clock's (% Run x 1.25, plus 2 points of % System) beside the
// contention scenario's guest: corrected against % Run, time against time, it meets the targets
// as against Hyper-V's run time; against % Used (the default) every w carries the clock's gain,
// and the windows say so (frequency-scaled). docs/accuracy.md, "esxtop: % Used or % Run".
TEST(EsxtopTurboTest, RunMeetsTheTargetsAndUsedCarriesTheClocksGain) {
  sim::Scenario scenario = sim::MakeScenario("contention", 1);
  scenario.esxtop_turbo = 1.25;
  const sim::SimOutput out = sim::Simulate(scenario);
  TempDir dir;
  WriteText(dir.File("guest.csv"), out.guest_csv);
  WriteText(dir.File("esxtop.csv"), out.host_csv);
  const std::string db = dir.File("sim.db");
  CliResult ingest = RunVrecon({"ingest", "--db", db, dir.File("guest.csv"), dir.File("esxtop.csv")});
  ASSERT_EQ(ingest.exit_code, 0) << ingest.err;
  CliResult run = RunVrecon({"correct", "--db", db, "--format", "json", "--esxtop-counter", "run"});
  CliResult used = RunVrecon({"correct", "--db", db, "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(used.exit_code, 0) << used.err;
  const sim::Accuracy by_run = sim::Score(run.out, out.windows, out.events);
  const sim::Accuracy by_used = sim::Score(used.out, out.windows, out.events);
  ASSERT_GT(by_run.hard, 0);
  EXPECT_EQ(by_run.hard_missed, 0) << Misses(by_run);
  EXPECT_LT(by_run.corrected_mae, by_run.naive_mae);
  EXPECT_GT(by_used.corrected_mae, 2 * by_run.corrected_mae)
      << "used " << by_used.corrected_mae << ", run " << by_run.corrected_mae;
  EXPECT_NE(used.out.find("\"code\": \"frequency-scaled\""), std::string::npos);
  EXPECT_NE(used.out.find("\"host_counter\": \"% Used\""), std::string::npos);
}

}  // namespace
}  // namespace vrecon::testing
