// Transient faults within a round, against the fault-injecting fake vCenter through the real
// binary: a QueryPerf answered 503 is retried `retries` times with backoff, the other VM's
// batch is stored, the failure is recorded for `status`, and the next round completes it.
#include <gtest/gtest.h>

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
  WriteText(dir.File("fleet.toml"), "db = \"fleet.db\"\nsince = \"10m\"\nretries = 2\nretry_backoff = 1\n"
                                    "[[vcenter]]\nname = \"fake\"\nurl = \"" + vc->url() + "\"\nuser = \"" +
                                        vc->options().user + "\"\npassword_env = \"VRECON_TEST_FAKE_PW\"\n");
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

}  // namespace
}  // namespace vrecon::testing
