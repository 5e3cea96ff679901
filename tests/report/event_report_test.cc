// `vrecon report` on corrections made from an ETW trace: the event figures per process in CSV and
// JSON, and the HTML's heater vs bottleneck table (seed 002's case, tests/support/seed002_trace.h).
#include <gtest/gtest.h>

#include "tests/support/cli_runner.h"
#include "tests/support/seed002_trace.h"

namespace vrecon::testing {
namespace {

class EventReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteText(dir_.File("host.csv"), HostLog());
    WriteText(dir_.File("guest.csv"), GuestLog());
    WriteText(dir_.File("web01.txt"), Trace(300));  // the whole 5-minute window
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"ingest", "--db", db_, dir_.File("host.csv")},
                                               {"ingest", "--db", db_, dir_.File("guest.csv")},
                                               {"ingest", "--db", db_, "--machine", "WEB01", dir_.File("web01.txt")}}) {
      CliResult r = RunVrecon(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  std::string Report(const std::string& format) {
    CliResult r = RunVrecon({"report", "--db", db_, "--format", format, "--out", "-"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  }

  TempDir dir_;
  std::string db_ = dir_.File("store.db");
};

TEST_F(EventReportTest, CsvAndJsonCarryTheEventFigures) {
  const std::string csv = Report("csv");
  EXPECT_NE(csv.find(",host_counter,basis,bottleneck_pct,queue_ms_mean,queue_ms_p95,sampled_pct,events_pct,"),
            std::string::npos)
      << csv;
  // multi.exe: 100% of one CPU, 125% corrected, bottleneck 25%, 10 ms a switch-in; Perfmon said 80%.
  EXPECT_NE(csv.find("process,WEB01,multi:200,,,,,1,,,,,,,,,,,100,125,"), std::string::npos) << csv;
  // The capacity columns and the window's utility follow, empty on a process row.
  EXPECT_NE(csv.find(",events,25,10,10,80,100,,,,,,,,,,,,,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",events,100,,,100,100,,,,,,,,,,,,,\n"), std::string::npos) << csv;  // single.exe: never queued
  const std::string json = Report("json");
  EXPECT_NE(json.find("{\"name\": \"multi:200\", \"windows\": 1, \"guest_pct\": 100, \"corrected_pct\": 125"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"basis\": \"events\", \"event_windows\": 1, \"bottleneck_pct\": 25, \"queue_ms_mean\": 10"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"sampled_pct\": 80, \"events_pct\": 100"), std::string::npos) << json;
}

TEST_F(EventReportTest, HtmlShowsHeaterAgainstBottleneck) {
  const std::string html = Report("html");
  const size_t table = html.find("<h4>Heater vs bottleneck (ETW context switches)</h4>");
  ASSERT_NE(table, std::string::npos);
  // Same CPU and heater (100% of one CPU on 5 vCPUs: 20%), bottleneck 25% against 100%.
  EXPECT_NE(html.find("<tr><td>multi:200</td><td>100.0%</td><td>20.0%</td><td>25.0%</td><td>10.00 ms</td>", table),
            std::string::npos)
      << html.substr(table, 2000);
  EXPECT_NE(html.find("<tr><td>single:100</td><td>100.0%</td><td>20.0%</td><td>100.0%</td><td>n/a</td>", table),
            std::string::npos)
      << html.substr(table, 2000);
}

TEST_F(EventReportTest, AdHocCorrectTakesATraceWithItsMachine) {
  const std::vector<std::string> base{"correct",  "--guest", dir_.File("web01.txt"), "--host", dir_.File("host.csv"),
                                      "--format", "csv"};
  CliResult nameless = RunVrecon(base);
  EXPECT_EQ(nameless.exit_code, 1);
  EXPECT_NE(nameless.err.find("web01.txt: an xperf dumper text does not name its computer: give it with --machine"),
            std::string::npos)
      << nameless.err;
  std::vector<std::string> named = base;
  named.insert(named.end(), {"--machine", "WEB01"});
  CliResult r = RunVrecon(named);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(",multi:200,100,125,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(",events,25,10,10,,,,,\n"), std::string::npos) << r.out;
  named.insert(named.end(), {"--trace-start", "2026-11-02 10:00"});
  EXPECT_EQ(RunVrecon(named).exit_code, 2);  // no offset: not an absolute time
}

}  // namespace
}  // namespace vrecon::testing
