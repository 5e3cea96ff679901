// The xperf dumper reader on fixtures/etw (written by hand from the layouts in
// docs/formats/etw.md), every figure computed by hand: see fixtures/etw/README.md.
#include "adapters/etw/xperf_dumper.h"

#include <gtest/gtest.h>

#include <cmath>

#include "src/core/file_stream.h"
#include "tests/adapters/etw/series_sink.h"
#include "tests/support/cli_runner.h"
#include "tests/support/reader_options.h"

namespace vrecon::etw {
namespace {

using testing::SeriesSink;

Status ReadDump(const std::string& path, ReaderOptions options, SeriesSink* sink, ReadSummary* summary = nullptr,
                size_t chunk = 1 << 20) {
  XperfDumperReader r(std::move(options), sink);
  Status s = testing::ReadInChunks(r, testing::ReadText(path), chunk);
  if (summary) *summary = r.summary();
  return s;
}

std::string DumpFixture(const std::string& name) { return testing::Fixture("etw/" + name); }

ReaderOptions Web01() { return testing::Options(DumpFixture("web01-cswitch.txt"), std::nullopt, nullptr, "WEB01"); }

TEST(XperfDumperTest, PerProcessCpuBottleneckAndQueuePerSecond) {
  SeriesSink sink;
  ReadSummary sum;
  const Status s = ReadDump(DumpFixture("web01-cswitch.txt"), Web01(), &sink, &sum);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(sum.format, "xperf-dumper");
  EXPECT_EQ(sum.rows, 3);  // two 1 s buckets, one p95 window
  EXPECT_EQ(FormatIso(*sum.first_end, false), "2026-11-02T10:00:01Z");
  EXPECT_EQ(FormatIso(*sum.last_end, false), "2026-11-02T10:00:02Z");
  const auto& sql = sink.series.at("ETW Process(sqlservr:1200)\\% Processor Time");
  ASSERT_EQ(sql.size(), 2u);
  EXPECT_EQ(FormatIso(sql[0].start, false), "2026-11-02T10:00:00Z");
  ExpectWeb01Processes(sink, true);
  EXPECT_EQ(sink.Values("ETW Process(System:4)\\% Processor Time"), (std::vector<double>{0, 0}));
  // notepad started at 1.1 s: missing before, not zero.
  const std::vector<double> notepad = sink.Values("ETW Process(notepad:3100)\\% Processor Time");
  ASSERT_EQ(notepad.size(), 1u);
  EXPECT_EQ(notepad[0], 10);
  EXPECT_EQ(sink.Values("ETW Processor(_Total)\\% Processor Time"), (std::vector<double>{60, 30}));
  EXPECT_EQ(sink.Values("ETW Processor(0)\\% Processor Time"), (std::vector<double>{50, 10}));
  EXPECT_EQ(sink.Values("ETW Processor(1)\\% Processor Time"), (std::vector<double>{70, 50}));
  EXPECT_DOUBLE_EQ(sink.Values("ETW Processor(1)\\% DPC Time")[0], 0.012);
  EXPECT_DOUBLE_EQ(sink.Values("ETW Processor(0)\\% Interrupt Time")[0], 0.003);
  EXPECT_EQ(sink.Values("ETW Processor(_Total)\\% Unknown Time"), (std::vector<double>{0, 0}));
  EXPECT_EQ(sink.Values("ETW Process(sqlservr:1200)\\Queue Time p95"), (std::vector<double>{50}));
  EXPECT_EQ(sink.Values("ETW Process(w3wp:2400)\\Queue Time p95"), (std::vector<double>{300}));
  const auto& p95 = sink.series.at("ETW Process(w3wp:2400)\\Queue Time p95")[0];
  EXPECT_EQ(p95.end - p95.start, 2 * kNsPerSec) << "a window clipped to the trace";
  ASSERT_TRUE(sink.HasIssue("trace-start"));
  EXPECT_NE(sink.issues[0].message.find("2026-11-02T10:00:00.000Z"), std::string::npos) << sink.issues[0].message;
  EXPECT_EQ(sum.issues, 1) << sink.issues.back().message;
}

TEST(XperfDumperTest, TheResultDoesNotDependOnChunking) {
  SeriesSink whole, bytes;
  ASSERT_TRUE(ReadDump(DumpFixture("web01-cswitch.txt"), Web01(), &whole).ok());
  ASSERT_TRUE(ReadDump(DumpFixture("web01-cswitch.txt"), Web01(), &bytes, nullptr, 7).ok());
  ASSERT_EQ(whole.series.size(), bytes.series.size());
  for (const auto& [name, points] : whole.series) {
    const auto& other = bytes.series.at(name);
    ASSERT_EQ(points.size(), other.size()) << name;
    for (size_t i = 0; i < points.size(); ++i) {
      if (std::isnan(points[i].value)) {
        EXPECT_TRUE(std::isnan(other[i].value)) << name;
      } else {
        EXPECT_EQ(points[i].value, other[i].value) << name;
      }
    }
  }
}

TEST(XperfDumperTest, LostEventsAreSaidAndABrokenSequenceIsUnknownTime) {
  SeriesSink sink;
  ReaderOptions o = testing::Options(DumpFixture("lost-events.txt"), std::nullopt, nullptr, "APP02");
  o.trace_start = ParseIso("2026-11-02T11:00:00+01:00");
  ReadSummary sum;
  const Status s = ReadDump(DumpFixture("lost-events.txt"), o, &sink, &sum);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(sink.HasIssue("events-lost"));
  EXPECT_TRUE(sink.HasIssue("switch-sequence-broken"));
  EXPECT_TRUE(sink.HasIssue("trace-start"));
  EXPECT_EQ(FormatIso(sink.series.begin()->second[0].start, false), "2026-11-02T10:00:00Z");
  // cpu0: app 0.1-0.3 s, then a switch-out of a thread it was not running at 0.5 s.
  EXPECT_EQ(sink.Values("ETW Processor(0)\\% Unknown Time"), (std::vector<double>{20}));
  EXPECT_EQ(sink.Values("ETW Processor(0)\\% Processor Time"), (std::vector<double>{50}));
  EXPECT_EQ(sink.Values("ETW Process(app:500)\\% Processor Time"), (std::vector<double>{20}));
  // Recorded without DPC and INTERRUPT (its header declares neither): their time is unknown, not 0.
  EXPECT_EQ(sink.series.count("ETW Processor(_Total)\\% DPC Time"), 0u);
  EXPECT_EQ(sink.series.count("ETW Processor(0)\\% Interrupt Time"), 0u);
}

TEST(XperfDumperTest, RefusesWhatItCannotPlace) {
  SeriesSink sink;
  // No --machine.
  Status s = ReadDump(DumpFixture("web01-cswitch.txt"), testing::Options(DumpFixture("web01-cswitch.txt")), &sink);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--machine"), std::string::npos) << s.message();
  // No Trace Start in the file and no --trace-start.
  s = ReadDump(DumpFixture("lost-events.txt"),
               testing::Options(DumpFixture("lost-events.txt"), std::nullopt, nullptr, "APP02"), &sink);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--trace-start"), std::string::npos) << s.message();
}

TEST(XperfDumperTest, HeaderErrorsNameTheFieldOrTheEvent) {
  SeriesSink sink;
  auto read = [&](const char* file, std::string_view text) {
    XperfDumperReader r(testing::Options(file, std::nullopt, nullptr, "M"), &sink);
    Status s = r.Parse(text);
    return s.ok() ? r.Finish() : s;
  };
  Status s = read("x.txt", "BeginHeader\nCSwitch, TimeStamp, New TID\nEndHeader\n");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().substr(0, 55), "x.txt:2: the CSwitch header has no \"New Process Name ( ");
  s = read("y.txt", "BeginHeader\nDPC, TimeStamp, ElapsedTime, CPU\nEndHeader\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("declares no CSwitch"), std::string::npos) << s.message();
  s = read("z.txt", "(PDH-CSV 4.0)\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("not an xperf dumper text"), std::string::npos) << s.message();
}

TEST(XperfDumperTest, Pieces) {
  std::string_view image;
  uint32_t pid = 0;
  ASSERT_TRUE(ParseProcessField("  svchost.exe ( 884)", &image, &pid));
  EXPECT_EQ(image, "svchost.exe");
  EXPECT_EQ(pid, 884u);
  ASSERT_TRUE(ParseProcessField("Idle (   0)", &image, &pid));
  EXPECT_EQ(pid, 0u);
  ASSERT_TRUE(ParseProcessField("app (x86) helper.exe (10612)", &image, &pid));
  EXPECT_EQ(image, "app (x86) helper.exe");
  EXPECT_FALSE(ParseProcessField("svchost.exe", &image, &pid));
  EXPECT_FALSE(ParseProcessField("svchost.exe (abc)", &image, &pid));
  EXPECT_EQ(FormatIso(*FromFileTime("134380872000000000"), false), "2026-11-02T10:00:00Z");
  EXPECT_FALSE(FromFileTime("12x").has_value());
  EXPECT_TRUE(LooksLikeXperfDumper("\r\nBeginHeader\r\nCSwitch, TimeStamp\r\n"));
  EXPECT_FALSE(LooksLikeXperfDumper("\"(PDH-CSV 4.0) (UTC)(0)\"\n"));
  EXPECT_EQ(ProcessBaseName("MsMpEng.EXE"), "MsMpEng");
  EXPECT_EQ(ProcessBaseName("System"), "System");
}

}  // namespace
}  // namespace vrecon::etw
