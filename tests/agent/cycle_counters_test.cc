// The agent's `cycles` set (agent/cycle_counters.h) on a scripted CycleApi beside a fake PDH:
// the columns it writes, the running count of every cycle charged (processes that start, end or
// reuse a pid between reads), processor groups, a failed read, and the refusals.
#include "agent/cycle_counters.h"

#include <gtest/gtest.h>

#include <sstream>

#include "agent/agent.h"
#include "tests/agent/fake_cycles.h"
#include "tests/agent/fake_pdh.h"

namespace vrecon::agent::testing {
namespace {

CycleSnapshot Snap(std::vector<ProcessCycles> processes, std::vector<std::vector<std::uint64_t>> idle) {
  return CycleSnapshot{std::move(processes), std::move(idle)};
}

std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> out;
  for (size_t at = 0; (at = line.find('"', at)) != std::string::npos;) {
    const size_t end = line.find('"', at + 1);
    out.push_back(line.substr(at + 1, end - at - 1));
    at = end + 1;
  }
  return out;
}

TEST(AgentCycles, WritesCumulativeCountsAndARunningTotalOfEveryCycleCharged) {
  FakePdh pdh;
  pdh.counters["|Processor|% Processor Time"] = {
      {"_Total"}, [](int n, const std::string&) {
        return n == 1 ? PdhItem{"", kPdhCStatusInvalidData, 0} : PdhItem{"", kPdhValidData, 50};
      }};
  FakeCycles cycles;
  cycles.snapshots = {
      // The first read (at start) is the baseline: nothing before it is counted.
      Snap({{10, "A", 1000, 1}, {20, "B", 5000, 2}}, {{100, 200}, {300}}),
      // A +600, B +400, C started since (+250), idle +300 on each of three processors.
      Snap({{10, "A", 1600, 1}, {20, "B", 5400, 2}, {30, "C", 250, 3}}, {{400, 500}, {600}}),
      // A +400, B ended, C +50, D started with B's pid reused (+70), idle +100 +200 +50.
      Snap({{10, "A", 2000, 1}, {30, "C", 300, 3}, {20, "D", 70, 9}}, {{500, 700}, {650}}),
  };
  cycles.fail_reads = {4};
  std::ostringstream cycle_log;
  CyclePdh both(pdh, cycles, &cycle_log);
  auto o = ParseOptions(
      {"--set", "cycles", "--counter", "\\Processor(_Total)\\% Processor Time", "--count", "3", "--refresh", "100000"});
  ASSERT_TRUE(o.ok()) << o.status().message();
  auto sel = BuildSelection(*o, {});
  ASSERT_TRUE(sel.ok()) << sel.status().message();
  FakeClock clock;
  MemoryFiles files;
  std::ostringstream log;
  RunStats st;
  ASSERT_TRUE(RunAgent(*o, *sel, both, clock, files, "WEB01", log, &st).ok()) << log.str();
  EXPECT_EQ(cycles.reads, 4) << "one read at start, one a row";
  EXPECT_EQ(pdh.collections, 4) << "PDH collected with every read";
  ASSERT_EQ(files.files.size(), 1u);
  std::istringstream text(files.files.begin()->second);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(text, line);) rows.push_back(Cells(line));
  ASSERT_EQ(rows.size(), 4u);
  const std::vector<std::string> header = {
      "(PDH-CSV 4.0) (Eastern Standard Time)(300)",
      "\\\\WEB01\\vrecon Process Cycles(A:10)\\Cycles",
      "\\\\WEB01\\vrecon Process Cycles(B:20)\\Cycles",
      "\\\\WEB01\\vrecon Process Cycles(C:30)\\Cycles",
      "\\\\WEB01\\vrecon Processor Cycles(0,0)\\Idle Cycles",
      "\\\\WEB01\\vrecon Processor Cycles(0,1)\\Idle Cycles",
      "\\\\WEB01\\vrecon Processor Cycles(1,0)\\Idle Cycles",
      "\\\\WEB01\\vrecon Processor Cycles(_Total)\\Cycles",
      "\\\\WEB01\\vrecon System\\OS Build",
      "\\\\WEB01\\vrecon System\\Architecture",
      "\\\\WEB01\\Processor(_Total)\\% Processor Time",
  };
  EXPECT_EQ(rows[0], header);
  const std::vector<std::string> first = {
      "11/02/2026 05:00:15.000", "1600", "5400", "250", "400", "500", "600", "2150", "26100", "9", "50"};
  EXPECT_EQ(rows[1], first);
  // D is not a column until the next refresh, but its cycles are in the total; B has no value.
  const std::vector<std::string> second = {
      "11/02/2026 05:00:30.000", "2000", " ", "300", "500", "700", "650", "3020", "26100", "9", "50"};
  EXPECT_EQ(rows[2], second);
  // A failed read blanks the cycle cells and nothing else.
  const std::vector<std::string> third = {"11/02/2026 05:00:45.000", " ", " ", " ", " ", " ", " ", " ", " ", " ", "50"};
  EXPECT_EQ(rows[3], third);
  EXPECT_EQ(
      cycle_log.str(),
      "vrecon-agent: cycle counts not read (NtQuerySystemInformation failed (scripted)); their cells stay blank\n");
}

TEST(AgentCycles, ArchitectureAndBuildAreWhatTheSystemSays) {
  FakePdh pdh;
  FakeCycles cycles;
  cycles.snapshots = {Snap({{4, "System", 10, 1}}, {{5}})};
  cycles.identity = {22631, kArchArm64};
  CyclePdh both(pdh, cycles);
  auto o = ParseOptions({"--set", "cycles", "--count", "1"});
  ASSERT_TRUE(o.ok());
  auto sel = BuildSelection(*o, {});
  ASSERT_TRUE(sel.ok());
  FakeClock clock;
  MemoryFiles files;
  std::ostringstream log;
  ASSERT_TRUE(RunAgent(*o, *sel, both, clock, files, "ARM01", log, nullptr).ok()) << log.str();
  std::istringstream text(files.files.begin()->second);
  std::string header, row;
  std::getline(text, header);
  std::getline(text, row);
  const std::vector<std::string> cells = Cells(row);
  ASSERT_EQ(cells.size(), 6u) << row;
  EXPECT_EQ(cells[4], "22631");
  EXPECT_EQ(cells[5], "12");
  EXPECT_EQ(pdh.collections, 0) << "no PDH counter was added, so PDH is not asked to collect";
}

TEST(AgentCycles, RefusedForARemoteMachineAndUnknownCountersNamed) {
  auto o = ParseOptions({"--set", "cycles", "--computer", "SQL01"});
  ASSERT_TRUE(o.ok());
  auto sel = BuildSelection(*o, {});
  ASSERT_FALSE(sel.ok());
  EXPECT_NE(sel.status().message().find("cannot sample \\\\SQL01: run the agent on SQL01"), std::string::npos)
      << sel.status().message();

  FakePdh pdh;
  FakeCycles cycles;
  cycles.snapshots = {Snap({}, {{1}})};
  CyclePdh both(pdh, cycles);
  auto h = both.AddEnglishCounter("\\vrecon Process Cycles(*)\\Kernel Cycles");
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.status().message().find("\\vrecon Process Cycles(*)\\Kernel Cycles: not a counter of the cycles set"),
            std::string::npos)
      << h.status().message();
  auto unknown_set = ParseOptions({"--set", "cycle"});
  ASSERT_FALSE(unknown_set.ok());
  EXPECT_NE(unknown_set.status().message().find("known: vrecon, hyperv, cycles, none"), std::string::npos);
}

}  // namespace
}  // namespace vrecon::agent::testing
