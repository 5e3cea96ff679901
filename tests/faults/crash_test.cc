// Crash consistency (issue 15, part 2): the real vrecon binary is killed with SIGKILL at seeded
// random moments while it ingests a large file, writes a report, migrates an old store and prunes. After
// every kill the store passes PRAGMA integrity_check and holds each file whole or not at all;
// rerunning the command completes the data, which then equals one uninterrupted run's (no loss, no
// duplicate); a report file is either the previous one or the complete new one; a migration
// stops at a schema version it completed; a prune is all done or not at all.
#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <thread>

#include "src/core/time_util.h"
#include "tests/faults/store_digest.h"
#include "tests/support/background.h"
#include "tests/support/cli_runner.h"
#include "tests/support/fake_vcenter.h"

namespace vrecon::testing {
namespace {

// Per command and run of the suite (issue 15: at least 50); the sanitizer build, where each run
// costs ten times as much, kills 10 times (the plain build's run of the suite does the 50).
// The big log's rows: what matters is that a run lasts long enough for kills to land in each of its
// phases (they are spread over one uninterrupted run's time), and under the sanitizers a quarter of
// the rows takes about as long as the plain build's whole log.
#ifdef VRECON_SANITIZED_BUILD
constexpr int kKills = 10;
constexpr int kBigRows = 15000;
#else
constexpr int kKills = 50;
constexpr int kBigRows = 60000;
#endif

// A guest Perfmon log of `rows` 15 s rows: the total and 18 processes, values from a seed.
std::string BigGuestLog(int rows, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 50);
  std::string s =
      "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\BIG01\\Processor(_Total)\\% Processor Time\"";
  for (int p = 0; p < 18; ++p) s += ",\"\\\\BIG01\\Process(proc" + std::to_string(p) + ")\\% Processor Time\"";
  s += "\n";
  char b[64];
  for (int r = 0; r < rows; ++r) {
    const long t = r * 15L;
    std::snprintf(b, sizeof b, "\"11/%02ld/2026 %02ld:%02ld:%02ld.000\"", 1 + t / 86400, t / 3600 % 24, t / 60 % 60,
                  t % 60);
    s += b;
    for (int c = 0; c < 19; ++c) {
      std::snprintf(b, sizeof b, ",\"%.4f\"", u(rng));
      s += b;
    }
    s += "\n";
  }
  return s;
}

double Seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Runs `args` and kills it after `delay_s`; true when it was still running then.
bool RunAndKill(const std::vector<std::string>& args, double delay_s) {
  Background bg(args);
  std::this_thread::sleep_for(std::chrono::duration<double>(delay_s));
  const bool running = kill(bg.pid(), 0) == 0;
  bg.Signal(SIGKILL);
  bg.Wait(30);
  return running;
}

// Wall seconds of one uninterrupted run (to spread the kill points over it).
double Timed(const std::vector<std::string>& args) {
  const auto t0 = std::chrono::steady_clock::now();
  CliResult r = RunVrecon(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return Seconds(std::chrono::steady_clock::now() - t0);
}

class CrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    big_ = dir_.File("big.csv");
    WriteText(big_, BigGuestLog(kBigRows, 7));  // about 12 MB plain: an ingest of a few tenths of a second
    small_ = Fixture("seed003/hyperv-hv01.csv");
  }
  TempDir dir_;
  std::string big_, small_;
};

TEST_F(CrashTest, KilledIngestLeavesWholeFilesAndTheRerunCompletesThem) {
  const std::string ref = dir_.File("ref.db");
  const double full_s = Timed({"ingest", "--db", ref, big_, small_});
  const auto want = StoreDigest(ref);
  ASSERT_EQ(want.size(), 2u);
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<double> at(0, 1.1 * full_s);
  int killed_running = 0;
  int states[3] = {};  // after the kill: no file stored, the first only, both
  for (int i = 0; i < kKills; ++i) {
    const std::string db = dir_.File("kill-" + std::to_string(i) + ".db");
    const double delay = at(rng);
    if (RunAndKill({"ingest", "--db", db, big_, small_}, delay)) ++killed_running;
    const std::string where = "kill " + std::to_string(i) + " at " + std::to_string(delay) + " s";
    ASSERT_EQ(IntegrityCheck(db), "ok") << where;
    const auto after = StoreDigest(db);
    for (const auto& [path, digest] : after) {
      ASSERT_TRUE(want.count(path)) << where << ": " << path;
      EXPECT_EQ(digest, want.at(path)) << where << ": " << path << " is not whole";
    }
    ++states[std::min<size_t>(after.size(), 2)];
    CliResult again = RunVrecon({"ingest", "--db", db, big_, small_});
    ASSERT_EQ(again.exit_code, 0) << where << "\n" << again.err;
    EXPECT_EQ(StoreDigest(db), want) << where << ": the rerun must give one uninterrupted run's samples";
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
  }
  EXPECT_GE(killed_running, kKills / 2) << "most kills must land while the ingest runs (" << full_s << " s)";
  std::printf(
      "ingest: %d kills, %d while running (then: %d with nothing stored, %d with the first file, %d with "
      "both), full run %.2f s\n",
      kKills, killed_running, states[0], states[1], states[2], full_s);
}

TEST_F(CrashTest, KilledReportLeavesTheOldFileOrTheCompleteNewOne) {
  const std::string db = dir_.File("r.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv"), small_}).exit_code, 0);
  const std::string out = dir_.File("report.csv");
  ASSERT_EQ(RunVrecon({"report", "--db", db, "--format", "csv", "--out", out}).exit_code, 0);
  const std::string old_report = ReadText(out);
  // New data: the next report differs.
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, big_}).exit_code, 0);
  const std::string fresh = dir_.File("fresh.csv");
  const double full_s = Timed({"report", "--db", db, "--format", "csv", "--out", fresh});
  const std::string new_report = ReadText(fresh);
  ASSERT_NE(old_report, new_report);
  std::mt19937 rng(1124);
  std::uniform_real_distribution<double> at(0, 1.1 * full_s);
  int killed_running = 0, killed_writing = 0;
  for (int i = 0; i < kKills; ++i) {
    WriteText(out, old_report);
    for (const std::string& f : FilesStartingWith(out + ".partial-")) std::filesystem::remove(f);
    if (RunAndKill({"report", "--db", db, "--format", "csv", "--out", out}, at(rng))) ++killed_running;
    if (!FilesStartingWith(out + ".partial-").empty()) ++killed_writing;  // killed while writing the new one
    const std::string now = ReadText(out);
    EXPECT_TRUE(now == old_report || now == new_report)
        << "kill " << i << ": a report file of " << now.size() << " bytes";
    ASSERT_EQ(IntegrityCheck(db), "ok") << "kill " << i;
  }
  EXPECT_GE(killed_running, kKills / 2) << "most kills must land while the report runs (" << full_s << " s)";
  std::printf("report: %d kills, %d while running, %d while writing, full run %.2f s\n", kKills, killed_running,
              killed_writing, full_s);
}

TEST_F(CrashTest, KilledMigrationLeavesTheOldOrTheNewSchemaAndTheRerunMigrates) {
  const std::string fixture = Fixture("stores/v5-two-vcenters.db");
  const std::string ref = dir_.File("ref.db");
  std::filesystem::copy_file(fixture, ref);
  const double full_s = Timed({"status", "--db", ref});
  const int migrated = SchemaVersion(ref);
  const auto want = StoreDigest(ref);
  ASSERT_GT(migrated, 5);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> at(0, 1.1 * full_s);
  for (int i = 0; i < kKills; ++i) {
    const std::string db = dir_.File("m" + std::to_string(i) + ".db");
    std::filesystem::copy_file(fixture, db);
    RunAndKill({"status", "--db", db}, at(rng));
    ASSERT_EQ(IntegrityCheck(db), "ok") << "kill " << i;
    const int v = SchemaVersion(db);
    // Each migration step is one transaction: the old version, a step between, or the new one.
    EXPECT_TRUE(v >= 5 && v <= migrated) << "kill " << i << ": schema " << v;
    RunVrecon({"status", "--db", db});  // its exit says how the sources are; the store is migrated
    EXPECT_EQ(SchemaVersion(db), migrated) << "kill " << i;
    EXPECT_EQ(StoreDigest(db), want) << "kill " << i;
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
  }
}

// Retention is one transaction: killed anywhere, the store holds everything or what one
// uninterrupted prune leaves, and the rerun gives the latter.
TEST_F(CrashTest, KilledPruneLeavesTheStoreBeforeOrAfterAndTheRerunCompletesIt) {
  const std::string fixture = dir_.File("full.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", fixture, big_}).exit_code, 0);
  const auto before = StoreDigest(fixture);
  // The log runs from 2026-11-01 for ten days: keep what ended from about 2026-11-05 on.
  const TimeNs day = 86400 * kNsPerSec;
  const std::string keep = std::to_string((NowNs() - *ParseIso("2026-11-06T00:00:00Z")) / day + 1) + "d";
  const std::string ref = dir_.File("ref.db");
  std::filesystem::copy_file(fixture, ref);
  const double full_s = Timed({"prune", "--db", ref, "--samples", keep});
  const auto want = StoreDigest(ref);
  ASSERT_NE(want, before) << "the prune must remove part of the log";
  std::mt19937 rng(35);
  std::uniform_real_distribution<double> at(0, 1.1 * full_s);
  int killed_running = 0, untouched = 0;
  for (int i = 0; i < kKills; ++i) {
    const std::string db = dir_.File("p" + std::to_string(i) + ".db");
    std::filesystem::copy_file(fixture, db);
    if (RunAndKill({"prune", "--db", db, "--samples", keep}, at(rng))) ++killed_running;
    ASSERT_EQ(IntegrityCheck(db), "ok") << "kill " << i;
    const auto after = StoreDigest(db);
    EXPECT_TRUE(after == before || after == want) << "kill " << i << ": a prune half done";
    untouched += after == before ? 1 : 0;
    CliResult again = RunVrecon({"prune", "--db", db, "--samples", keep});
    ASSERT_EQ(again.exit_code, 0) << "kill " << i << ": " << again.err;
    EXPECT_EQ(StoreDigest(db), want) << "kill " << i;
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
  }
  EXPECT_GE(killed_running, kKills / 2) << "most kills must land while the prune runs (" << full_s << " s)";
  std::printf("prune: %d kills, %d while running, %d before it committed, full run %.2f s\n", kKills, killed_running,
              untouched, full_s);
}

}  // namespace
}  // namespace vrecon::testing

namespace vrecon::testing {
namespace {

// A fleet round against the fake vCenter (fixed server clock, so every round asks for and gets
// the same samples): killed anywhere, the store is intact and the next round completes it.
TEST(CrashFleetTest, KilledRoundIsCompletedByTheNext) {
  auto vc = FakeVcenter::Start({.max_query_metrics = 4});
  ASSERT_NE(vc, nullptr);
  TempDir dir;
  setenv("VRECON_TEST_FAKE_PW", vc->options().password.c_str(), 1);
  auto config = [&](const std::string& db) {
    const std::string path = dir.File(db + ".toml");
    WriteText(path, "db = \"" + dir.File(db) +
                        "\"\nsince = \"30m\"\n[[vcenter]]\nallow_insecure_http = true\nname = \"fake\"\nurl = \"" +
                        vc->url() + "\"\nuser = \"" + vc->options().user +
                        "\"\npassword_env = \"VRECON_TEST_FAKE_PW\"\n");
    return path;
  };
  auto samples = [](const std::string& db) {
    return RunVrecon({"samples", "--db", db, "--source", "vsphere", "--format", "csv"}).out;
  };
  const std::string ref_cfg = config("ref.db");
  const double full_s = Timed({"collect", "--config", ref_cfg, "--once"});
  const std::string want = samples(dir.File("ref.db"));
  ASSERT_GT(want.size(), 1000u);
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> at(0, 1.1 * full_s);
  for (int i = 0; i < kKills; ++i) {
    const std::string db = "k" + std::to_string(i) + ".db";
    const std::string cfg = config(db);
    RunAndKill({"collect", "--config", cfg, "--once"}, at(rng));
    ASSERT_EQ(IntegrityCheck(dir.File(db)), "ok") << "kill " << i;
    CliResult next = RunVrecon({"collect", "--config", cfg, "--once"});
    ASSERT_EQ(next.exit_code, 0) << "kill " << i << "\n" << next.err;
    EXPECT_EQ(samples(dir.File(db)), want) << "kill " << i << ": the next round must complete the samples";
  }
  unsetenv("VRECON_TEST_FAKE_PW");
  std::printf("fleet round: %d kills, full round %.2f s\n", kKills, full_s);
}

}  // namespace
}  // namespace vrecon::testing
