// Linux guests through the real CLI: sar text ingest (golden), `collect procfs --out` read back
// by `vrecon ingest`, and a live sample of this machine while a known CPU burner runs.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <sstream>
#include <thread>

#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

TEST(SarIngestTest, GoldenHeader12hPerCpu) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  CliResult in = Ingest(db, Fixture("linux_proc/sar_header_12h.log"), {"--tz-bias", "0"});
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_EQ(in.err, "");
  EXPECT_NE(in.out.find("\"machines\": [\"web01.example.com\"]"), std::string::npos) << in.out;
  EXPECT_EQ(IssuesFromJson(in.out), std::vector<std::string>{"12:non-numeric"});
  EXPECT_EQ(JsonInt(in.out, "rows"), 3);
  const std::string expected = ReadText(Fixture("linux_proc/sar_header_12h.expected.csv"));
  const std::string actual = SamplesCsv(db);
  EXPECT_EQ(actual, expected) << LineDiff(expected, actual);
  // Again: nothing new.
  CliResult again = Ingest(db, Fixture("linux_proc/sar_header_12h.log"), {"--tz-bias", "0"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(JsonInt(again.out, "rows"), 0);
  EXPECT_EQ(JsonInt(again.out, "rows_already_stored"), 3);
}

TEST(SarIngestTest, NoHeaderNeedsDate) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  CliResult bad = Ingest(db, Fixture("linux_proc/sar_noheader_24h.log"));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("pass --date YYYY-MM-DD"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  CliResult ok = Ingest(db, Fixture("linux_proc/sar_noheader_24h.log"), {"--date", "2024-03-07", "--tz-bias", "-60"});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(JsonInt(ok.out, "rows"), 4);
  // 22:13:34 local at UTC+1 is 21:13:34Z; busy = 100 - 78.30 idle - 0 iowait - 0.30 steal = 21.4.
  const std::string csv = SamplesCsv(db);
  EXPECT_NE(csv.find("guest,sar_noheader_24h,Processor,_Total,% Processor Time,2024-03-07T21:13:29.000Z,"
                     "2024-03-07T21:13:34.000Z,21.4,percent"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("% Steal Time,2024-03-07T21:13:29.000Z,2024-03-07T21:13:34.000Z,0.3,"), std::string::npos) << csv;
  CliResult usage = Ingest(db, Fixture("linux_proc/sar_noheader_24h.log"), {"--date", "07/03/2024"});
  EXPECT_EQ(usage.exit_code, 2);
}

TEST(SarIngestTest, CorrectReportsSteal) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  ASSERT_EQ(Ingest(db, Fixture("linux_proc/sar_header_12h.log"), {"--tz-bias", "0"}).exit_code, 0);
  CliResult c = RunVrecon({"correct", "--db", db, "--format", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_TRUE(std::regex_search(c.out, std::regex(R"("steal_pct": 0\.[0-9]+)"))) << c.out;
  EXPECT_NE(c.out.find("linux-steal-corrected"), std::string::npos) << c.out;
}

TEST(ProcfsCollectTest, PdhCsvRoundTrip) {
  TempDir dir;
  const std::string csv = dir.File("x.csv");
  CliResult r = RunVrecon({"collect", "procfs", "--out", csv, "--count", "3", "--interval", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = ReadText(csv);
  const std::vector<std::string> lines = Lines(text);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_TRUE(std::regex_search(
      text.substr(0, text.find('\n') + 1),
      std::regex(
          R"re(^"\(PDH-CSV 4\.0\) \([^)]+\)\(-?[0-9]+\)","\\\\[^"]+\\Processor\(_Total\)\\% Processor Time",.*\r\n$)re")))
      << text.substr(0, 300);
  // The priming collection: every value missing.
  EXPECT_TRUE(std::regex_match(lines[1], std::regex(R"re(^"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d\.\d{3}"(," ")+\r?$)re")))
      << lines[1].substr(0, 200);
  EXPECT_TRUE(std::regex_search(lines[2], std::regex(R"re(^"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d\.\d{3}","[0-9.e-]+")re")));
  const std::string db = dir.File("x.db");
  CliResult in = Ingest(db, csv);
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_EQ(JsonInt(in.out, "rows"), 4);
  EXPECT_EQ(IssuesFromJson(in.out), std::vector<std::string>{});
  CliResult s = RunVrecon({"samples", "--db", db, "--object", "Processor", "--instance", "_Total", "--counter",
                           "% Steal Time", "--format", "csv"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  int rows = 0;
  for (const std::string& l : Lines(s.out)) rows += !l.empty() && !l.starts_with("source,");
  EXPECT_EQ(rows, 4) << s.out;  // the priming row (missing) and 3 intervals
}

TEST(ProcfsCollectTest, BadUsage) {
  EXPECT_EQ(RunVrecon({"collect", "procfs", "--count", "2", "--duration", "3"}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"collect", "procfs", "--interval", "0"}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"collect", "procfs", "--db", "a.db", "--out", "a.csv"}).exit_code, 2);
  CliResult h = RunVrecon({"collect", "procfs", "--help"});
  EXPECT_EQ(h.exit_code, 0);
  for (const char* opt : {"--db", "--interval", "--duration", "--count", "--out"})
    EXPECT_NE(h.out.find(opt), std::string::npos) << opt;
}

// LIVE: this machine's /proc while a busy loop runs. Bounds are wide on purpose (a loaded CI
// machine may give the loop much less than a whole CPU; one sample may straddle its start):
// the point is that the burner's own instance shows up with clearly non-zero CPU.
TEST(ProcfsLiveTest, BurnerShowsUpWithPlausibleCpu) {
  const pid_t burner = fork();
  ASSERT_GE(burner, 0);
  if (burner == 0) {
    execl("/bin/sh", "sh", "-c", "while :; do :; done", static_cast<char*>(nullptr));
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  TempDir dir;
  const std::string db = dir.File("live.db");
  CliResult r = RunVrecon({"collect", "procfs", "--db", db, "--count", "3", "--interval", "1"});
  kill(burner, SIGKILL);
  waitpid(burner, nullptr, 0);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string inst = "sh:" + std::to_string(burner);
  CliResult s = RunVrecon({"samples", "--db", db, "--object", "Process", "--instance", inst, "--format", "csv"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  std::vector<double> values;
  for (const std::string& l : Lines(s.out)) {
    if (l.empty() || l.starts_with("source,")) continue;
    std::vector<std::string> cells;
    std::stringstream ss(l);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    ASSERT_GE(cells.size(), 8u) << l;
    values.push_back(std::stod(cells[7]));
  }
  ASSERT_EQ(values.size(), 3u) << s.out;
  double sum = 0;
  for (double v : values) {
    EXPECT_LE(v, 110) << s.out;
    sum += v;
  }
  EXPECT_GE(sum / values.size(), 15) << "the burner got little CPU; samples:\n" << s.out;
  CliResult t = RunVrecon({"samples", "--db", db, "--object", "Processor", "--instance", "_Total", "--counter",
                           "% Processor Time", "--format", "csv"});
  ASSERT_EQ(t.exit_code, 0);
  for (const std::string& l : Lines(t.out)) {
    if (l.empty() || l.starts_with("source,")) continue;
    const std::string v = l.substr(0, l.rfind(",percent"));
    const double busy = std::stod(v.substr(v.rfind(',') + 1));
    EXPECT_GT(busy, 5) << l;  // the burner alone keeps a CPU busy
    EXPECT_LE(busy, 100.0001) << l;
  }
}

}  // namespace
}  // namespace vrecon::testing
