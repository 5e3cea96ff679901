// `vrecon ready` and the ready figures of `vrecon correct`, through the real CLI, on an esxtop
// capture of a 2-vCPU VM in contention (fixtures/esxtop/README.md).
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

double Field(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stod(m[1].str());
}

class ReadyCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = dir_.File("vrecon.db");
    CliResult in =
        RunVrecon({"ingest", "--db", db_, Fixture("esxtop/app02-contention.csv"), Fixture("esxtop/app02-guest.csv")});
    ASSERT_EQ(in.exit_code, 0) << in.err << in.out;
  }
  TempDir dir_;
  std::string db_;
};

TEST_F(ReadyCliTest, ReadyJsonSummarizesPerVcpu) {
  CliResult r = RunVrecon({"ready", "--db", db_, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(
      r.out.find(
          "\"vm\": \"APP02\", \"source\": \"esxtop\", \"host\": \"esx02.example.com\", \"vcpus\": 2, \"samples\": 31"),
      std::string::npos)
      << r.out;
  // 31 rows: 16 at ready 30 (15% per vCPU), 15 at 4 (2%): mean 270/31; p95 15; shares 16/31.
  EXPECT_NEAR(Field(r.out, R"("ready_pct_per_vcpu": \{"mean": ([0-9.]+))"), 270.0 / 31, 1e-9);
  EXPECT_NEAR(Field(r.out, R"("ready_pct_per_vcpu": \{"mean": [0-9.]+, "p95": ([0-9.]+))"), 15, 1e-9);
  EXPECT_NEAR(Field(r.out, R"("share_above_10": ([0-9.]+))"), 16.0 / 31, 1e-9);
  // Co-stop 16 x 5% + 15 x 1% = 95/31 > 3, usage 30% per vCPU: fewer vCPUs would help.
  EXPECT_NEAR(Field(r.out, R"("costop_pct_per_vcpu": \{"mean": ([0-9.]+))"), 95.0 / 31, 1e-9);
  EXPECT_NE(r.out.find("\"wait_per_dispatch_us\": null"), std::string::npos);
  EXPECT_NE(r.out.find("\"code\": \"fewer-vcpus\", \"severity\": \"warning\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"code\": \"ready-elevated\""), std::string::npos);
  EXPECT_NE(r.out.find("\"code\": \"host-load-high\""), std::string::npos);
  EXPECT_EQ(r.out.find("\"code\": \"host-overcommit\""), std::string::npos);

  CliResult t = RunVrecon({"ready", "--db", db_});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("hint APP02 fewer-vcpus (warning)"), std::string::npos) << t.out;
  CliResult c = RunVrecon({"ready", "--db", db_, "--format", "csv"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out.substr(0, 21), "vm,source,host,vcpus,");
}

TEST_F(ReadyCliTest, ReadyErrorsAndRange) {
  CliResult none = RunVrecon({"ready", "--db", db_, "--vm", "NOPE"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("vrecon: error: no VM named \"NOPE\""), std::string::npos) << none.err;
  EXPECT_TRUE(none.out.empty());
  CliResult bad = RunVrecon({"ready", "--db", db_, "--from", "yesterday"});
  EXPECT_EQ(bad.exit_code, 2);
  CliResult missing = RunVrecon({"ready", "--db", dir_.File("nothing.db")});
  EXPECT_EQ(missing.exit_code, 1);
  // Only the calm half: ready 2% per vCPU, no ready hint.
  CliResult late =
      RunVrecon({"ready", "--db", db_, "--vm", "app02", "--from", "2026-03-02T10:05:10Z", "--format", "json"});
  ASSERT_EQ(late.exit_code, 0) << late.err;
  EXPECT_NEAR(Field(late.out, R"("ready_pct_per_vcpu": \{"mean": ([0-9.]+))"), 2, 1e-9) << late.out;
  EXPECT_EQ(late.out.find("ready-elevated"), std::string::npos);
}

TEST_F(ReadyCliTest, CorrectCarriesReadyFiguresAndFlags) {
  CliResult r = RunVrecon({"correct", "--db", db_, "--vm", "APP02", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 10:00-10:05: ready 30 / 2 = 15, co-stop 10 / 2 = 5; 10:05-10:10: 2 and 1.
  EXPECT_NE(r.out.find("\"ready_pct_per_vcpu\": 15, \"costop_pct\": 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"ready_pct_per_vcpu\": 2, \"costop_pct\": 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"code\": \"high-ready\", \"severity\": \"warning\""), std::string::npos);
  EXPECT_NE(r.out.find("{\"code\": \"high-costop\", \"severity\": \"warning\""), std::string::npos);
  EXPECT_NEAR(Field(r.out, R"("w": ([0-9.]+))"), 0.6, 1e-9);  // % Used 60 / 2 vCPUs = 30 vs guest 50

  CliResult c = RunVrecon({"correct", "--db", db_, "--vm", "APP02", "--format", "csv"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const std::string header = c.out.substr(0, c.out.find('\n'));
  EXPECT_TRUE(
      header.ends_with(",steal_pct,ready_pct_per_vcpu,costop_pct,clock_offset_s,vm_key,present_s,host_counter,"
                       "basis,bottleneck_pct,queue_ms_mean,queue_ms_p95,sampled_pct,guest_utility_pct,host_sources,dpc_"
                       "isr_pct,bias_ratio"))
      << header;
  EXPECT_NE(
      c.out.find(
          "high-ready;high-costop,esxtop,APP02,,15,5,,esxtop:esx02.example.com/app02,300,% Used,samples,,,,,,,,\n"),
      std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find(",esxtop,APP02,,2,1,,esxtop:esx02.example.com/app02,300,% Used,samples,,,,,,,,\n"),
            std::string::npos)
      << c.out;

  CliResult t = RunVrecon({"correct", "--db", db_, "--vm", "APP02"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("ready 15.0% per vCPU  co-stop 5.0% per vCPU"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("flag high-ready (warning)"), std::string::npos);
}

TEST(ReadyCliNoDataTest, CorrectWithoutReadyDataSaysNull) {
  CliResult r = RunVrecon({"correct", "--guest", Fixture("seed003/guest-web01.csv"), "--host",
                           Fixture("seed003/hyperv-hv01.csv"), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"ready_pct_per_vcpu\": null, \"costop_pct\": null"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace vrecon::testing
