// One bent timestamp in a real-shaped log (issue 15, part 3): a row dated decades ahead in the
// middle is the bad row, not the rest of the file; at the end it is a lone sample after a flagged
// gap, and correct, counters and report cost what the data costs, not what the span would.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

// The seed example's guest log with line `line` (1-based) moved to the year 2100.
std::string Bent(int line) {
  std::string log = ReadText(Fixture("seed003/guest-web01.csv"));
  size_t at = 0;
  for (int i = 1; i < line; ++i) at = log.find('\n', at) + 1;
  const size_t year = log.find("/2026 ", at);
  log.replace(year, 5, "/2100");
  return log;
}

class BentTimeTest : public ::testing::Test {
 protected:
  CliResult Ingest(const std::string& log) {
    WriteText(dir_.File("guest.csv"), log);
    return RunVrecon({"ingest", "--db", db_, dir_.File("guest.csv"), Fixture("seed003/hyperv-hv01.csv")});
  }
  TempDir dir_;
  std::string db_ = dir_.File("s.db");
};

TEST_F(BentTimeTest, ARowDatedFarAheadInTheMiddleIsTheOnlyRowSkipped) {
  const CliResult in = Ingest(Bent(20));
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_NE(in.out.find(" 40 "), std::string::npos) << "40 of 41 rows kept: " << in.out;
  EXPECT_NE(in.out.find("guest.csv:20: warning time-jump"), std::string::npos) << in.out;
  EXPECT_EQ(in.out.find("time-backwards"), std::string::npos) << in.out;
  const CliResult c = RunVrecon({"correct", "--db", db_, "--format", "csv"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out.find("2100-"), std::string::npos);
}

TEST_F(BentTimeTest, ALastRowDatedFarAheadCostsOneWindowAfterAFlaggedGap) {
  // Before: correct ran minutes and took gigabytes (27,000 days of 5-minute windows).
  const CliResult in = Ingest(Bent(42));
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_NE(in.out.find("guest.csv:42: info long-gap"), std::string::npos) << in.out;
  const CliResult c = RunVrecon({"correct", "--db", db_, "--format", "csv"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_LT(CountLines(c.out), 20) << c.out.substr(0, 2000);
  EXPECT_NE(c.out.find("2100-11-02T15:05:00Z"), std::string::npos);
  EXPECT_NE(c.out.find("data-gap"), std::string::npos);
  const CliResult j = RunVrecon({"correct", "--db", db_, "--format", "json"});
  EXPECT_NE(j.out.find("no sample of this VM from 2026-11-02T15:10:00Z to 2100-11-02T15:05:00Z (27027d23h)"),
            std::string::npos);

  const CliResult counters = RunVrecon({"counters", "--db", db_, "--format", "csv"});
  EXPECT_EQ(counters.exit_code, 0) << counters.err;
  EXPECT_LT(CountLines(counters.out), 40);
  const CliResult report = RunVrecon({"report", "--db", db_, "--format", "csv", "--out", dir_.File("r.csv")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_LT(CountLines(ReadText(dir_.File("r.csv"))), 40);
  const CliResult html = RunVrecon({"report", "--db", db_, "--out", dir_.File("r.html")});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_LT(ReadText(dir_.File("r.html")).size(), 2u << 20);
}

}  // namespace
}  // namespace vrecon::testing
