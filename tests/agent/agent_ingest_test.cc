// A file written by the agent's own writer (through the real folder output) reads back through
// `vrecon ingest` with its counter names and missing values intact.
#include <gtest/gtest.h>

#include <sstream>

#include "agent/agent.h"
#include "agent/cycle_counters.h"
#include "tests/agent/fake_cycles.h"
#include "tests/agent/fake_pdh.h"
#include "tests/support/cli_runner.h"

namespace vrecon::agent::testing {
namespace {

TEST(AgentIngest, AgentFileReadsBackThroughVreconIngest) {
  FakePdh pdh;
  pdh.counters["|Processor|% Processor Time"] = {{"0", "_Total"}, [](int n, const std::string& i) {
                                                   if (n == 1) return PdhItem{"", kPdhCStatusInvalidData, 0};
                                                   if (n == 3 && i == "0")
                                                     return PdhItem{"", kPdhCStatusInvalidData, 0};
                                                   return PdhItem{"", kPdhValidData, i == "0" ? 97.5 : 48.25};
                                                 }};
  pdh.counters["|Process|% Processor Time"] = {{"Idle", "svchost", "svchost"}, [](int, const std::string& i) {
                                                 return PdhItem{"", kPdhValidData, i == "Idle" ? 180.5 : 7};
                                               }};
  auto o = ParseOptions({"--set", "none", "--counter", "\\Processor(*)\\% Processor Time", "--counter",
                         "\\Process(*)\\% Processor Time", "--count", "3"});
  ASSERT_TRUE(o.ok());
  auto sel = BuildSelection(*o, {});
  ASSERT_TRUE(sel.ok());
  vrecon::testing::TempDir dir;
  FakeClock clock;
  StdOutputFiles files(dir.path());
  std::ostringstream log;
  RunStats st;
  ASSERT_TRUE(RunAgent(*o, *sel, pdh, clock, files, "WEB01", log, &st).ok());
  ASSERT_EQ(st.files.size(), 1u);
  const std::string csv = dir.File(st.files[0]);

  const std::string db = dir.File("s.db");
  auto ing = vrecon::testing::RunVrecon({"ingest", "--db", db, csv});
  ASSERT_EQ(ing.exit_code, 0) << ing.err;
  auto out = vrecon::testing::RunVrecon({"samples", "--db", db, "--format", "csv"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const std::string& s = out.out;
  EXPECT_NE(s.find("guest,WEB01,Processor,0,% Processor Time"), std::string::npos) << s;
  EXPECT_NE(s.find("guest,WEB01,Process,svchost#1,% Processor Time"), std::string::npos) << s;
  EXPECT_NE(s.find(",180.5,"), std::string::npos) << "value above 100 kept: " << s;
  // Row 2 (05:00:30) has no value for Processor(0): stored as missing, listed with an empty value.
  EXPECT_NE(s.find("guest,WEB01,Processor,0,% Processor Time,2026-11-02T10:00:15.000Z,2026-11-02T10:00:30.000Z,,"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("guest,WEB01,Processor,0,% Processor Time,2026-11-02T10:00:30.000Z,2026-11-02T10:00:45.000Z,97.5"),
            std::string::npos)
      << s;
}

// The cycles set's file, ingested: counts stored as read, and each process's share of all cycles
// x 100 x processors beside them.
TEST(AgentIngest, CycleCountsReadBackAsSharesOfAllCycles) {
  FakePdh pdh;
  FakeCycles cycles;
  // Two processors; 40,000 cycles an interval: sql 10,000 (50% of one CPU), web 6,000, idle
  // 24,000 (busy 40%).
  for (std::uint64_t k = 0; k < 4; ++k)
    cycles.snapshots.push_back(
        CycleSnapshot{{{10, "sql", 10000 * k, 1}, {20, "web", 6000 * k, 2}}, {{12000 * k, 12000 * k}}});
  CyclePdh both(pdh, cycles);
  auto o = ParseOptions({"--set", "cycles", "--count", "3"});
  ASSERT_TRUE(o.ok());
  auto sel = BuildSelection(*o, {});
  ASSERT_TRUE(sel.ok());
  vrecon::testing::TempDir dir;
  FakeClock clock;
  StdOutputFiles files(dir.path());
  std::ostringstream log;
  RunStats st;
  ASSERT_TRUE(RunAgent(*o, *sel, both, clock, files, "WEB01", log, &st).ok()) << log.str();
  ASSERT_EQ(st.files.size(), 1u);
  const std::string db = dir.File("s.db");
  auto ing = vrecon::testing::RunVrecon({"ingest", "--db", db, dir.File(st.files[0])});
  ASSERT_EQ(ing.exit_code, 0) << ing.err;
  auto out = vrecon::testing::RunVrecon({"samples", "--db", db, "--format", "csv"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const std::string& s = out.out;
  EXPECT_NE(s.find("guest,WEB01,vrecon Process Cycles,sql:10,Cycles,2026-11-02T10:00:30.000Z,2026-11-02T10:00:45.000Z,"
                   "30000"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("guest,WEB01,vrecon Process Cycles,sql:10,% Cycles,2026-11-02T10:00:30.000Z,"
                   "2026-11-02T10:00:45.000Z,50"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("guest,WEB01,vrecon Processor Cycles,_Total,% Cycles,2026-11-02T10:00:30.000Z,"
                   "2026-11-02T10:00:45.000Z,40"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace vrecon::agent::testing
