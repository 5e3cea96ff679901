// `vrecon collect vsphere --backfill-days N` against the vCenter simulator: a VM's and a host's
// first round also asks vCenter's historical rollups for the days before (5 minutes for a day,
// 30 minutes a week, 2 hours a month, a day a year); a later round asks for none; `vrecon
// capacity` then forecasts from the first day, its rollup days scaled (docs/capacity.md,
// "Backfill").
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "src/core/time_util.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"
#include "tests/support/vcsim.h"

namespace vrecon::testing {
namespace {

class VsphereBackfillTest : public ::testing::Test {
 protected:
  // The sample lengths (s) `vrecon samples` lists for `source` (and `counter`, when given), each
  // with the earliest start of a sample that long.
  std::map<int64_t, TimeNs> Spans(const std::string& db, const std::string& source, const std::string& counter = "") {
    CliResult s = RunVrecon({"samples", "--db", db, "--source", source, "--format", "csv"});
    EXPECT_EQ(s.exit_code, 0) << s.err;
    std::map<int64_t, TimeNs> spans;
    std::istringstream lines(s.out);
    std::string line;
    std::getline(lines, line);  // source,machine,object,instance,counter,start,end,...
    while (std::getline(lines, line)) {
      std::vector<std::string> cells;
      std::istringstream cut(line);
      for (std::string c; std::getline(cut, c, ',');) cells.push_back(c);
      if (cells.size() < 7 || (!counter.empty() && cells[4] != counter)) continue;
      auto start = ParseIso(cells[5]), end = ParseIso(cells[6]);
      if (!start || !end) continue;
      auto [it, fresh] = spans.try_emplace((*end - *start) / kNsPerSec, *start);
      if (!fresh) it->second = std::min(it->second, *start);
    }
    return spans;
  }
  std::set<int64_t> SampleLengths(const std::string& db, const std::string& source, const std::string& counter = "") {
    std::set<int64_t> lengths;
    for (const auto& [length, start] : Spans(db, source, counter)) lengths.insert(length);
    return lengths;
  }
  TempDir dir_;
};

// The value of the first `"key": "..."` in `json`.
std::string JsonText(const std::string& json, const std::string& key) {
  const std::string at = "\"" + key + "\": \"";
  const size_t p = json.find(at);
  if (p == std::string::npos) return "";
  const size_t from = p + at.size();
  return json.substr(from, json.find('"', from) - from);
}

TEST_F(VsphereBackfillTest, AFirstRoundBackfillsFromTheRollupsAndALaterRoundDoesNot) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 2, .stats_level = 4});  // every counter kept in every rollup
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  const std::string db = dir_.File("backfill.db");
  CliResult first = CollectVsphere(*sim, db, {"--backfill-days", "40"});
  ASSERT_EQ(first.exit_code, 0) << first.err << first.out;
  EXPECT_EQ(JsonInt(first.out, "vms_backfilled"), 2);
  EXPECT_EQ(JsonInt(first.out, "hosts_backfilled"), JsonInt(first.out, "hosts_selected"));
  EXPECT_EQ(JsonInt(first.out, "backfill_failed"), 0);
  const TimeNs from = *ParseIso(JsonText(first.out, "from"));
  const TimeNs to = *ParseIso(JsonText(first.out, "to"));
  EXPECT_NEAR(static_cast<double>(to - from) / kNsPerDay, 40, 0.01) << first.out;
  // Realtime for the round's own 5 minutes, each rollup before it.
  EXPECT_EQ(SampleLengths(db, "vsphere"), (std::set<int64_t>{20, 300, 1800, 7200, 86400}));
  EXPECT_EQ(SampleLengths(db, "vsphere-host"), (std::set<int64_t>{20, 300, 1800, 7200, 86400}));

  CliResult second = CollectVsphere(*sim, db, {"--backfill-days", "40"});
  ASSERT_EQ(second.exit_code, 0) << second.err << second.out;
  EXPECT_EQ(JsonInt(second.out, "vms_backfilled"), 0);
  EXPECT_EQ(JsonInt(second.out, "hosts_backfilled"), 0);
  EXPECT_GT(*ParseIso(JsonText(second.out, "from")), to - 3600 * kNsPerSec) << "only what is new";

  // Forty days of history from the first day: a forecast, its rollup days scaled by what the last
  // day's 5-minute rollups show.
  CliResult cap = RunVrecon({"capacity", "--db", db, "--scope", "vm", "--format", "json"});
  ASSERT_EQ(cap.exit_code, 0) << cap.err;
  EXPECT_EQ(cap.out.find("insufficient-history"), std::string::npos) << cap.out;
  EXPECT_NE(cap.out.find("\"code\": \"rollup-days-scaled\""), std::string::npos) << cap.out;
  EXPECT_GE(JsonInt(cap.out, "history_days"), 39) << cap.out;
}

// A vCenter at the default statistics level 1, its 5-minute rollups kept three days: the
// backfill follows the server's own intervals and asks each only for the counters it keeps.
TEST_F(VsphereBackfillTest, TheServersIntervalsAndLevelsDecideWhatIsAsked) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 2, .stats_level = 1, .day_keep_s = 3 * 86400});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  const std::string db = dir_.File("level1.db");
  CliResult r = CollectVsphere(*sim, db, {"--backfill-days", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(JsonInt(r.out, "vms_backfilled"), 2);
  // Hosts still backfill their usage and ready (level 1), not their utilization (level 2).
  EXPECT_EQ(JsonInt(r.out, "hosts_backfilled"), JsonInt(r.out, "hosts_selected"));
  const TimeNs to = *ParseIso(JsonText(r.out, "to"));
  const auto usage = Spans(db, "vsphere", "cpu.usage.average");
  EXPECT_EQ(SampleLengths(db, "vsphere", "cpu.usage.average"), (std::set<int64_t>{20, 300, 1800, 7200}));
  ASSERT_TRUE(usage.contains(300) && usage.contains(1800));
  // Five minutes for the three days the server keeps them, 30 minutes before (each within one
  // of its intervals: the first sample ends where the query starts).
  EXPECT_NEAR(static_cast<double>(to - usage.at(300)) / kNsPerDay, 3, 300.0 / 86400 + 1e-6);
  EXPECT_NEAR(static_cast<double>(to - usage.at(1800)) / kNsPerDay, 7, 1800.0 / 86400 + 1e-6);
  EXPECT_EQ(SampleLengths(db, "vsphere", "cpu.run.summation"), (std::set<int64_t>{20}));
  EXPECT_EQ(SampleLengths(db, "vsphere-host", "cpu.utilization.average"), (std::set<int64_t>{20}));
  EXPECT_EQ(SampleLengths(db, "vsphere-host", "cpu.usage.average"), (std::set<int64_t>{20, 300, 1800, 7200}));
  // Said on stderr in JSON (the table lists it): which counters, from which rollup on.
  EXPECT_NE(r.err.find("rollup-counters-not-kept"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cpu.run.summation (level 2) from the 5-minute rollup on (level 1)"), std::string::npos)
      << r.err;
}

// The simulator as it comes lists no historical interval: nothing to backfill from, said.
TEST_F(VsphereBackfillTest, AServerKeepingNoRollupsIsNotAskedForThem) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 2});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  const std::string db = dir_.File("none.db");
  CliResult r = CollectVsphere(*sim, db, {"--backfill-days", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(JsonInt(r.out, "vms_backfilled"), 0);
  EXPECT_EQ(JsonInt(r.out, "hosts_backfilled"), 0);
  EXPECT_NE(r.err.find("rollup-intervals-none"), std::string::npos) << r.err;
  EXPECT_EQ(SampleLengths(db, "vsphere"), (std::set<int64_t>{20}));
  // A later round has nothing to backfill: it does not ask, nor say it again.
  CliResult again = CollectVsphere(*sim, db, {"--backfill-days", "10"});
  ASSERT_EQ(again.exit_code, 0) << again.err << again.out;
  EXPECT_EQ(again.err.find("rollup-intervals-none"), std::string::npos) << again.err;
}

TEST_F(VsphereBackfillTest, BackfillDaysOutOfRangeIsAUsageError) {
  CliResult r = RunVrecon({"collect", "vsphere", "--url", "https://127.0.0.1:1/sdk", "--user", "u", "--backfill-days",
                           "400", "--db", dir_.File("x.db")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--backfill-days"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace vrecon::testing
