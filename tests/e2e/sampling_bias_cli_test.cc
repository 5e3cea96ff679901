// `vrecon correct` on seed 002's guest with a trace of its first two minutes (tests/support/
// seed002_trace.h): the windows after the trace carry sampling-bias for multi.exe, whose Perfmon
// figure read 80% where its context switches said 100%, and --calibrate-bias applies the 1.25.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/cli_runner.h"
#include "tests/support/seed002_trace.h"

namespace vrecon::testing {
namespace {

class SamplingBiasCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteText(dir_.File("host.csv"), HostLog());
    WriteText(dir_.File("guest.csv"), GuestLog());
    WriteText(dir_.File("web01.txt"), Trace(120));
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"ingest", "--db", db_, dir_.File("host.csv"), dir_.File("guest.csv")},
                                               {"ingest", "--db", db_, "--machine", "WEB01", dir_.File("web01.txt")}}) {
      CliResult r = RunVrecon(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  CliResult Correct(const std::string& format, bool calibrate) {
    // The ratio comes from the windows the run corrects: from the trace's start on.
    std::vector<std::string> args{
        "correct",  "--db", db_, "--window", "15", "--from", "2026-11-02T10:00:00Z", "--to", "2026-11-02T10:02:45Z",
        "--format", format};
    if (calibrate) args.push_back("--calibrate-bias");
    CliResult r = RunVrecon(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r;
  }
  TempDir dir_;
  std::string db_ = dir_.File("store.db");
};

TEST_F(SamplingBiasCliTest, WindowsWithoutTheTraceAreFlaggedAndCalibratedOnRequest) {
  const std::string json = Correct("json", false).out;
  const size_t after = json.find("\"start\": \"2026-11-02T10:02:30Z\"");
  ASSERT_NE(after, std::string::npos) << json.substr(0, 800);
  EXPECT_NE(json.find("\"code\": \"sampling-bias\", \"severity\": \"warning\"", after), std::string::npos)
      << json.substr(after, 3000);
  EXPECT_NE(json.find("multi: ETW context switches measured 1.25x Perfmon's figure", after), std::string::npos);
  EXPECT_NE(json.find("\"sampled_pct\": null, \"bias_ratio\": null, \"other_bases\": ", after), std::string::npos);

  const std::string calibrated = Correct("json", true).out;
  const size_t c = calibrated.find("\"start\": \"2026-11-02T10:02:30Z\"");
  ASSERT_NE(c, std::string::npos);
  // multi's 1.25, x 38/40: the guest total as the trace measures it (from idle's ratio).
  EXPECT_NE(calibrated.find("\"bias_ratio\": 1.1875", c), std::string::npos) << calibrated.substr(c, 3000);
  EXPECT_NE(calibrated.find("\"code\": \"sampling-bias\", \"severity\": \"info\"", c), std::string::npos);

  const std::string csv = Correct("csv", true).out;
  EXPECT_TRUE(csv.substr(0, csv.find('\n')).ends_with(",dpc_isr_pct,bias_ratio")) << csv.substr(0, 400);
  EXPECT_NE(csv.find("2026-11-02T10:02:30Z,2026-11-02T10:02:45Z,5,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",1.1875"), std::string::npos) << csv;
}

TEST_F(SamplingBiasCliTest, HelpNamesTheOption) {
  CliResult r = RunVrecon({"correct", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--calibrate-bias"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace vrecon::testing
