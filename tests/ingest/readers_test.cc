// The list of input formats (src/ingest/readers) and what every reader shares (src/core/reader):
// each fixture is sniffed to its own format and read by the reader the list makes for it; issue
// details are capped per code the same way in every reader, the count staying exact.
#include "src/ingest/readers.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "src/core/file_stream.h"
#include "tests/support/capture_sink.h"
#include "tests/support/cli_runner.h"
#include "tests/support/reader_options.h"
#include "tests/support/unread_fixtures.h"

namespace vrecon {
namespace {

using testing::CaptureSink;
using testing::Fixture;

// The name of the reader the list picks for `head`, "" when none.
std::string Guessed(std::string_view head) {
  const FormatGuess g = GuessFormat(head);
  return g.reader ? std::string(g.reader->name) : "";
}

const ReaderFormat& Perfmon() { return ReaderFormats().back(); }

TEST(ReadersTest, NamesAreUniqueAndPerfmonSaysWhatIsWrongWithEmptyBinaryOrHeaderlessLogs) {
  std::set<std::string_view> names;
  for (const ReaderFormat& f : ReaderFormats()) EXPECT_TRUE(names.insert(f.name).second) << f.name;
  EXPECT_EQ(Perfmon().name, "perfmon-csv");
  EXPECT_EQ(Guessed(""), "perfmon-csv");
  EXPECT_EQ(Guessed(std::string("BLG\0\x01\x02", 6)), "perfmon-csv") << "a .blg: the reader says how to convert it";
  EXPECT_EQ(Guessed("Time,\"\\\\WEB01\\Processor(_Total)\\% Processor Time\"\n"), "perfmon-csv")
      << "counter paths without the format cell: the reader says what the first cell should be";
  EXPECT_EQ(Guessed("not any format at all\n"), "");
}

struct Case {
  const char* fixture;
  const char* sniffed;  // the list's entry
  const char* format;   // what the reader says after reading (stored with the file)
};

TEST(ReadersTest, EachFixtureIsSniffedAndReadByItsOwnReader) {
  const Case cases[] = {
      {"seed003/guest-web01.csv", "perfmon-csv", "perfmon-csv"},
      {"perfmon/es-cp1252.tsv", "perfmon-csv", "perfmon-tsv"},
      {"esxtop/app02-contention.csv", "perfmon-csv", "perfmon-csv"},
      {"powercli/enus-type.csv", "powercli-csv", "powercli-csv"},
      {"powercli/utf16le-24h.csv", "powercli-csv", "powercli-csv"},
      {"linux_proc/sar_header_12h.log", "sar-text", "sar-text"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fixture);
    const std::string path = Fixture(c.fixture);
    const FormatGuess g = GuessFormat(ReadHead(path, kSniffBytes));
    ASSERT_NE(g.reader, nullptr) << g.refusal;
    const ReaderFormat& f = *g.reader;
    EXPECT_EQ(f.name, c.sniffed);
    CaptureSink sink;
    std::unique_ptr<Reader> reader = f.make(testing::Options(path, 0), &sink);
    const Status s = ReadFileWith(path, reader.get());
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(reader->summary().format, c.format);
    EXPECT_GT(reader->summary().rows, 0);
    EXPECT_FALSE(reader->summary().columns.empty());
  }
}

// Read through the list as `vrecon ingest --machine WEB01 --trace-start ...` reads it.
TEST(ReadersTest, AWpaPreciseExportIsSniffedAndReadThroughTheList) {
  const std::string path = Fixture("etw/web01-precise.csv");
  const FormatGuess g = GuessFormat(ReadHead(path, kSniffBytes));
  ASSERT_NE(g.reader, nullptr) << g.refusal;
  const ReaderFormat& f = *g.reader;
  EXPECT_EQ(f.name, "wpa-precise-csv");
  CaptureSink sink;
  ReaderOptions o = testing::Options(path, std::nullopt, nullptr, "WEB01");
  o.trace_start = ParseIso("2026-11-02T10:00:00Z");
  std::unique_ptr<Reader> reader = f.make(std::move(o), &sink);
  const Status s = ReadFileWith(path, reader.get());
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(reader->summary().format, "wpa-precise-csv");
  EXPECT_EQ(reader->summary().rows, 3);
  for (const SeriesKey& k : reader->summary().columns) {
    EXPECT_EQ(k.machine, "WEB01");
    EXPECT_EQ(k.counter.find("DPC"), std::string::npos) << "the table has no DPC time";
  }
}

// Both Sampled fixtures (one with units in its header, one without) read through the list as
// `vrecon ingest --machine WEB01 --trace-start ...` reads them.
TEST(ReadersTest, AWpaSampledExportIsSniffedAndReadThroughTheList) {
  for (const char* name : {"etw/web01-sampled.csv", "etw/wpa-sampled-no-units.csv"}) {
    SCOPED_TRACE(name);
    const std::string path = Fixture(name);
    const FormatGuess g = GuessFormat(ReadHead(path, kSniffBytes));
    ASSERT_NE(g.reader, nullptr) << g.refusal;
    EXPECT_EQ(g.reader->name, "wpa-sampled-csv");
    CaptureSink sink;
    ReaderOptions o = testing::Options(path, std::nullopt, nullptr, "WEB01");
    o.trace_start = ParseIso("2026-11-02T10:00:00Z");
    std::unique_ptr<Reader> reader = g.reader->make(std::move(o), &sink);
    const Status s = ReadFileWith(path, reader.get());
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(reader->summary().format, "wpa-sampled-csv");
    EXPECT_GT(reader->summary().rows, 0);
    EXPECT_EQ(reader->summary().issues, 1) << "only where its times come from";
    for (const SeriesKey& k : reader->summary().columns) EXPECT_EQ(k.machine, "WEB01");
  }
}

// The WPA sniffer comes before Perfmon's catch-all: no other fixture may look like an export.
TEST(ReadersTest, NoOtherFixtureIsTakenForAWpaExport) {
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(VRECON_FIXTURES_DIR)) {
    if (!e.is_regular_file()) continue;
    ++files;
    const std::string path = e.path().string();
    const bool wpa = path.ends_with("etw/web01-precise.csv");
    EXPECT_EQ(Guessed(ReadHead(path, kSniffBytes)) == "wpa-precise-csv", wpa) << path;
  }
  EXPECT_GT(files, 50);
}

// fixtures/unread/: inputs people feed vrecon that no reader takes; each is named for what it is.
TEST(ReadersTest, AFileNoReaderTakesIsNamedForWhatItIs) {
  const std::vector<testing::UnreadFixture> unread = testing::UnreadFixtures();
  for (const testing::UnreadFixture& u : unread) {
    SCOPED_TRACE(u.path);
    const FormatGuess g = GuessFormat(ReadHead(u.path, kSniffBytes));
    EXPECT_EQ(g.reader, nullptr) << g.reader->name;
    EXPECT_NE(g.refusal.find(u.expected), std::string::npos) << g.refusal;
    EXPECT_EQ(g.refusal.find("PDH-CSV 4.0)\" or"), std::string::npos) << "no Perfmon complaint: " << g.refusal;
  }
  EXPECT_EQ(unread.size(), 5u);
}

TEST(ReadersTest, AnUnrecognisedFileIsToldEveryFormatVreconReads) {
  const FormatGuess g = GuessFormat("{\"vms\": []}\n");
  ASSERT_EQ(g.reader, nullptr);
  EXPECT_NE(g.refusal.find("its first line: \"{\"vms\": []}\""), std::string::npos) << g.refusal;
  for (const ReaderFormat& f : ReaderFormats())
    EXPECT_NE(g.refusal.find(f.description), std::string::npos) << f.name << ": " << g.refusal;
}

// The shapes of the tables and snapshots that are recognised, beyond the fixtures: a /proc/stat of
// an old kernel (four numbers), AIX sar of several CPUs.
TEST(ReadersTest, RecognisedUnreadShapes) {
  const struct {
    const char* head;
    const char* says;
  } cases[] = {
      {"cpu  10 0 20 300\ncpu0 10 0 20 300\nbtime 1709800000\n", "/proc/stat snapshot"},
      {"cpu  10 0 20 300\r\ncpu0 10 0 20 300\r\n", "/proc/stat snapshot"},  // copied through Windows
      {"\n10:00:00 cpu  %usr %sys %wio %idle physc\n10:00:05  0   12   4   0   84  0.20\n", "AIX (PowerVM)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.head);
    const FormatGuess g = GuessFormat(c.head);
    EXPECT_EQ(g.reader, nullptr);
    EXPECT_NE(g.refusal.find(c.says), std::string::npos) << g.refusal;
  }
  // A Precise export names Weight columns too: it stays the Precise reader's. A WPA 10 Sampled
  // export with units, or with a TimeStamp but no % Weight, is the Sampled reader's.
  EXPECT_EQ(Guessed("New Process,New Thread Id,Cpu,Switch-In Time (s),Weight,% Weight\n"), "wpa-precise-csv");
  EXPECT_EQ(
      Guessed("Process,Thread ID,CPU,Weight (in view) (ms),% Weight,TimeStamp (s)\n\"a.exe (1)\",2,0,1.0,0.5,1.0\n"),
      "wpa-sampled-csv");
  EXPECT_EQ(Guessed("TimeStamp,CPU,Process,Weight\n"), "wpa-sampled-csv");
  EXPECT_EQ(Guessed("Process,CPU,Weight,Count\n"), "") << "a Weight alone is not a profile's";
  // Linux sar text is read, AIX's is not; a cpu line of Linux sar is not /proc/stat.
  EXPECT_EQ(Guessed("Linux 5.4.17 (web01) \t03/07/2024 \t_x86_64_\t(2 CPU)\n"), "sar-text");
}

// Every fixture that is an input (not an expected output, a store or a doc) still gets a reader,
// but those made not to.
TEST(ReadersTest, EveryInputFixtureStillGetsAReader) {
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(VRECON_FIXTURES_DIR)) {
    const std::string path = e.path().string();
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || path.find("/unread/") != std::string::npos ||
        path.find("/report/") != std::string::npos || path.ends_with("not-perfmon.csv") ||
        path.find(".expected") != std::string::npos)
      continue;
    if (ext != ".csv" && ext != ".tsv" && ext != ".log" && ext != ".blg") continue;
    ++files;
    EXPECT_NE(Guessed(ReadHead(path, kSniffBytes)), "")
        << path << ": " << GuessFormat(ReadHead(path, kSniffBytes)).refusal;
  }
  EXPECT_GT(files, 30);
}

TEST(ReadersTest, AMissingFileIsOneErrorNamingIt) {
  CaptureSink sink;
  std::unique_ptr<Reader> reader = GuessFormat("").reader->make(testing::Options("nowhere.csv"), &sink);
  const Status s = ReadFileWith("/nonexistent/nowhere.csv", reader.get());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent/nowhere.csv"), std::string::npos) << s.message();
}

TEST(IssueCounterTest, CountsEveryIssueAndKeepsTheFirstThousandOfEachCode) {
  IssueCounter c;
  int kept = 0;
  for (int i = 0; i < 1500; ++i) kept += c.Count("bad-row");
  kept += c.Count("other");
  EXPECT_EQ(kept, 1001);
  EXPECT_EQ(c.total(), 1501);
  CaptureSink sink;
  c.ReportCapped("f.csv", &sink);
  ASSERT_EQ(sink.issues_.size(), 1u);
  EXPECT_EQ(sink.issues_[0].code, "bad-row");
  EXPECT_EQ(sink.issues_[0].severity, Severity::kInfo);
  EXPECT_EQ(sink.issues_[0].message, "500 more 'bad-row' issues in this file are counted but not listed");
  c.Clear();
  EXPECT_EQ(c.total(), 0);
  EXPECT_TRUE(c.Count("bad-row"));
}

// Each reader's input with `n` bad lines of one kind.
std::string WithBadLines(std::string_view format, int n) {
  std::string text;
  if (format == "perfmon-csv") {
    text = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\W\\Processor(_Total)\\% Processor Time\"\n";
    for (int i = 0; i < n; ++i) text += "\"not a time\",\"1\"\n";
    text += "\"11/02/2026 10:00:00.000\",\"1\"\n";
  } else if (format == "powercli-csv") {
    text = "\"Value\",\"Timestamp\",\"MetricId\",\"Unit\",\"Entity\",\"IntervalSecs\",\"Instance\"\n";
    for (int i = 0; i < n; ++i) text += "\"1\",\"not a time\",\"cpu.usage.average\",\"%\",\"W\",\"20\",\"\"\n";
    text += "\"1\",\"2026-05-05T18:41:20Z\",\"cpu.usage.average\",\"%\",\"W\",\"20\",\"\"\n";
  } else if (format == "wpa-precise-csv") {
    text = "New Process,New Thread Id,Cpu,Switch-In Time (s),Next Switch-Out Time (s)\n";
    for (int i = 0; i < n; ++i) text += "a.exe (1),2,0,not a time,1\n";
    text += "a.exe (1),2,0,0.5,1\n";
  } else if (format == "wpa-sampled-csv") {
    text = "Process,CPU,Weight (ms),% Weight,TimeStamp (s)\n";
    for (int i = 0; i < n; ++i) text += "a.exe (1),0,1,1,not a time\n";
    text += "a.exe (1),0,1,1,0.5\n";
  } else if (format == "xperf-dumper") {
    text =
        "BeginHeader\nCSwitch, TimeStamp, New Process Name ( PID), New TID, Old Process Name ( PID), Old TID, "
        "OldState, CPU\nEndHeader\nOS Version: 10.0, Trace Start: 134380872000000000\n";
    for (int i = 0; i < n; ++i) text += "CSwitch, 5, a.exe (1)\n";
    text += "CSwitch, 10, a.exe (1), 2, Idle (0), 0, Waiting, 0\n";
  } else {
    text = "Linux 5.4.17 (web01) \t03/07/2024 \t_x86_64_\t(2 CPU)\n";
    for (int i = 0; i < n; ++i) text += "not a sar line\n";
    text += "10:00:00     CPU     %user     %nice   %system   %iowait    %steal     %idle\n";
    text += "10:00:10     all      1.00      0.00      1.00      0.00      0.00     98.00\n";
  }
  return text;
}

TEST(ReadersTest, EveryReaderCapsIssueDetailsTheSameWay) {
  for (const ReaderFormat& f : ReaderFormats()) {
    SCOPED_TRACE(std::string(f.name));
    const std::string text = WithBadLines(f.name, 1005);
    EXPECT_EQ(Guessed(text), f.name);
    CaptureSink sink;
    ReaderOptions o = testing::Options("x", 0, nullptr, "M");
    o.trace_start = ParseIso("2026-11-02T10:00:00Z");  // for the WPA export; the others ignore it
    std::unique_ptr<Reader> reader = f.make(std::move(o), &sink);
    ASSERT_TRUE(reader->Parse(text).ok());
    const Status s = reader->Finish();
    ASSERT_TRUE(s.ok()) << s.message();
    // The ETW readers add one line saying where their times come from.
    const size_t extra = f.name == "xperf-dumper" || f.name.starts_with("wpa-") ? 1 : 0;
    EXPECT_EQ(reader->summary().issues, 1005 + static_cast<int64_t>(extra));
    ASSERT_EQ(sink.issues_.size(), 1001u + extra);
    EXPECT_EQ(sink.issues_.back().message,
              "5 more '" + sink.issues_[extra].code + "' issues in this file are counted but not listed");
  }
}

}  // namespace
}  // namespace vrecon
