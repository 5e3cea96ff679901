// WPA's CPU Usage (Precise) CSV reader against the xperf dumper reader: the hand-written fixture
// (fixtures/etw/README.md) and random runs written both ways give the same series; header
// variants read alike; what the export cannot say (computer, trace start) must be given.
#include "adapters/etw/wpa_precise.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <set>

#include "adapters/etw/xperf_dumper.h"
#include "tests/adapters/etw/series_sink.h"
#include "tests/support/cli_runner.h"
#include "tests/support/reader_options.h"
#include "tests/support/xperf_text.h"

namespace vrecon::etw {
namespace {

using testing::SeriesSink;
using testing::ThreadRun;

ReaderOptions Opts(std::string file = "x.csv", std::string machine = "WEB01", bool with_start = true) {
  ReaderOptions o = testing::Options(std::move(file), std::nullopt, nullptr, std::move(machine));
  if (with_start) o.trace_start = ParseIso("2026-11-02T10:00:00Z");
  return o;
}

template <typename R>
Status ReadWith(const std::string& text, ReaderOptions o, SeriesSink* sink, ReadSummary* sum = nullptr,
                size_t chunk = 1 << 20) {
  R r(std::move(o), sink);
  Status s = testing::ReadInChunks(r, text, chunk);
  if (sum) *sum = r.summary();
  return s;
}

std::string Fixture(const std::string& name) { return testing::ReadText(testing::Fixture("etw/" + name)); }

bool IsDeferred(const std::string& name) {
  return name.ends_with("\\% DPC Time") || name.ends_with("\\% Interrupt Time");
}

TEST(WpaPreciseTest, TheFixtureGivesTheDumpersSeriesForTheSameSwitches) {
  SeriesSink wpa, dumper;
  ReadSummary sum;
  Status s = ReadWith<WpaPreciseReader>(Fixture("web01-precise.csv"), Opts("web01-precise.csv"), &wpa, &sum);
  ASSERT_TRUE(s.ok()) << s.message();
  s = ReadWith<XperfDumperReader>(Fixture("web01-cswitch.txt"), Opts("web01-cswitch.txt", "WEB01", false), &dumper);
  ASSERT_TRUE(s.ok()) << s.message();
  // What only the dumper text holds: System's rundown (it never ran) and DPC/interrupt time,
  // which it takes out of the sqlservr threads they interrupted (150 us in its first second).
  auto& sql = dumper.series.at("ETW Process(sqlservr:1200)\\% Processor Time");
  ASSERT_FALSE(sql.empty());
  EXPECT_DOUBLE_EQ(sql[0].value, 79.985);
  sql[0].value = 80;
  std::set<std::string> expected;
  for (const char* c : {"% Processor Time", "% Bottleneck Time", "% Queue Time", "Queued Switch-ins/sec"})
    expected.insert(std::string("ETW Process(System:4)\\") + c);
  for (const char* cpu : {"0", "1", "_Total"})
    for (const char* c : {"% DPC Time", "% Interrupt Time"})
      expected.insert(std::string("ETW Processor(") + cpu + ")\\" + c);
  EXPECT_EQ(testing::ExpectWithin(wpa, dumper), expected);
  EXPECT_EQ(sum.format, "wpa-precise-csv");
  EXPECT_EQ(sum.encoding, Encoding::kUtf8);
  EXPECT_EQ(sum.rows, 3);  // two 1 s buckets, one p95 window
  EXPECT_EQ(sum.lines, 9);
}

TEST(WpaPreciseTest, TheFixturesFiguresByHand) {
  SeriesSink sink;
  ReadSummary sum;
  const Status s = ReadWith<WpaPreciseReader>(Fixture("web01-precise.csv"), Opts("web01-precise.csv"), &sink, &sum);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(FormatIso(sink.series.at("ETW Process(sqlservr:1200)\\% Processor Time")[0].start, false),
            "2026-11-02T10:00:00Z");
  ExpectWeb01Processes(sink, false);
  EXPECT_EQ(sink.Values("ETW Process(notepad:3100)\\% Processor Time"), (std::vector<double>{10}));
  EXPECT_EQ(sink.Values("ETW Processor(0)\\% Processor Time"), (std::vector<double>{50, 10}));
  EXPECT_EQ(sink.Values("ETW Processor(1)\\% Processor Time"), (std::vector<double>{70, 50}));
  EXPECT_EQ(sink.Values("ETW Processor(_Total)\\% Processor Time"), (std::vector<double>{60, 30}));
  EXPECT_EQ(sink.Values("ETW Processor(_Total)\\% Unknown Time"), (std::vector<double>{0, 0}));
  EXPECT_TRUE(sink.Values("ETW Processor(1)\\% DPC Time").empty()) << "not in the table: not stored, not zero";
  EXPECT_EQ(sink.Values("ETW Process(sqlservr:1200)\\Queue Time p95"), (std::vector<double>{50}));
  EXPECT_EQ(sink.Values("ETW Process(w3wp:2400)\\Queue Time p95"), (std::vector<double>{300}));
  ASSERT_EQ(sink.issues.size(), 1u);
  EXPECT_EQ(sink.issues[0].code, "trace-start");
  EXPECT_NE(sink.issues[0].message.find("2026-11-02T10:00:00.000Z"), std::string::npos) << sink.issues[0].message;
  EXPECT_EQ(sum.issues, 1);
}

TEST(WpaPreciseTest, TheResultDoesNotDependOnChunking) {
  SeriesSink whole, bytes;
  ASSERT_TRUE(ReadWith<WpaPreciseReader>(Fixture("web01-precise.csv"), Opts(), &whole).ok());
  ASSERT_TRUE(ReadWith<WpaPreciseReader>(Fixture("web01-precise.csv"), Opts(), &bytes, nullptr, 7).ok());
  EXPECT_TRUE(testing::ExpectWithin(whole, bytes).empty());
}

// Runs on 4 CPUs over 3 s: each CPU its own threads of 6 shared processes, gaps and back-to-back
// switches, half the switch-ins readied (never before the thread's last switch-out).
std::vector<ThreadRun> RandomRuns(uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&rng](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  std::vector<ThreadRun> runs;
  std::map<uint32_t, int64_t> last_out;
  for (int cpu = 0; cpu < 4; ++cpu) {
    std::set<int64_t> readied;  // the dumper text holds one ReadyThread per time and CPU
    for (int64_t t = cpu == 0 ? 0 : pick(0, 50'000); t < 3'000'000;) {
      const auto p = static_cast<uint32_t>(pick(0, 5));
      ThreadRun r{cpu, t, t + pick(1, 120'000), "p" + std::to_string(p) + ".exe", 100 + 4 * p, 1000 + 10 * p + cpu};
      if (!runs.empty() && pick(0, 1) == 1) r.readied_us = pick(last_out[r.tid], t);
      if (r.readied_us >= 0 && !readied.insert(r.readied_us).second) r.readied_us = -1;
      last_out[r.tid] = r.to_us;
      runs.push_back(r);
      t = r.to_us + (pick(0, 9) < 3 ? 0 : pick(1, 80'000));
    }
  }
  return runs;
}

std::string WpaCsv(std::vector<ThreadRun> runs, uint32_t seed) {
  std::shuffle(runs.begin(), runs.end(), std::mt19937(seed));  // the view's order is not time order
  auto sec = [](int64_t us) {
    char b[40];
    std::snprintf(b, sizeof b, "%lld.%06lld000", static_cast<long long>(us / 1'000'000),
                  static_cast<long long>(us % 1'000'000));
    return std::string(b);
  };
  std::string out = "New Process,New Thread Id,Cpu,Switch-In Time (s),Next Switch-Out Time (s),Ready (µs)\n";
  for (const ThreadRun& r : runs) {
    out += r.image + " (" + std::to_string(r.pid) + ")," + std::to_string(r.tid) + "," + std::to_string(r.cpu) + "," +
           sec(r.from_us) + "," + sec(r.to_us) + "," +
           (r.readied_us >= 0 ? std::to_string(r.from_us - r.readied_us) + ".000" : "") + "\n";
  }
  return out;
}

TEST(WpaPreciseTest, RandomRunsReadAsTheDumperReadsThem) {
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    const std::vector<ThreadRun> runs = RandomRuns(seed);
    SeriesSink wpa, dumper;
    Status s = ReadWith<WpaPreciseReader>(WpaCsv(runs, seed), Opts(), &wpa);
    ASSERT_TRUE(s.ok()) << s.message();
    s = ReadWith<XperfDumperReader>(testing::XperfText(runs), Opts("x.txt", "WEB01", false), &dumper);
    ASSERT_TRUE(s.ok()) << s.message();
    for (const std::string& name : testing::ExpectWithin(wpa, dumper)) EXPECT_TRUE(IsDeferred(name)) << name;
    double queued = 0;
    for (const auto& [name, points] : wpa.series)
      if (name.ends_with("\\Queue Time p95")) queued += points.at(0).value;
    EXPECT_GT(queued, 0) << "the runs test queue times too";
    EXPECT_EQ(wpa.issues.size(), 1u) << wpa.issues.back().message;
  }
}

}  // namespace
}  // namespace vrecon::etw
