// `vrecon status` as a monitoring check (issue 13), through the real binary: exit 0 only when
// every source's last attempt succeeded and none is stale; else 1 with one stderr line per such
// source naming it and why; 2 for bad usage. The stores are written as the collector writes them
// (RecordAttempt) at chosen times, so "failing but not stale" and "stale for 47m" need no waiting;
// the last test gets there through a real round against the fake vCenter.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "src/store/source_tables.h"
#include "src/store/store.h"
#include "tests/support/cli_runner.h"
#include "tests/support/fake_vcenter.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

TimeNs Minutes(int m) { return static_cast<TimeNs>(m) * 60 * kNsPerSec; }

TimeNs Now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class StatusMonitoringTest : public ::testing::Test {
 protected:
  // One round's outcome for `source`, `ago` before now; an empty `error` is a success.
  void Record(const std::string& source, TimeNs ago, const std::string& error = "",
              const std::string& kind = "vcenter") {
    auto store = Store::Open(db_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    const Attempt a{.source = source,
                    .kind = kind,
                    .at = Now() - ago,
                    .newest_data = std::nullopt,
                    .rows_added = error.empty() ? 10 : 0,
                    .round_interval_s = std::nullopt,  // as --once: stale after 15m
                    .error = error};
    Status recorded = RecordAttempt(store->get(), a);
    ASSERT_TRUE(recorded.ok()) << recorded.message();
  }
  CliResult RunStatus(const std::string& format, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"status", "--db", db_, "--format", format};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunVrecon(args);
  }
  TempDir dir_;
  const std::string db_ = dir_.File("fleet.db");
};

TEST_F(StatusMonitoringTest, AllOkExitsZeroEvenWithAnOldErrorKept) {
  Record("vc01.example", Minutes(10), "connection refused");
  Record("vc01.example", Minutes(5));  // recovered: the error stays visible, the source is ok
  Record("vc02.example", Minutes(1));
  Record("/srv/drop", Minutes(1), "", "drop_folder");
  for (const char* format : {"table", "csv", "json"}) {
    CliResult st = RunStatus(format);
    EXPECT_EQ(st.exit_code, 0) << format << ": " << st.err << st.out;
    EXPECT_EQ(st.err, "") << format;
  }
  CliResult json = RunStatus("json");
  EXPECT_NE(json.out.find("\"stale\": 0, \"failing\": 0, \"sources\": ["), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"source\": \"vc01.example\", \"kind\": \"vcenter\", \"state\": \"ok\""), std::string::npos)
      << json.out;
  EXPECT_NE(json.out.find("\"last_error\": \"connection refused\""), std::string::npos) << json.out;
}

TEST_F(StatusMonitoringTest, ALastRoundThatFailedExitsOneBeforeTheSourceIsStale) {
  Record("vc01.example", Minutes(6));
  Record("vc01.example", Minutes(1), "vc01.example:443: connection refused");
  Record("vc02.example", Minutes(1));
  // The same answer in every format: only the output on stdout differs.
  for (const char* format : {"table", "csv", "json"}) {
    CliResult st = RunStatus(format);
    EXPECT_EQ(st.exit_code, 1) << format << ": " << st.out;
    EXPECT_EQ(st.err, "vrecon: error: source vc01.example failing: vc01.example:443: connection refused\n") << format;
  }
  CliResult json = RunStatus("json");
  EXPECT_NE(json.out.find("\"stale\": 0, \"failing\": 1, \"sources\": ["), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"source\": \"vc01.example\", \"kind\": \"vcenter\", \"state\": \"failing\""),
            std::string::npos)
      << json.out;
  EXPECT_NE(json.out.find("\"source\": \"vc02.example\", \"kind\": \"vcenter\", \"state\": \"ok\""), std::string::npos)
      << json.out;
  EXPECT_NE(RunStatus("csv").out.find("vc01.example,vcenter,failing,"), std::string::npos);

  Record("vc01.example", 0);
  EXPECT_EQ(RunStatus("table").exit_code, 0) << "the next success clears it";
}

TEST_F(StatusMonitoringTest, AStaleSourceExitsOneAndSaysForHowLong) {
  Record("vc01.example", Minutes(47));
  Record("vc02.example", Minutes(3), "401 Unauthorized");  // never succeeded: stale at once
  Record("vc03.example", Minutes(1));
  CliResult st = RunStatus("json");
  EXPECT_EQ(st.exit_code, 1) << st.out;
  EXPECT_EQ(CountLines(st.err), 2) << st.err;
  EXPECT_NE(st.err.find("vrecon: error: source vc01.example stale: no success for 47m"), std::string::npos) << st.err;
  EXPECT_NE(st.err.find("(threshold 15m)\n"), std::string::npos) << st.err;
  EXPECT_NE(st.err.find("vrecon: error: source vc02.example stale: no success recorded (threshold 15m); last attempt "
                        "failed: 401 Unauthorized\n"),
            std::string::npos)
      << st.err;
  EXPECT_EQ(st.err.find("vc03.example"), std::string::npos) << st.err;
  EXPECT_NE(st.out.find("\"stale\": 2, \"failing\": 0,"), std::string::npos) << st.out;

  CliResult longer = RunStatus("table", {"--stale-after", "1h"});
  EXPECT_EQ(longer.exit_code, 1) << "vc02 never succeeded";
  EXPECT_EQ(longer.err.find("vc01.example"), std::string::npos) << longer.err;
  EXPECT_NE(longer.err.find("source vc02.example stale: no success recorded (threshold 1h)"), std::string::npos)
      << longer.err;
}

TEST_F(StatusMonitoringTest, UsageErrorsExitTwo) {
  Record("vc01.example", Minutes(1));
  EXPECT_EQ(RunStatus("xml").exit_code, 2);
  EXPECT_EQ(RunStatus("json", {"--stale-after", "soon"}).exit_code, 2);
  EXPECT_EQ(RunStatus("json", {"--bogus"}).exit_code, 2);
  EXPECT_EQ(RunStatus("json", {"extra"}).exit_code, 2);
  CliResult help = RunVrecon({"status", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("failing or stale"), std::string::npos) << help.out;
}

// The same through a real round: a vCenter collected a minute ago whose next round fails.
TEST(StatusMonitoringFleetTest, AVcenterWhoseLastRoundFailedIsNamed) {
  auto vc = FakeVcenter::Start({.max_query_metrics = 4});
  ASSERT_NE(vc, nullptr);
  TempDir dir;
  setenv("VRECON_TEST_FAKE_PW", vc->options().password.c_str(), 1);
  WriteText(dir.File("fleet.toml"),
            "db = \"fleet.db\"\nsince = \"10m\"\nretries = 0\n"
            "[[vcenter]]\nallow_insecure_http = true\nname = \"vc01.example\"\nurl = \"" +
                vc->url() + "\"\nuser = \"" + vc->options().user + "\"\npassword_env = \"VRECON_TEST_FAKE_PW\"\n");
  const std::vector<std::string> once = {"collect", "--config", dir.File("fleet.toml"), "--once", "--format", "json"};
  const std::vector<std::string> status = {"status", "--db", dir.File("fleet.db")};
  CliResult r1 = RunVrecon(once);
  ASSERT_EQ(r1.exit_code, 0) << r1.err << r1.out;
  CliResult ok = RunVrecon(status);
  EXPECT_EQ(ok.exit_code, 0) << ok.err << ok.out;

  vc->SetPerfMode(PerfMode::kHttp503, "vm-102");
  EXPECT_EQ(RunVrecon(once).exit_code, 1);
  CliResult st = RunVrecon(status);
  EXPECT_EQ(st.exit_code, 1) << st.out;
  EXPECT_EQ(st.err.rfind("vrecon: error: source vc01.example failing: ", 0), 0u) << st.err;
  EXPECT_NE(st.err.find("503"), std::string::npos) << st.err;
  EXPECT_EQ(CountLines(st.err), 1) << st.err;
  EXPECT_NE(st.out.find("failing"), std::string::npos) << st.out;
  unsetenv("VRECON_TEST_FAKE_PW");
}

}  // namespace
}  // namespace vrecon::testing
