// The counter classifier (models/counter_types.h) and what each type reports per window
// (models/counter_windows.h), against the rules of docs/counter-types.md and seed 003.
#include "models/counter_types.h"

#include <gtest/gtest.h>

#include "models/counter_windows.h"

namespace vrecon::models {
namespace {

struct Case {
  const char* object;
  const char* instance;
  const char* counter;
  const char* unit;
  CounterType type;
  PercentRule percent;
};

TEST(CounterTypesTest, ClassifiesByTable) {
  const Case cases[] = {
      {"Processor", "0", "% Processor Time", "percent", CounterType::kPercentTime, PercentRule::kScale},
      {"Processor Information", "0,_Total", "% Privileged Time", "percent", CounterType::kPercentTime,
       PercentRule::kScale},
      {"Processor", "_Total", "% Interrupt Time", "percent", CounterType::kPercentTime, PercentRule::kScale},
      {"Processor", "1", "% DPC Time", "percent", CounterType::kPercentTime, PercentRule::kScale},
      {"Processor", "_Total", "% Idle Time", "percent", CounterType::kPercentTime, PercentRule::kComplement},
      {"Processor", "_Total", "% Steal Time", "percent", CounterType::kPercentTime, PercentRule::kAsIs},
      {"Process", "sqlservr", "% User Time", "percent", CounterType::kPercentTime, PercentRule::kScale},
      {"Process V2", "sqlservr:4242", "% Processor Time", "percent", CounterType::kPercentTime, PercentRule::kScale},
      {"Process", "Idle", "% Processor Time", "percent", CounterType::kPercentTime, PercentRule::kNone},
      {"Process", "_Total", "% Processor Time", "percent", CounterType::kPercentTime, PercentRule::kNone},
      {"Thread", "sqlservr/12", "% Processor Time", "percent", CounterType::kPercentTime, PercentRule::kScale},
      {"Thread", "Idle/0", "% Processor Time", "percent", CounterType::kPercentTime, PercentRule::kNone},
      {"Thread", "_Total/_Total", "% Processor Time", "percent", CounterType::kPercentTime, PercentRule::kNone},
      {"Memory", "", "Pages/sec", "per_second", CounterType::kRate, PercentRule::kScale},
      {"LogicalDisk", "C:", "Disk Transfers/sec", "per_second", CounterType::kRate, PercentRule::kScale},
      {"LogicalDisk", "C:", "Disk Bytes/sec", "per_second", CounterType::kRate, PercentRule::kScale},
      {"System", "", "Context Switches/sec", "per_second", CounterType::kRate, PercentRule::kScale},
      {"Memory", "", "Available Bytes", "bytes", CounterType::kInstantaneous, PercentRule::kScale},
      {"Memory", "", "Available MBytes", "MB", CounterType::kInstantaneous, PercentRule::kScale},
      {"Memory", "", "% Committed Bytes In Use", "percent", CounterType::kInstantaneous, PercentRule::kScale},
      {"System", "", "Processor Queue Length", "count", CounterType::kTickSnapshot, PercentRule::kScale},
      {"Processor Information", "_Total", "% Processor Utility", "percent", CounterType::kFrequencyScaled,
       PercentRule::kScale},
      {"Processor Information", "0,1", "% Processor Performance", "percent", CounterType::kFrequencyScaled,
       PercentRule::kScale},
      {"LogicalDisk", "C:", "Current Disk Queue Length", "count", CounterType::kInstantaneous, PercentRule::kScale},
      {"LogicalDisk", "C:", "% Free Space", "percent", CounterType::kInstantaneous, PercentRule::kScale},
      {"Process", "w3wp", "Thread Count", "count", CounterType::kInstantaneous, PercentRule::kScale},
      {"Process", "w3wp", "Working Set", "bytes", CounterType::kInstantaneous, PercentRule::kScale},
      {"Process", "w3wp", "Private Bytes", "bytes", CounterType::kInstantaneous, PercentRule::kScale},
      {"LogicalDisk", "C:", "Avg. Disk sec/Transfer", "", CounterType::kQpcLatency, PercentRule::kScale},
      {"PhysicalDisk", "0 C:", "Avg. Disk sec/Read", "", CounterType::kQpcLatency, PercentRule::kScale},
      {"LogicalDisk", "_Total", "Avg. Disk sec/Write", "", CounterType::kQpcLatency, PercentRule::kScale},
      // Not tick-sampled CPU, not a count over the interval, not a snapshot: unknown, kept.
      {"LogicalDisk", "C:", "% Disk Time", "percent", CounterType::kUnknown, PercentRule::kScale},
      {"LogicalDisk", "C:", "Avg. Disk Bytes/Transfer", "bytes", CounterType::kUnknown, PercentRule::kScale},
      {"LogicalDisk", "C:", "Avg. Disk Queue Length", "count", CounterType::kUnknown, PercentRule::kScale},
      {"System", "", "System Up Time", "", CounterType::kUnknown, PercentRule::kScale},
      {"Foo Widget", "", "Frobs", "", CounterType::kUnknown, PercentRule::kScale},
      // Not in the table: the stored unit decides.
      {"Foo Widget", "", "Frob rate", "per_second", CounterType::kRate, PercentRule::kScale},
      {"Foo Widget", "", "Frob pool", "bytes", CounterType::kInstantaneous, PercentRule::kScale},
  };
  for (const Case& c : cases) {
    const CounterClass got = ClassifyCounter(c.object, c.instance, c.counter, c.unit);
    EXPECT_EQ(CounterTypeName(got.type), std::string(CounterTypeName(c.type)))
        << c.object << "(" << c.instance << ")\\" << c.counter << " rule " << got.rule;
    if (c.type == CounterType::kPercentTime) {
      EXPECT_EQ(got.percent, c.percent) << c.object << "(" << c.instance << ")\\" << c.counter;
    }
  }
}

TEST(CounterTypesTest, TypeNames) {
  EXPECT_STREQ(CounterTypeName(CounterType::kPercentTime), "percent-time");
  EXPECT_STREQ(CounterTypeName(CounterType::kRate), "rate");
  EXPECT_STREQ(CounterTypeName(CounterType::kInstantaneous), "instantaneous");
  EXPECT_STREQ(CounterTypeName(CounterType::kTickSnapshot), "tick-snapshot");
  EXPECT_STREQ(CounterTypeName(CounterType::kFrequencyScaled), "frequency-scaled");
  EXPECT_STREQ(CounterTypeName(CounterType::kQpcLatency), "qpc-latency");
  EXPECT_STREQ(CounterTypeName(CounterType::kUnknown), "unknown");
}

constexpr TimeNs kTypesT0 = 1'800'000'000LL * kNsPerSec;  // a multiple of 300 s

WindowGrid TypesGrid(int count) {
  WindowGrid g;
  g.origin = kTypesT0;
  g.width = 300 * kNsPerSec;
  g.count = count;
  return g;
}

TEST(CounterWindowsTest, RateKeepsTheCountAndDividesByTheTrueInterval) {
  // The guest's clock runs slow: 15 apparent seconds are 15.3 true ones (2% drift).
  const ToTrueTime drift = [](TimeNs t) { return kTypesT0 + static_cast<TimeNs>((t - kTypesT0) * 1.02); };
  RateWindows rw(TypesGrid(1));
  rw.Add(kTypesT0, kTypesT0 + 15 * kNsPerSec, 200.0, drift);  // 200 events/s apparent = 3000 events
  const RateWindows::Cell& c = rw.at(0);
  EXPECT_NEAR(c.count, 3000, 1e-9);
  EXPECT_NEAR(c.apparent_s, 15, 1e-9);
  EXPECT_NEAR(c.true_s, 15.3, 1e-9);

  CounterWindowInput in;
  in.cls = ClassifyCounter("Memory", "", "Pages/sec", "per_second");
  in.rate = c;
  in.aligned = true;
  auto v = EvaluateCounter("\\\\G\\Memory\\Pages/sec", "per_second", in);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->type, CounterType::kRate);
  EXPECT_NEAR(*v->count, 3000, 1e-9);
  EXPECT_NEAR(*v->guest_value, 200, 1e-9);
  EXPECT_NEAR(*v->value, 3000 / 15.3, 1e-9);
  EXPECT_EQ(v->unit, "per_second");
  EXPECT_NE(v->note.find("15.3"), std::string::npos) << v->note;
}

TEST(CounterWindowsTest, RateSpreadsACountOverTheWindowsItsTrueIntervalOverlaps) {
  // 20 s from 290 s: 10 s in each window; identity clock (not aligned).
  RateWindows rw(TypesGrid(2));
  rw.Add(kTypesT0 + 290 * kNsPerSec, kTypesT0 + 310 * kNsPerSec, 5.0, {});
  EXPECT_NEAR(rw.at(0).count, 50, 1e-9);
  EXPECT_NEAR(rw.at(1).count, 50, 1e-9);
  EXPECT_NEAR(rw.at(1).true_s, 10, 1e-9);
  CounterWindowInput in;
  in.cls = ClassifyCounter("Memory", "", "Pages/sec", "per_second");
  in.rate = rw.at(1);
  auto v = EvaluateCounter("p", "per_second", in);
  ASSERT_TRUE(v);
  EXPECT_NEAR(*v->value, 5, 1e-12);
  EXPECT_NE(v->note.find("not aligned"), std::string::npos);
  // An instantaneous first row (start == end) carries no count; an empty window has no value.
  rw.Add(kTypesT0 + 600 * kNsPerSec, kTypesT0 + 600 * kNsPerSec, 7.0, {});
  CounterWindowInput empty;
  empty.cls = in.cls;
  EXPECT_FALSE(EvaluateCounter("p", "per_second", empty));
}

// Seed 000: the processor queue is one count at the (virtualised) clock tick: reported as logged,
// never scaled, with a note that says what it is and where waiting is measured instead.
TEST(CounterWindowsTest, TheProcessorQueueIsATickSnapshotPassedThroughWithWhatItIs) {
  CounterWindowInput in;
  in.cls = ClassifyCounter("System", "", "Processor Queue Length", "count");
  in.guest_mean = 6;
  in.w = 0.5;
  auto v = EvaluateCounter("q", "count", in);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->type, CounterType::kTickSnapshot);
  EXPECT_NEAR(*v->value, 6, 1e-12);
  EXPECT_NE(v->note.find("taken at the clock tick"), std::string::npos) << v->note;
  EXPECT_NE(v->note.find("queue_ms_p95"), std::string::npos) << v->note;
  // Another queue (a disk's) stays a snapshot of a state.
  EXPECT_EQ(ClassifyCounter("LogicalDisk", "C:", "Current Disk Queue Length", "count").type,
            CounterType::kInstantaneous);
}

// Seed 002: % Processor Utility is busy time in the clock's terms (turbo passes 100): reported as
// logged, never divided by w, with a note saying why.
TEST(CounterWindowsTest, ProcessorUtilityIsFrequencyScaledAndNeverScaledByW) {
  CounterWindowInput in;
  in.cls = ClassifyCounter("Processor Information", "_Total", "% Processor Utility", "percent");
  in.guest_mean = 130;
  in.w = 0.5;
  auto v = EvaluateCounter("u", "percent", in);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->type, CounterType::kFrequencyScaled);
  EXPECT_NEAR(*v->value, 130, 1e-12);
  EXPECT_NE(v->note.find("not divided by w"), std::string::npos) << v->note;
  // % Processor Time of the same object stays tick-sampled time.
  EXPECT_EQ(ClassifyCounter("Processor Information", "_Total", "% Processor Time", "percent").type,
            CounterType::kPercentTime);
}

TEST(CounterWindowsTest, PercentTimeIsScaledByW) {
  CounterWindowInput in;
  in.cls = ClassifyCounter("Thread", "sqlservr/3", "% Processor Time", "percent");
  in.guest_mean = 40;
  in.w = 88.0 / 73.0;
  auto v = EvaluateCounter("t", "percent", in);
  ASSERT_TRUE(v);
  EXPECT_NEAR(*v->value, 40 * 88.0 / 73.0, 1e-9);
  EXPECT_NEAR(*v->guest_value, 40, 1e-12);
  EXPECT_FALSE(v->count);

  in.cls = ClassifyCounter("Processor", "0", "% Idle Time", "percent");
  in.guest_mean = 27;  // 73% busy; corrected busy 88%, idle 12%
  EXPECT_NEAR(*EvaluateCounter("i", "percent", in)->value, 12, 1e-9);

  in.cls = ClassifyCounter("Process", "Idle", "% Processor Time", "percent");
  auto idle = EvaluateCounter("i", "percent", in);
  ASSERT_TRUE(idle);
  EXPECT_FALSE(idle->value);
  EXPECT_NEAR(*idle->guest_value, 27, 1e-12);

  in.cls = ClassifyCounter("Thread", "sqlservr/3", "% Processor Time", "percent");
  in.w.reset();
  auto no_w = EvaluateCounter("t", "percent", in);
  EXPECT_FALSE(no_w->value);
  EXPECT_NE(no_w->note.find("w is undefined"), std::string::npos);

  in.w = 0.5;
  in.linux_steal = true;
  EXPECT_NEAR(*EvaluateCounter("t", "percent", in)->value, 27, 1e-12);
}

TEST(CounterWindowsTest, LatencyLessHostRootIsTheVirtualizationDelay) {
  CounterWindowInput in;
  in.cls = ClassifyCounter("LogicalDisk", "C:", "Avg. Disk sec/Transfer", "");
  in.guest_mean = 0.012;
  in.host_latency_s = 0.009;
  in.host_disk = "HV01 LogicalDisk(D:)";
  auto v = EvaluateCounter("d", "", in);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->type, CounterType::kQpcLatency);
  EXPECT_NEAR(*v->value, 0.003, 1e-12);
  EXPECT_NEAR(*v->guest_value, 0.012, 1e-12);
  EXPECT_EQ(v->unit, "s");
  EXPECT_NE(v->note.find("HV01 LogicalDisk(D:)"), std::string::npos);

  in.host_latency_s.reset();
  in.no_host_reason = "no Hyper-V host log runs this VM";
  auto alone = EvaluateCounter("d", "", in);
  EXPECT_NEAR(*alone->value, 0.012, 1e-12);
  EXPECT_NE(alone->note.find("no Hyper-V host log runs this VM"), std::string::npos) << alone->note;
}

TEST(CounterWindowsTest, InstantaneousAndUnknownPassThrough) {
  for (const auto& [obj, ctr, unit, type] :
       {std::tuple{"Memory", "Available MBytes", "MB", CounterType::kInstantaneous},
        std::tuple{"Foo Widget", "Frobs", "", CounterType::kUnknown}}) {
    CounterWindowInput in;
    in.cls = ClassifyCounter(obj, "", ctr, unit);
    in.guest_mean = 1234.5;
    in.w = 2;
    auto v = EvaluateCounter("x", unit, in);
    ASSERT_TRUE(v);
    EXPECT_EQ(v->type, type);
    EXPECT_EQ(*v->value, 1234.5);
    EXPECT_EQ(v->unit, unit);
  }
}

}  // namespace
}  // namespace vrecon::models
