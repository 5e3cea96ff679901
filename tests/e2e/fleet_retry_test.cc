// Transient faults within a round, against the fault-injecting fake vCenter through the real
// binary: a QueryPerf answered 503 is retried `retries` times with backoff, the other VM's
// batch is stored, the failure is recorded for `status`, and the next round completes it.
#include <gtest/gtest.h>

#include "src/core/time_util.h"
#include "tests/support/cli_runner.h"
#include "tests/support/fake_vcenter.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

TEST(FleetRetryTest, Http503IsRetriedWithBackoffAndRecorded) {
  auto vc = FakeVcenter::Start({.max_query_metrics = 4});
  ASSERT_NE(vc, nullptr);
  TempDir dir;
  setenv("VRECON_TEST_FAKE_PW", vc->options().password.c_str(), 1);
  WriteText(dir.File("fleet.toml"),
            "db = \"fleet.db\"\nsince = \"10m\"\nretries = 2\nretry_backoff = 1\n"
            "[[vcenter]]\nallow_insecure_http = true\nname = \"fake\"\nurl = \"" +
                vc->url() + "\"\nuser = \"" + vc->options().user + "\"\npassword_env = \"VRECON_TEST_FAKE_PW\"\n");
  vc->SetPerfMode(PerfMode::kHttp503, "vm-102");
  CliResult r = RunVrecon({"collect", "--config", dir.File("fleet.toml"), "--once", "--format", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_EQ(JsonInt(r.out, "attempts"), 3) << r.out;
  EXPECT_NE(r.err.find("retrying in 1 s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("retrying in 2 s"), std::string::npos) << "the wait doubles: " << r.err;
  EXPECT_GT(JsonInt(r.out, "rows"), 0) << "WEB01's batch is stored all the same: " << r.out;
  EXPECT_EQ(r.err.find(vc->options().password), std::string::npos);
  CliResult st = RunVrecon({"status", "--db", dir.File("fleet.db"), "--format", "json"});
  EXPECT_NE(st.out.find("503"), std::string::npos) << st.out;
  EXPECT_EQ(JsonInt(st.out, "failures"), 1) << st.out;

  vc->SetPerfMode(PerfMode::kOk);
  CliResult again = RunVrecon({"collect", "--config", dir.File("fleet.toml"), "--once", "--format", "json"});
  EXPECT_EQ(again.exit_code, 0) << again.err << again.out;
  EXPECT_NE(again.out.find("\"detail\": \"2 of 2 VMs\""), std::string::npos) << again.out;
  st = RunVrecon({"status", "--db", dir.File("fleet.db"), "--format", "json"});
  EXPECT_EQ(st.exit_code, 0) << st.out;
  EXPECT_EQ(JsonInt(st.out, "failures"), 0) << st.out;
  unsetenv("VRECON_TEST_FAKE_PW");
}

// Issue 15: a rollup batch that fails in a round where the realtime batch is stored is asked
// again in the next rounds until it is stored, and `status` says it is due meanwhile.
TEST(FleetRetryTest, AFailedRollupBatchIsAskedAgainUntilStored) {
  auto vc = FakeVcenter::Start({.max_query_metrics = 4});
  ASSERT_NE(vc, nullptr);
  TempDir dir;
  setenv("VRECON_TEST_FAKE_PW", vc->options().password.c_str(), 1);
  const std::string db = dir.File("fleet.db");
  WriteText(dir.File("fleet.toml"),
            "db = \"fleet.db\"\nsince = \"30m\"\nretries = 0\n"
            "[[vcenter]]\nallow_insecure_http = true\nname = \"fake\"\nurl = \"" +
                vc->url() + "\"\nuser = \"" + vc->options().user + "\"\npassword_env = \"VRECON_TEST_FAKE_PW\"\n");
  auto round = [&] { return RunVrecon({"collect", "--config", dir.File("fleet.toml"), "--once", "--format", "json"}); };
  auto rollup_rows = [&] {
    const std::string csv = RunVrecon({"samples", "--db", db, "--source", "vsphere", "--format", "csv"}).out;
    int n = 0;
    for (size_t at = csv.find('\n'); at != std::string::npos && at + 1 < csv.size(); at = csv.find('\n', at + 1)) {
      // source,machine,object,instance,counter,start,end,...: a 300 s interval is a rollup sample.
      std::vector<std::string> f;
      size_t a = at + 1;
      for (int i = 0; i < 7; ++i) {
        const size_t b = csv.find(',', a);
        f.push_back(csv.substr(a, b - a));
        a = b + 1;
      }
      auto s = ParseIso(f[5]), e = ParseIso(f[6]);
      if (s && e && *e - *s == 300 * kNsPerSec) ++n;
    }
    return n;
  };
  ASSERT_EQ(round().exit_code, 0);
  vc->Advance(3 * 3600);  // away three hours: realtime no longer holds the gap
  vc->SetPerfMode(PerfMode::kHttp503, "", 300);
  CliResult failed = round();
  EXPECT_EQ(failed.exit_code, 1) << failed.err << failed.out;
  EXPECT_EQ(rollup_rows(), 0);
  CliResult st = RunVrecon({"status", "--db", db, "--format", "json"});
  EXPECT_EQ(JsonInt(st.out, "rollups_due"), 2) << st.out;
  EXPECT_NE(st.err.find("rollup ranges are still to be stored"), std::string::npos) << st.err;

  vc->SetPerfMode(PerfMode::kOk);
  vc->Advance(300);
  CliResult next = round();
  EXPECT_EQ(next.exit_code, 0) << next.err << next.out;
  EXPECT_GT(rollup_rows(), 0) << "the gap's rollup samples are stored";
  st = RunVrecon({"status", "--db", db, "--format", "json"});
  EXPECT_EQ(JsonInt(st.out, "rollups_due"), 0) << st.out;
  EXPECT_EQ(round().exit_code, 0);
  unsetenv("VRECON_TEST_FAKE_PW");
}

}  // namespace
}  // namespace vrecon::testing
