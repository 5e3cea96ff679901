// The seed article's worked example, end to end through the real CLI: a 1-vCPU guest at 73%
// with processes A 40% and B 20%, Hyper-V measuring 88%: w = 1.205, A -> 48.2, B -> 24.1.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

double Matched(const std::string& json, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex(pattern))) return -1;
  return std::stod(m[1].str());
}

TEST(SeedExampleTest, IngestThenCorrectGivesTheArticlesNumbers) {
  TempDir dir;
  const std::string db = dir.File("vrecon.db");
  CliResult in =
      RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv"), Fixture("seed003/hyperv-hv01.csv")});
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_NE(in.out.find("WEB01"), std::string::npos);
  EXPECT_NE(in.out.find("HV01"), std::string::npos);

  CliResult c = RunVrecon({"correct", "--db", db, "--vm", "WEB01", "--format", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  // Guest log 10:00-10:10 EST (bias 300) = 15:00-15:10 UTC: two full 300 s windows.
  EXPECT_NE(c.out.find("\"start\": \"2026-11-02T15:00:00Z\", \"end\": \"2026-11-02T15:05:00Z\""), std::string::npos);
  EXPECT_NE(c.out.find("\"start\": \"2026-11-02T15:05:00Z\""), std::string::npos);
  EXPECT_NEAR(Matched(c.out, "\"w\": ([0-9.]+)"), 1.205, 0.0005);
  EXPECT_NEAR(Matched(c.out, "\"name\": \"A\", \"guest_pct\": 40, \"corrected_pct\": ([0-9.]+)"), 48.2, 0.05);
  EXPECT_NEAR(Matched(c.out, "\"name\": \"B\", \"guest_pct\": 20, \"corrected_pct\": ([0-9.]+)"), 24.1, 0.05);
  EXPECT_EQ(c.out.find("\"name\": \"Idle\""), std::string::npos) << "Idle is not a process to correct";
  EXPECT_EQ(c.out.find("\"name\": \"_Total\""), std::string::npos);
  EXPECT_NE(c.out.find("\"vcpus\": 1"), std::string::npos);
  EXPECT_NE(c.out.find("\"flags\": []"), std::string::npos);
}

TEST(SeedExampleTest, AdHocCorrectionWritesNothingToDisk) {
  TempDir dir;
  CliResult c = RunVrecon({"correct", "--guest", Fixture("seed003/guest-web01.csv"), "--host",
                           Fixture("seed003/hyperv-hv01.csv"), "--format", "csv"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(
      c.out.substr(0, c.out.find('\n')),
      "vm,start,end,vcpus,guest_util_pct,host_util_pct,w,name,guest_pct,corrected_pct,ci95_lo,ci95_hi,flags,"
      "host_source,guest_machine,steal_pct,ready_pct_per_vcpu,costop_pct,clock_offset_s,vm_key,present_s,host_counter,"
      "basis,bottleneck_pct,queue_ms_mean,queue_ms_p95,sampled_pct,guest_utility_pct,host_sources,dpc_isr_pct,bias_"
      "ratio");
  EXPECT_NE(
      c.out.find("WEB01,2026-11-02T15:00:00Z,2026-11-02T15:05:00Z,1,73,88,1.2054794520547945,A,40,48.2191780821917"),
      std::string::npos)
      << c.out;
  EXPECT_FALSE(std::filesystem::exists("vrecon.db")) << "ad hoc mode must not create ./vrecon.db";
}

TEST(SeedExampleTest, TableShowsCorrectedProcesses) {
  CliResult c = RunVrecon(
      {"correct", "--guest", Fixture("seed003/guest-web01.csv"), "--host", Fixture("seed003/hyperv-hv01.csv")});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("w 1.205"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("48.22"), std::string::npos);
  EXPECT_NE(c.out.find("24.11"), std::string::npos);
}

}  // namespace
}  // namespace vrecon::testing
