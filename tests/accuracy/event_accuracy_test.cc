// Event-based CPU against ground truth (issue 18): the simulator's context-switch trace goes
// through the real binary (vrecon ingest --machine, vrecon samples --format csv) and the stored
// ETW Process % Processor Time is compared per 300 s window with the truth (docs/accuracy.md,
// "Event-based CPU").
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/sim/accuracy.h"
#include "tests/sim/event_cpu.h"
#include "tests/sim/simulator.h"
#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

struct EventRun {
  sim::SimOutput sim;
  std::vector<sim::EventWindow> events;
};

// The scenario's first two hours, traced over [from_min, from_min + minutes) of true time.
EventRun TraceAndIngest(const std::string& scenario, uint64_t seed, double from_min, double minutes) {
  sim::Scenario s = sim::MakeScenario(scenario, seed);
  s.hours = 2;
  s.etw_from_s = from_min * 60;
  s.etw_minutes = minutes;
  EventRun r;
  r.sim = sim::Simulate(s);
  TempDir dir;
  WriteText(dir.File("trace.txt"), r.sim.etw_dumper);
  r.sim.etw_dumper.clear();
  const std::string db = dir.File("events.db");
  const CliResult ingest =
      RunVrecon({"ingest", "--db", db, "--machine", sim::kGuestName, "--format", "json", dir.File("trace.txt")});
  EXPECT_EQ(ingest.exit_code, 0) << ingest.err;
  // Only the info line naming the trace's start: the switch sequence is whole on every vCPU.
  EXPECT_NE(ingest.out.find("\"issues\": 1,"), std::string::npos) << ingest.out.substr(0, 2000);
  const CliResult samples =
      RunVrecon({"samples", "--db", db, "--object", "ETW Process", "--counter", "% Processor Time", "--format", "csv"});
  EXPECT_EQ(samples.exit_code, 0) << samples.err;
  r.events = sim::EventCpuFromSamplesCsv(samples.out);
  return r;
}

std::string Misses(const sim::EventAccuracy& a) {
  std::string s;
  for (const std::string& m : a.misses) s += "\n  " + m;
  return s;
}

// The target: in a calm VM, event-based CPU is within 0.2 points of one CPU of the truth
// in every 5-minute window (mean over the processes). The truth is the slots each process held a
// vCPU while the VM ran: the trace switches at slot boundaries, so it cannot see the time-slicing
// within a slot that the demand truth assumes (docs/accuracy.md has both comparisons).
TEST(EventAccuracyTest, CalmEventCpuWithinTwoTenthsOfAPointOfTheTruth) {
  for (uint64_t seed : {1, 2, 3}) {
    const EventRun r = TraceAndIngest("calm", seed, 0, 30);
    const sim::EventAccuracy a = sim::ScoreEventCpu(r.events, r.sim.windows, 0.2);
    ASSERT_EQ(a.windows, 6) << "seed " << seed << ": every window of the 30 minutes";
    EXPECT_LE(a.occupancy_worst, 0.2) << "seed " << seed << Misses(a);
    // What is left is calm's 0.5% of stalled slots, charged to the thread that was running.
    EXPECT_GT(a.occupancy_mae, 0.05) << "seed " << seed;
  }
}

// A stall does not stop the running thread's interval (the simulator gives it to the thread that
// was on the vCPU when the VM was descheduled): inside an episode where the VM runs half the time,
// the trace charges the processes about twice the slots they held. This is what correct undoes.
TEST(EventAccuracyTest, StalledTimeIsChargedAsRunTime) {
  // 11 minutes: the clock lags by the deferred ticks at either end, so 10 would leave one window whole.
  const EventRun r = TraceAndIngest("contention", 1, 60, 11);
  ASSERT_EQ(r.events.size(), 2u);
  for (const sim::EventWindow& e : r.events) {
    const auto truth = std::find_if(r.sim.windows.begin(), r.sim.windows.end(),
                                    [&](const sim::TruthWindow& t) { return t.start == e.start; });
    ASSERT_NE(truth, r.sim.windows.end());
    double events = 0, held = 0;
    for (const auto& [name, pct] : e.process_pct) events += pct;
    for (const auto& [name, pct] : truth->occupancy_pct) held += pct;
    ASSERT_GT(held, 20);
    EXPECT_NEAR(events / held, 2.0, 0.1) << FormatIso(e.start, false);
  }
}

// The same run corrected from Perfmon alone and with the guest's trace, scored over the windows
// the trace puts on the events basis.
struct SampledAndEvents {
  sim::Accuracy sampled, events;
};

SampledAndEvents CorrectWithAndWithoutTrace(const sim::Scenario& s) {
  const sim::SimOutput o = sim::Simulate(s);
  TempDir dir;
  WriteText(dir.File("guest.csv"), o.guest_csv);
  WriteText(dir.File("host.csv"), o.host_csv);
  WriteText(dir.File("trace.txt"), o.etw_dumper);
  std::string json[2];
  for (int traced = 0; traced < 2; ++traced) {
    const std::string db = dir.File(traced ? "b.db" : "a.db");
    CliResult r = RunVrecon({"ingest", "--db", db, dir.File("guest.csv"), dir.File("host.csv")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (traced) {
      r = RunVrecon({"ingest", "--db", db, "--machine", sim::kGuestName, dir.File("trace.txt")});
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
    r = RunVrecon({"correct", "--db", db, "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    json[traced] = r.out;
  }
  SampledAndEvents r;
  r.events = sim::Score(json[1], o.windows, o.events);
  sim::AccuracyTargets same;
  same.only_windows = r.events.event_window_starts;
  r.sampled = sim::Score(json[0], o.windows, o.events, same);
  return r;
}

// Issue 18, event-based correction: the same contended run corrected from Perfmon alone and with
// the guest's trace over 30 minutes of the first episode. The trace is as far off as Perfmon
// (the stall time is charged as run time) and corrected as well, but not better: its switches are
// on slot boundaries, so it sees the very slots the ticks sample, and what is left after w is the
// per-slot draw both share (docs/accuracy.md, "Event-based correction").
TEST(EventAccuracyTest, ContentionEventBasisCorrectedAsWellAsSampled) {
  sim::Scenario s = sim::MakeScenario("contention", 1);
  s.hours = 2;
  s.etw_from_s = 50 * 60;
  s.etw_minutes = 30;
  const SampledAndEvents r = CorrectWithAndWithoutTrace(s);
  const sim::Accuracy& events = r.events;
  const sim::Accuracy& sampled = r.sampled;
  ASSERT_EQ(events.event_windows, 6) << "the trace's whole windows are on the events basis";
  ASSERT_EQ(sampled.windows, 6);
  ASSERT_EQ(sampled.event_windows, 0);
  EXPECT_GT(events.event_naive_mae, 10) << "stalls charged as run time";
  EXPECT_GT(sampled.naive_mae, 10);
  EXPECT_LT(events.event_corrected_mae, 0.5);
  EXPECT_NEAR(events.event_corrected_mae, sampled.corrected_mae, 0.1);
  EXPECT_EQ(events.hard_missed, 0);
  // The event-basis intervals carry how the stalls fell by thread (models/interval.h,
  // StallAttributionVariance): without that term they held the truth in about a third.
  ASSERT_GT(events.event_ci_n, 0);
  EXPECT_GE(static_cast<double>(events.event_ci_covered) / events.event_ci_n, 0.8)
      << events.event_ci_covered << " of " << events.event_ci_n;
}

// Where threads switch inside ticks (--slices 4: a run ends anywhere in a tick, as a thread that
// blocks or is preempted does), a tick charges one slice's thread for the whole tick and the
// trace sees every slice. In a calm VM, where no stall is charged to a neighbour, the corrected
// event figures are then closer to what each process held than Perfmon's (docs/accuracy.md:
// 0.10 against 0.14 points over seeds 1-3; under heavy contention the stalls' attribution, which
// both share, dwarfs the difference).
TEST(EventAccuracyTest, CalmTraceSeesTheSlicesTicksMiss) {
  for (uint64_t seed : {1, 2}) {
    sim::Scenario s = sim::MakeScenario("calm", seed);
    s.hours = 2;
    s.slices_per_tick = 4;
    s.etw_from_s = 30 * 60;
    s.etw_minutes = 60;
    const SampledAndEvents r = CorrectWithAndWithoutTrace(s);
    ASSERT_EQ(r.events.event_windows, 12) << "seed " << seed;
    ASSERT_EQ(r.sampled.windows, 12) << "seed " << seed;
    EXPECT_LT(r.events.event_corrected_occupancy_mae, 0.8 * r.sampled.corrected_occupancy_mae)
        << "seed " << seed << ": events " << r.events.event_corrected_occupancy_mae << ", sampled "
        << r.sampled.corrected_occupancy_mae;
    EXPECT_LT(r.events.event_corrected_mae, r.sampled.corrected_mae) << "seed " << seed;
  }
}

// Threads that run for less than a tick (--run-slices 1 at --slices 4: a quarter of a tick, as
// ones that block soon after they are dispatched do): a tick sees one of about four runs, the
// trace sees them all. In a calm VM the corrected event figures are then less than half Perfmon's
// distance from what each process held (docs/accuracy.md: 0.026 to 0.046 against 0.13 to 0.20
// points, seeds 1-3, ten minutes traced).
TEST(EventAccuracyTest, CalmTraceSeesRunsShorterThanATick) {
  sim::Scenario s = sim::MakeScenario("calm", 1);
  s.hours = 1;
  s.slices_per_tick = 4;
  s.run_slices = 1;
  s.etw_from_s = 30 * 60;
  s.etw_minutes = 10;
  const SampledAndEvents r = CorrectWithAndWithoutTrace(s);
  ASSERT_EQ(r.events.event_windows, 2);
  EXPECT_LT(r.events.event_corrected_occupancy_mae, 0.5 * r.sampled.corrected_occupancy_mae)
      << "events " << r.events.event_corrected_occupancy_mae << ", sampled " << r.sampled.corrected_occupancy_mae;
}

}  // namespace
}  // namespace vrecon::testing
