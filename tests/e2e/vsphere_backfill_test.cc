// `vrecon collect vsphere --backfill-days N` against the vCenter simulator: a VM's and a host's
// first round also asks vCenter's historical rollups for the days before (5 minutes for a day,
// 30 minutes a week, 2 hours a month, a day a year); a later round asks for none; `vrecon
// capacity` then forecasts from the first day, its rollup days scaled (docs/capacity.md,
// "Backfill").
#include <gtest/gtest.h>

#include <cstdlib>
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
  CliResult Collect(const Vcsim& sim, const std::string& db, std::vector<std::string> extra = {}) {
    setenv("VRECON_VSPHERE_PASSWORD", sim.password().c_str(), 1);
    std::vector<std::string> args = {"collect",     "vsphere", "--url", sim.url(), "--user", sim.user(), "--ca",
                                     sim.ca_file(), "--db",    db,      "--since", "5m",     "--format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    CliResult r = RunVrecon(args);
    unsetenv("VRECON_VSPHERE_PASSWORD");
    return r;
  }
  // The sample lengths (s) `vrecon samples` lists for `source`.
  std::set<int64_t> SampleLengths(const std::string& db, const std::string& source) {
    CliResult s = RunVrecon({"samples", "--db", db, "--source", source, "--format", "csv"});
    EXPECT_EQ(s.exit_code, 0) << s.err;
    std::set<int64_t> lengths;
    std::istringstream lines(s.out);
    std::string line;
    std::getline(lines, line);  // source,machine,object,instance,counter,start,end,...
    while (std::getline(lines, line)) {
      std::vector<std::string> cells;
      std::istringstream cut(line);
      for (std::string c; std::getline(cut, c, ',');) cells.push_back(c);
      if (cells.size() < 7) continue;
      auto start = ParseIso(cells[5]), end = ParseIso(cells[6]);
      if (start && end) lengths.insert((*end - *start) / kNsPerSec);
    }
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
  auto sim = Vcsim::Start({.vms = 2});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  const std::string db = dir_.File("backfill.db");
  CliResult first = Collect(*sim, db, {"--backfill-days", "40"});
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

  CliResult second = Collect(*sim, db, {"--backfill-days", "40"});
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

TEST_F(VsphereBackfillTest, BackfillDaysOutOfRangeIsAUsageError) {
  CliResult r = RunVrecon({"collect", "vsphere", "--url", "https://127.0.0.1:1/sdk", "--user", "u", "--backfill-days",
                           "400", "--db", dir_.File("x.db")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--backfill-days"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace vrecon::testing
