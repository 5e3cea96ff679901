// `vrecon collect --config` against two govmomi simulators as two vCenters plus a drop folder,
// through the real binary: several rounds, one vCenter stopped and restarted (no duplicates,
// no gaps, status shows the outage and the recovery), SIGTERM mid-round then a restart, a round
// after the server's clock moved 5 minutes, and catch-up from 300 s rollups after a long absence.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <thread>

#include "src/core/time_util.h"
#include "src/store/store.h"
#include "src/store/vsphere_tables.h"
#include "tests/support/background.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"
#include "tests/support/test_store.h"
#include "tests/support/vcsim.h"

namespace vrecon::testing {
namespace {

namespace fs = std::filesystem;

// Sample (start, end) pairs of one stored series, in stored order, from `vrecon samples`.
std::vector<std::pair<std::string, std::string>> Spans(const std::string& db, const std::string& vm) {
  CliResult s =
      RunVrecon({"samples", "--db", db, "--machine", vm, "--counter", "cpu.usage.average", "--format", "csv"});
  std::vector<std::pair<std::string, std::string>> out;
  const std::regex row(R"(^vsphere,[^,]*,cpu,,cpu\.usage\.average,([^,]+),([^,]+),)");
  for (const std::string& line : Lines(s.out)) {
    std::smatch m;
    if (std::regex_search(line, m, row)) out.emplace_back(m[1], m[2]);
  }
  return out;
}

std::string StatusField(const std::string& json, const std::string& source, const std::string& key) {
  const size_t at = json.find("\"source\": \"" + source + "\"");
  if (at == std::string::npos) return "";
  std::smatch m;
  const std::string rest = json.substr(at, json.find('}', at) - at);
  if (!std::regex_search(rest, m, std::regex("\"" + key + "\": (\"[^\"]*\"|[^,}]+)"))) return "";
  return m[1];
}

// On both backends: the same rounds into a SQLite file and into PostgreSQL.
class FleetVcsimTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override {
    VRECON_NEED_BACKEND(GetParam());
    fs::create_directory(dir_.File("drop"));
    db_ = NewStore(GetParam(), dir_.path(), "fleet.db");
  }
  std::string DbLine(const std::string& db) const { return "db = \"" + db + "\"\n"; }
  CliResult Once() { return RunVrecon({"collect", "--config", dir_.File("fleet.toml"), "--once", "--format", "json"}); }
  CliResult Status(const std::string& stale_after) {
    return RunVrecon({"status", "--db", db_, "--stale-after", stale_after, "--format", "json"});
  }
  TempDir dir_;
  std::string db_;
};

INSTANTIATE_TEST_SUITE_P(Backends, FleetVcsimTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         BackendParamName);

TEST_P(FleetVcsimTest, TwoVcentersAndADropFolderSurviveAnOutage) {
  VRECON_REQUIRE_VCSIM();
  auto a = Vcsim::Start({.vms = 3});
  auto b = Vcsim::Start({.vms = 3});
  ASSERT_NE(a, nullptr) << Vcsim::last_error();
  ASSERT_NE(b, nullptr) << Vcsim::last_error();
  ASSERT_EQ(a->password(), b->password());
  setenv("VRECON_TEST_VC_PW", a->password().c_str(), 1);
  const int b_port = b->port();
  // The CA files are kept beside the config: a stopped simulator takes its own away.
  auto write_config = [&] {
    std::string toml = DbLine(db_) + "since = \"10m\"\nretries = 1\nretry_backoff = 1\nsettle = 1\n" +
                       VcenterToml("vcA", *a, 2, "DC0_H0_*") + VcenterToml("vcB", *b, 2, "DC0_C0_*") +
                       "[[drop_folder]]\npath = \"drop\"\n";
    for (const Vcsim* sim : {a.get(), b.get()}) {
      const std::string kept = dir_.File("ca-" + std::to_string(sim->port()) + ".pem");
      fs::copy_file(sim->ca_file(), kept, fs::copy_options::overwrite_existing);
      toml.replace(toml.find(sim->ca_file()), sim->ca_file().size(), kept);
    }
    WriteText(dir_.File("fleet.toml"), toml);
  };
  write_config();
  fs::copy_file(Fixture("seed003/guest-web01.csv"), dir_.File("drop/guest-web01.csv"));
  CliResult r1 = Once();
  ASSERT_EQ(r1.exit_code, 0) << r1.err << r1.out;
  EXPECT_NE(r1.out.find(" VMs\", \"seconds\""), std::string::npos) << r1.out;
  EXPECT_NE(r1.out.find("\"detail\": \"1 of 1 files ingested\""), std::string::npos) << r1.out;
  EXPECT_EQ(r1.err.find('\r'), std::string::npos) << "no progress line when stderr is not a terminal";

  // vcB goes away for a while; vcA and the folder go on.
  b.reset();
  std::this_thread::sleep_for(std::chrono::seconds(4));
  fs::copy_file(Fixture("seed003/hyperv-hv01.csv"), dir_.File("drop/hyperv-hv01.csv"));
  CliResult r2 = Once();
  EXPECT_EQ(r2.exit_code, 1) << "a failed source fails the round";
  EXPECT_NE(r2.err.find("vcB: "), std::string::npos) << r2.err;
  EXPECT_NE(r2.err.find("retrying in 1 s"), std::string::npos) << "a refused connection is retried: " << r2.err;
  EXPECT_EQ(r2.err.find("retrying", r2.err.find("retrying") + 1), std::string::npos) << "retries = 1: " << r2.err;
  // The Hyper-V host's log joined the guest's: the round stored their corrections.
  EXPECT_GT(JsonInt(r2.out, "windows_stored"), 0) << r2.out;
  EXPECT_NE(r2.out.find("\"detail\": \"1 of 2 files ingested\""), std::string::npos) << r2.out;
  CliResult s2 = Status("4s");
  EXPECT_EQ(s2.exit_code, 1) << s2.out;
  EXPECT_EQ(StatusField(s2.out, "vcB", "state"), "\"stale\"") << s2.out;
  EXPECT_EQ(StatusField(s2.out, "vcB", "failures"), "1") << s2.out;
  EXPECT_NE(StatusField(s2.out, "vcB", "last_error"), "null") << s2.out;
  EXPECT_EQ(StatusField(s2.out, "vcA", "state"), "\"ok\"") << s2.out;

  // vcB comes back on the same address (with a new CA): the round completes it.
  b = Vcsim::Start({.vms = 3, .port = b_port});
  ASSERT_NE(b, nullptr) << Vcsim::last_error();
  write_config();
  CliResult r3 = Once();
  ASSERT_EQ(r3.exit_code, 0) << r3.err << r3.out;
  EXPECT_EQ(r3.err.find("error"), std::string::npos) << r3.err;
  CliResult s3 = Status("10m");
  EXPECT_EQ(s3.exit_code, 0) << s3.out;
  EXPECT_EQ(StatusField(s3.out, "vcB", "state"), "\"ok\"") << s3.out;
  EXPECT_EQ(StatusField(s3.out, "vcB", "failures"), "0") << s3.out;
  EXPECT_NE(StatusField(s3.out, "vcB", "last_error_at"), "null") << "the outage stays visible: " << s3.out;

  // The simulators name their VMs alike; each vCenter collects its own half (vms globs). Per
  // VM: sample ends strictly increasing (nothing twice) and no step above the 20 s interval,
  // across the outage too (realtime still held it).
  for (const std::string vm : {"DC0_H0_VM0", "DC0_C0_RP0_VM0"}) {
    auto spans = Spans(db_, vm);
    ASSERT_GT(spans.size(), 20u) << vm;
    std::vector<TimeNs> ends;
    for (const auto& [start, end] : spans) ends.push_back(*ParseIso(end));
    std::sort(ends.begin(), ends.end());
    for (size_t i = 1; i < ends.size(); ++i) {
      EXPECT_GT(ends[i], ends[i - 1]) << vm << ": a sample was stored twice";
      EXPECT_LE(ends[i] - ends[i - 1], 20 * kNsPerSec) << vm << ": a gap at " << FormatIso(ends[i - 1], true);
    }
  }
  auto store = Store::Open(db_);
  ASSERT_TRUE(store.ok());
  auto marks = VsphereMarks(store->get(), b->url());
  ASSERT_TRUE(marks.ok());
  EXPECT_GT(VmMarks(*marks), 0u);
  EXPECT_EQ(VmMarks(*marks) % 6, 0u) << "every VM of vcB has a mark per counter";
  EXPECT_EQ((marks->size() - VmMarks(*marks)) % 4, 0u) << "every host of its VMs a mark per host counter";
  unsetenv("VRECON_TEST_VC_PW");
}

TEST_P(FleetVcsimTest, SigtermMidRoundLeavesAWholeStoreAndTheNextRoundCompletesIt) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 300, .max_query_metrics = 6});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  setenv("VRECON_TEST_VC_PW", sim->password().c_str(), 1);
  WriteText(dir_.File("fleet.toml"), DbLine(db_) + "since = \"30m\"\n" + VcenterToml("vc", *sim, 1));
  Background bg({"collect", "--config", dir_.File("fleet.toml"), "--every", "1h", "--log-level", "debug"});
  // One VM per QueryPerf batch (6 metrics): stop after a few of the 300 batches are stored.
  ASSERT_TRUE(bg.WaitForLog("QueryPerf batches 5/", 60)) << bg.err();
  bg.Signal(SIGTERM);
  CliResult stopped = bg.Wait(60);
  ASSERT_EQ(stopped.exit_code, 0) << stopped.err;
  EXPECT_NE(stopped.err.find("stopped by a signal"), std::string::npos) << stopped.err;
  {
    auto store = Store::Open(db_);
    ASSERT_TRUE(store.ok()) << store.status().message();
    if (GetParam() == TestBackend::kSqlite) {
      auto q = (*store)->db()->Prepare("PRAGMA integrity_check");
      ASSERT_TRUE(q.ok());
      auto row = q->Step();
      ASSERT_TRUE(row.ok() && *row);
      EXPECT_EQ(q->ColumnText(0), "ok");
    }
    auto marks = VsphereMarks(store->get(), sim->url());
    ASSERT_TRUE(marks.ok());
    EXPECT_LT(VmMarks(*marks), 300u * 6u) << "the round was meant to be cut short; make it longer";
  }
  CliResult next = Once();
  ASSERT_EQ(next.exit_code, 0) << next.err << next.out;
  EXPECT_NE(next.out.find("\"detail\": \"300 of 300 VMs\""), std::string::npos) << next.out;
  auto store = Store::Open(db_);
  ASSERT_TRUE(store.ok());
  auto marks = VsphereMarks(store->get(), sim->url());
  ASSERT_TRUE(marks.ok());
  EXPECT_EQ(VmMarks(*marks), 300u * 6u);
  EXPECT_GT(marks->size(), VmMarks(*marks)) << "the hosts' own counters were collected too";
  unsetenv("VRECON_TEST_VC_PW");
}

// The simulator's clock moved 5 minutes (what bench/pg_fleet_bench.sh does between rounds): the
// next round stores the 5 new minutes, each sample once, after the ones stored.
TEST_P(FleetVcsimTest, AServerClockFiveMinutesOnGivesTheNextRoundFiveNewMinutes) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 2});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  setenv("VRECON_TEST_VC_PW", sim->password().c_str(), 1);
  WriteText(dir_.File("fleet.toml"), DbLine(db_) + "since = \"5m\"\n" + VcenterToml("vc", *sim));
  ASSERT_EQ(Once().exit_code, 0);
  const auto first = Spans(db_, "DC0_H0_VM0");
  ASSERT_FALSE(first.empty());
  // The capacity day digests' end, as a store's reader sees it.
  auto digests_end = [this]() -> TimeNs {
    auto store = Store::Open(db_);
    if (!store.ok()) return 0;
    const std::string end =
        QueryText((*store)->db(), "SELECT max(end_ns) FROM capacity_day WHERE entity LIKE 'vsphere:%'");
    return end.empty() ? 0 : std::stoll(end);
  };
  // A first round (none before it) takes every VM's samples into its digests.
  EXPECT_GE(digests_end(), FloorTo(*ParseIso(first.back().second), 300 * kNsPerSec));
  ASSERT_TRUE(sim->AdvanceClock(300));
  CliResult r = Once();
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto both = Spans(db_, "DC0_H0_VM0");
  ASSERT_GT(both.size(), first.size());
  const TimeNs last_before = *ParseIso(first.back().second);
  // 300 s of 20 s samples, and the seconds the first round took.
  EXPECT_GE(both.size() - first.size(), 15u);
  EXPECT_LE(both.size() - first.size(), 17u);
  for (size_t i = first.size(); i < both.size(); ++i) {
    EXPECT_GT(*ParseIso(both[i].second), last_before) << both[i].second;
    EXPECT_EQ(*ParseIso(both[i].second) - *ParseIso(both[i].first), 20 * kNsPerSec) << both[i].first;
    if (i > first.size()) {
      EXPECT_EQ(*ParseIso(both[i].second), *ParseIso(both[i - 1].second) + 20 * kNsPerSec);
    }
  }
  EXPECT_GE(*ParseIso(both.back().second), last_before + 300 * kNsPerSec);
  // The second round, seconds later, updated the digests of the VMs whose turn in the hour came
  // (each VM's once an hour); a reader brings the rest up to date, into its 5 minutes.
  ASSERT_EQ(RunVrecon({"capacity", "--db", db_, "--format", "csv"}).exit_code, 0);
  EXPECT_GE(digests_end(), FloorTo(last_before, 300 * kNsPerSec) + 300 * kNsPerSec);
  unsetenv("VRECON_TEST_VC_PW");
}

TEST_P(FleetVcsimTest, AfterALongAbsenceEachVmCatchesUpFromRollups) {
  VRECON_REQUIRE_VCSIM();
  // The server keeps its 5-minute rollup three days, every counter in it (vCenter's default is a
  // day): the catch-up reaches as far back as that.
  auto sim = Vcsim::Start({.vms = 2, .stats_level = 4, .day_keep_s = 3 * 86400});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  setenv("VRECON_TEST_VC_PW", sim->password().c_str(), 1);
  // A first round in a scratch store gives the VMs' ids; the fleet store then holds marks as
  // a collector stopped two days ago would have left them.
  const std::string scratch_db = NewStore(GetParam(), dir_.path(), "scratch.db");
  WriteText(dir_.File("fleet.toml"), DbLine(scratch_db) + "since = \"2m\"\n" + VcenterToml("vc", *sim));
  ASSERT_EQ(Once().exit_code, 0);
  {
    auto scratch = Store::Open(scratch_db);
    auto store = Store::Open(db_);
    ASSERT_TRUE(scratch.ok() && store.ok());
    auto marks = VsphereMarks(scratch->get(), sim->url());
    ASSERT_TRUE(marks.ok());
    ASSERT_EQ(VmMarks(*marks), 2u * 6u);
    std::map<MarkKey, TimeNs> back;
    for (const auto& [key, t] : *marks) back[key] = t - 2 * 86400 * kNsPerSec;
    ASSERT_TRUE(SetVsphereMarks(store->get(), sim->url(), back).ok());
  }
  WriteText(dir_.File("fleet.toml"), DbLine(db_) + VcenterToml("vc", *sim));
  CliResult r = Once();
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("2 caught up from rollups"), std::string::npos) << r.out;
  auto spans = Spans(db_, "DC0_H0_VM0");
  int rollups = 0, realtime = 0;
  for (const auto& [start, end] : spans) {
    const TimeNs d = *ParseIso(end) - *ParseIso(start);
    rollups += d == 300 * kNsPerSec;
    realtime += d == 20 * kNsPerSec;
  }
  // 47 hours the realtime store no longer holds, as 300 s rollups (564, and one reaching into the
  // realtime hour), then the hour at 20 s (180). Before the catch-up read the server's list it
  // stopped at vCenter's default day (276).
  EXPECT_GE(rollups, 562) << spans.size();
  EXPECT_LE(rollups, 567);
  EXPECT_GE(realtime, 178);
  // The next round has nothing old to catch up.
  CliResult again = Once();
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out.find("caught up"), std::string::npos) << again.out;
  unsetenv("VRECON_TEST_VC_PW");
}

}  // namespace
}  // namespace vrecon::testing
