// WPA's CPU Usage (Precise) CSV reader on rows it cannot use: each is an issue with its line,
// counted, and what the row still tells is kept (an unreadable process's run is unknown time);
// files it cannot place are refused with one sentence; the same file again stores nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "adapters/etw/wpa_precise.h"
#include "tests/adapters/etw/series_sink.h"
#include "tests/support/cli_runner.h"
#include "tests/support/reader_options.h"

namespace vrecon::etw {
namespace {

using testing::SeriesSink;

ReaderOptions RowsOpts(std::string machine = "APP02", bool with_start = true) {
  ReaderOptions o = testing::Options("x.csv", std::nullopt, nullptr, std::move(machine));
  if (with_start) o.trace_start = ParseIso("2026-11-02T11:00:00+01:00");
  return o;
}

Status ReadRows(std::string_view text, ReaderOptions o, SeriesSink* sink, ReadSummary* sum = nullptr) {
  WpaPreciseReader r(std::move(o), sink);
  RETURN_IF_ERROR(r.Parse(text));
  Status s = r.Finish();
  if (sum) *sum = r.summary();
  return s;
}

constexpr std::string_view kBadRows =
    "New Process,New Thread Id,Count,Cpu,Switch-In Time (s),Next Switch-Out Time (s),Ready (µs)\n"
    "a.exe (10),11,1,0,0.000000000,0.500000000,\n"  // 2: good
    "a.exe (10),11,1,0,abc,0.6,\n"                  // 3
    "a.exe (10),11,1,0,0.6,0.55,\n"                 // 4
    "b.exe (20),21,1,0,0.4,0.7,\n"                  // 5: into line 2's run
    "a.exe (10),11,7,0,0.7,0.8,\n"                  // 6
    "a.exe (10),11,1,0\n"                           // 7
    "Unknown,5,1,1,0.1,0.3,\n"                      // 8: unknown time on CPU 1
    "b.exe (20),21,1,1,0.5,0.9,\"2,000,000\"\n"     // 9: kept, without its queue time
    "b.exe (20),21,1,1,25000.0,25000.1,\n"          // 10
    "a.exe (10),11,1,1,\"0,95\",1.0,\n"             // 11: a decimal comma
    "a.exe (10),11,1,0,0.8,1.0,abc\n"               // 12: kept, without its queue time
    "a.exe (10),11,1,x,0.8,1.0,\n"                  // 13
    "\"a.exe (10),11,1,0,0.9,1.0,\n"                // 14
    "a.exe (10),11,1,0,0.9,,\n";                    // 15

TEST(WpaPreciseRowsTest, EachBadRowIsAnIssueWithItsLineAndTheRestIsRead) {
  SeriesSink sink;
  ReadSummary sum;
  const Status s = ReadRows(kBadRows, RowsOpts(), &sink, &sum);
  ASSERT_TRUE(s.ok()) << s.message();
  std::map<int64_t, std::string> codes;
  for (const ImportIssue& i : sink.issues) {
    EXPECT_EQ(i.file, "x.csv");
    EXPECT_TRUE(codes.emplace(i.line, i.code).second) << i.line;
  }
  const std::map<int64_t, std::string> expected = {
      {0, "trace-start"}, {3, "bad-number"},  {4, "bad-run"},   {5, "overlapping-run"}, {6, "aggregated-row"},
      {7, "ragged-row"},  {8, "bad-process"}, {9, "bad-ready"}, {10, "bad-time"},       {11, "bad-number"},
      {12, "bad-number"}, {13, "bad-number"}, {14, "bad-row"},  {15, "bad-row"},
  };
  EXPECT_EQ(codes, expected);
  EXPECT_EQ(sum.issues, 14);
  // CPU 0: a 0-0.5 s and 0.8-1 s. CPU 1: an unreadable run 0.1-0.3 s, b 0.5-0.9 s.
  EXPECT_EQ(sink.Values("ETW Process(a:10)\\% Processor Time"), (std::vector<double>{70}));
  EXPECT_EQ(sink.Values("ETW Process(b:20)\\% Processor Time"), (std::vector<double>{40}));
  EXPECT_EQ(sink.Values("ETW Process(b:20)\\Queued Switch-ins/sec"), (std::vector<double>{0}));
  EXPECT_EQ(sink.Values("ETW Processor(0)\\% Processor Time"), (std::vector<double>{70}));
  EXPECT_EQ(sink.Values("ETW Processor(1)\\% Processor Time"), (std::vector<double>{40}));
  EXPECT_EQ(sink.Values("ETW Processor(1)\\% Unknown Time"), (std::vector<double>{20}));
  EXPECT_EQ(FormatIso(sink.series.begin()->second[0].start, false), "2026-11-02T10:00:00Z");
}

TEST(WpaPreciseRowsTest, APidTakenByAnotherImageIsANewProcess) {
  SeriesSink sink;
  const Status s = ReadRows(
      "New Process,New Thread Id,Cpu,Switch-In Time (s),Next Switch-Out Time (s)\n"
      "c.exe (10),13,0,1.6,1.8\n"
      "a.exe (10),11,0,0.1,0.2\n",
      RowsOpts(), &sink);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(sink.HasIssue("pid-reused"));
  EXPECT_EQ(sink.issues.back().line, 2);
  const std::vector<double> a = sink.Values("ETW Process(a:10)\\% Processor Time");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0], 10);
  EXPECT_EQ(a[1], 0) << "alive until c took its pid at 1.6 s: its last second is there, not missing";
  // The last bucket ends with the last run, at 1.8 s.
  EXPECT_EQ(sink.Values("ETW Process(c:10)\\% Processor Time"), (std::vector<double>{25}));
}

TEST(WpaPreciseRowsTest, RefusesWhatItCannotPlaceInOneSentence) {
  const std::string text = testing::ReadText(testing::Fixture("etw/web01-precise.csv"));
  SeriesSink sink;
  Status s = ReadRows(text, RowsOpts(""), &sink);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "x.csv: a WPA CSV export does not name its computer: give it with --machine NAME");
  s = ReadRows(text, RowsOpts("WEB01", false), &sink);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("give it with --trace-start, e.g. 2026-11-02T10:00:00+01:00"), std::string::npos)
      << s.message();
  s = ReadRows("New Process,New Thread Id,Switch-In Time (s),Next Switch-Out Time (s)\na.exe (1),2,0.1,0.2\n",
               RowsOpts(), &sink);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(
      s.message().starts_with("x.csv:1: the header has no \"Cpu\" column, which vrecon needs to read a CPU Usage "
                              "(Precise) export; the columns"))
      << s.message();
  s = ReadRows("New Process,New Thread Id,Cpu,Switch-In Time (s)\na.exe (1),2,0,0.1\n", RowsOpts(), &sink);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("neither \"Next Switch-Out Time\" nor \"CPU Usage\""), std::string::npos);
  s = ReadRows("New Process,New Thread Id,Cpu,Switch-In Time (s),Next Switch-Out Time (s)\n\n", RowsOpts(), &sink);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no row could be read"), std::string::npos) << s.message();
  s = ReadRows("", RowsOpts(), &sink);
  ASSERT_FALSE(s.ok());
}

TEST(WpaPreciseRowsTest, TheSameFileAgainStoresNothingAndAnotherExportIsAnotherFile) {
  const std::string text = testing::ReadText(testing::Fixture("etw/web01-precise.csv"));
  std::vector<uint64_t> fingerprints;
  auto options = [&](int64_t after) {
    ReaderOptions o = RowsOpts("WEB01");
    o.resume_lookup = [&fingerprints, after](uint64_t f) {
      fingerprints.push_back(f);
      return ResumePoint{after, 0};
    };
    return o;
  };
  SeriesSink first, again, other;
  ReadSummary sum;
  ASSERT_TRUE(ReadRows(text, options(0), &first, &sum).ok());
  EXPECT_EQ(sum.rows, 3);
  EXPECT_EQ(sum.consumed_lines, 9);
  ASSERT_TRUE(ReadRows(text, options(9), &again, &sum).ok());
  EXPECT_EQ(sum.rows, 0);
  EXPECT_EQ(sum.rows_already, 3);
  EXPECT_EQ(sum.issues, 0);
  EXPECT_TRUE(again.series.empty());
  EXPECT_TRUE(again.issues.empty());
  ASSERT_TRUE(
      ReadRows(text + "Idle (0),0,1,0,1.300000000,1.900000000,,,,600.000000,,,Running\r\n", options(0), &other).ok());
  ASSERT_EQ(fingerprints.size(), 3u);
  EXPECT_EQ(fingerprints[0], fingerprints[1]);
  EXPECT_NE(fingerprints[0], fingerprints[2]) << "every line counts, not just the first";
}

}  // namespace
}  // namespace vrecon::etw
