// `vrecon ingest` of WPA's CPU Usage (Sampled) export (fixtures/etw/web01-sampled.csv), then
// `vrecon correct`: the window's guest figures are the profile's (basis `profile`).
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/seed002_trace.h"

namespace vrecon::testing {
namespace {

TEST(WpaSampledCliTest, IngestedThenCorrectedOnTheProfileBasis) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  const std::string csv = Fixture("etw/web01-sampled.csv");
  CliResult r = RunVrecon({"ingest", "--db", db, "--machine", "WEB01", csv});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("web01-sampled.csv: a WPA CPU Usage (Sampled) export counts its times from the trace's "
                       "start and does not say when that was: give it with --trace-start"),
            std::string::npos)
      << r.err;
  WriteText(dir.File("host.csv"), HostLog());
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"ingest", "--db", db, dir.File("host.csv")},
           {"ingest", "--db", db, "--machine", "WEB01", "--trace-start", "2026-11-02T10:00:00Z", csv}}) {
    r = RunVrecon(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  EXPECT_NE(r.out.find("web01-sampled.csv"), std::string::npos) << r.out;

  r = RunVrecon({"correct", "--db", db, "--vm", "WEB01", "--window", "20", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The fixture's two seconds (10 ms each, _Total 75% and 60% busy) are in the first window; the
  // host's later windows have no guest side.
  const size_t first = r.out.find("\"start\": \"2026-11-02T10:00:00Z\"");
  ASSERT_NE(first, std::string::npos) << r.out;
  const std::string window = r.out.substr(first, r.out.find("\"start\": ", first + 1) - first);
  EXPECT_NE(window.find("\"guest_util_pct\": 67.5,"), std::string::npos) << window;
  EXPECT_NE(window.find("\"basis\": \"profile\""), std::string::npos) << window;
  EXPECT_EQ(window.find("\"basis\": \"samples\""), std::string::npos) << window;
  EXPECT_NE(window.find("\"name\": \"sqlservr:1200\""), std::string::npos) << window;
  EXPECT_NE(window.find("\"name\": \"w3wp:2400\""), std::string::npos) << window;

  r = RunVrecon({"correct", "--db", db, "--vm", "WEB01", "--window", "20", "--format", "table"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("guest 67.5% (ETW profile)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace vrecon::testing
