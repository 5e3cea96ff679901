#include "adapters/perfmon/perfmon_reader.h"

#include <gtest/gtest.h>

#include "tests/support/capture_sink.h"
#include "tests/support/reader_options.h"

namespace vrecon::perfmon {
namespace {

using vrecon::testing::CaptureSink;

constexpr const char* kLog =
    "\"(PDH-CSV 4.0) (Eastern Standard Time)(300)\",\"\\\\WEB01\\Processor(_Total)\\% Processor Time\","
    "\"\\\\WEB01\\Process(svchost#2)\\% Processor Time\"\r\n"
    "\"11/02/2026 10:00:00.000\",\" \",\" \"\r\n"
    "\"11/02/2026 10:00:15.000\",\"73.5\",\"5.0045e-005\"\r\n"
    "\"11/02/2026 10:00:30.000\",\"\",\"12\"\r\n";

Status ParseAll(std::string_view text, size_t chunk, CaptureSink* sink, ReaderOptions opts = {}) {
  if (opts.file.empty()) opts.file = "x.csv";
  PerfmonReader p(opts, sink);
  return testing::ReadInChunks(p, text, chunk);
}

TEST(PerfmonReaderTest, ReadsColumnsRowsAndUtcTimes) {
  CaptureSink sink;
  ASSERT_TRUE(ParseAll(kLog, 1 << 20, &sink).ok());
  ASSERT_EQ(sink.columns_.size(), 2u);
  EXPECT_EQ(sink.columns_[0].machine, "WEB01");
  EXPECT_EQ(sink.columns_[0].object, "Processor");
  EXPECT_EQ(sink.columns_[0].instance, "_Total");
  EXPECT_EQ(sink.columns_[1].instance, "svchost#2");
  EXPECT_EQ(sink.columns_[1].unit, "percent");
  ASSERT_EQ(sink.rows_.size(), 3u);
  EXPECT_EQ(FormatIso(sink.rows_[0].end, true), "2026-11-02T15:00:00.000Z");  // local + 300 min
  EXPECT_EQ(sink.rows_[0].start, sink.rows_[0].end);
  EXPECT_EQ(sink.rows_[1].start, sink.rows_[0].end);
  EXPECT_TRUE(IsMissing(sink.rows_[0].values[0]));
  EXPECT_DOUBLE_EQ(sink.rows_[1].values[0], 73.5);
  EXPECT_DOUBLE_EQ(sink.rows_[1].values[1], 5.0045e-5);
  EXPECT_TRUE(IsMissing(sink.rows_[2].values[0])) << "an empty cell is missing, not zero";
  EXPECT_TRUE(sink.issues_.empty());
}

TEST(PerfmonReaderTest, ResultDoesNotDependOnChunking) {
  CaptureSink whole, bytewise, odd;
  ASSERT_TRUE(ParseAll(kLog, 1 << 20, &whole).ok());
  ASSERT_TRUE(ParseAll(kLog, 1, &bytewise).ok());
  ASSERT_TRUE(ParseAll(kLog, 7, &odd).ok());
  ASSERT_EQ(bytewise.rows_.size(), whole.rows_.size());
  ASSERT_EQ(odd.rows_.size(), whole.rows_.size());
  for (size_t i = 0; i < whole.rows_.size(); ++i) {
    EXPECT_EQ(bytewise.rows_[i].end, whole.rows_[i].end);
    EXPECT_EQ(odd.rows_[i].end, whole.rows_[i].end);
  }
}

TEST(PerfmonReaderTest, Utf16LeSplitAnywhere) {
  std::string utf16 = "\xFF\xFE";
  for (char c : std::string(kLog)) {
    utf16.push_back(c);
    utf16.push_back('\0');
  }
  CaptureSink a, b;
  ASSERT_TRUE(ParseAll(utf16, 1 << 20, &a).ok());
  ASSERT_TRUE(ParseAll(utf16, 3, &b).ok());
  EXPECT_EQ(a.rows_.size(), 3u);
  EXPECT_EQ(b.rows_.size(), 3u);
  EXPECT_EQ(a.columns_[0].object, "Processor");
}

TEST(PerfmonReaderTest, BadRowsAreIssuesAndReadingGoesOn) {
  const std::string log = std::string(kLog) +
                          "\"11/02/2026 10:00:45.000\",\"1\"\r\n"          // ragged
                          "\"11/02/2026 10:01:00.000\",\"abc\",\"2\"\r\n"  // non-numeric
                          "\"11/02/2026 10:00:50.000\",\"1\",\"2\"\r\n"    // backwards
                          "\"11/02/2026 10:01:15.000\",\"3\",\"4\"\r\n";
  CaptureSink sink;
  ASSERT_TRUE(ParseAll(log, 1 << 20, &sink).ok());
  ASSERT_EQ(sink.issues_.size(), 3u);
  EXPECT_EQ(sink.issues_[0].code, "ragged-row");
  EXPECT_EQ(sink.issues_[0].line, 5);
  EXPECT_EQ(sink.issues_[1].code, "non-numeric");
  EXPECT_EQ(sink.issues_[1].line, 6);
  EXPECT_EQ(sink.issues_[2].code, "time-backwards");
  EXPECT_EQ(sink.issues_[2].line, 7);
  ASSERT_EQ(sink.rows_.size(), 5u);
  EXPECT_TRUE(IsMissing(sink.rows_[3].values[0]));
  EXPECT_DOUBLE_EQ(sink.rows_[3].values[1], 2);
  EXPECT_DOUBLE_EQ(sink.rows_[4].values[0], 3);
}

TEST(PerfmonReaderTest, DstFallBackKeepsUtcMonotonic) {
  const std::string log =
      "\"(PDH-CSV 4.0) (Eastern Daylight Time)(240)\",\"\\\\H\\Processor(_Total)\\% Processor Time\"\n"
      "\"11/01/2026 01:59:30.000\",\"1\"\n"
      "\"11/01/2026 01:59:45.000\",\"2\"\n"
      "\"11/01/2026 01:00:00.000\",\"3\"\n"  // clocks went back: 01:00 EST = 06:00 UTC
      "\"11/01/2026 01:00:15.000\",\"4\"\n";
  CaptureSink sink;
  ASSERT_TRUE(ParseAll(log, 1 << 20, &sink).ok());
  ASSERT_EQ(sink.rows_.size(), 4u);
  EXPECT_EQ(FormatIso(sink.rows_[1].end, false), "2026-11-01T05:59:45Z");
  EXPECT_EQ(FormatIso(sink.rows_[2].end, false), "2026-11-01T06:00:00Z");
  EXPECT_EQ(FormatIso(sink.rows_[3].end, false), "2026-11-01T06:00:15Z");
  ASSERT_EQ(sink.issues_.size(), 1u);
  EXPECT_EQ(sink.issues_[0].code, "dst-shift");
  // The correction engine reads the shift's UTC time back from the message (src/engine/clock_events).
  EXPECT_TRUE(sink.issues_[0].message.ends_with("; shift at 2026-11-01T06:00:00.000Z")) << sink.issues_[0].message;
}

TEST(PerfmonReaderTest, RefusesWhatIsNotALog) {
  CaptureSink sink;
  Status s = ParseAll("name,value\nx,1\n", 1 << 20, &sink);
  EXPECT_TRUE(s.IsParseError());
  EXPECT_NE(s.message().find("x.csv:1"), std::string::npos);
  EXPECT_TRUE(ParseAll("", 1 << 20, &sink).IsParseError());
  Status blg = ParseAll(std::string("PDH\0\0\x01\x02", 7), 1 << 20, &sink);
  EXPECT_NE(blg.message().find("relog"), std::string::npos);
  Status header_only = ParseAll(std::string(kLog).substr(0, std::string(kLog).find('\n') + 1), 1 << 20, &sink);
  EXPECT_NE(header_only.message().find("no data rows"), std::string::npos);
}

TEST(PerfmonReaderTest, ResumeSkipsStoredRowsButKeepsClockState) {
  CaptureSink first;
  ReaderOptions o;
  ASSERT_TRUE(ParseAll(kLog, 1 << 20, &first, o).ok());
  const std::string grown = std::string(kLog) + "\"11/02/2026 10:00:45.000\",\"50\",\"1\"\r\n";
  CaptureSink second;
  ReadSummary summary;
  o.file = "x.csv";
  o.resume_lookup = [](uint64_t) { return ResumePoint{4, 0}; };
  PerfmonReader p(o, &second);
  ASSERT_TRUE(p.Parse(grown).ok());
  ASSERT_TRUE(p.Finish().ok());
  ASSERT_EQ(second.rows_.size(), 1u);
  EXPECT_EQ(second.rows_[0].start, first.rows_.back().end) << "the new row starts where the stored ones ended";
  EXPECT_EQ(p.summary().rows_already, 3);
}

}  // namespace
}  // namespace vrecon::perfmon
