// Crash consistency on PostgreSQL (issue 16): a collector killed with SIGKILL or stopped with
// SIGTERM at seeded moments of a round, and every connection of its round cut at once, which is
// what a PostgreSQL restart is to a client (the test cuts them with pg_terminate_backend rather
// than restarting the throw-away server the other tests are using). After each, the next round
// succeeds and the store holds exactly the samples of one uninterrupted round: nothing lost,
// nothing twice.
#include <signal.h>

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "src/store/postgres/pg_database.h"
#include "tests/support/background.h"
#include "tests/support/cli_runner.h"
#include "tests/support/fake_vcenter.h"
#include "tests/support/test_store.h"

namespace vrecon::testing {
namespace {

#ifdef VRECON_SANITIZED_BUILD
constexpr int kPgKills = 4;
#else
constexpr int kPgKills = 10;
#endif

// Each test's own database (ctest runs tests in parallel): only its collectors connect to it, so
// cutting its connections cuts no other test's.
std::string DatabaseOfThisTest() {
  return std::string("pg_crash_") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

class PgCrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    VRECON_NEED_BACKEND(TestBackend::kPostgres);
    vc_ = FakeVcenter::Start({.max_query_metrics = 4});
    ASSERT_NE(vc_, nullptr);
    setenv("VRECON_TEST_FAKE_PW", vc_->options().password.c_str(), 1);
    const std::string ref = Config("ref");
    const auto t0 = std::chrono::steady_clock::now();
    CliResult r = RunVrecon({"collect", "--config", ref, "--once"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    full_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    want_ = Samples(ref_db_);
    ASSERT_GT(want_.size(), 1000u);
  }
  void TearDown() override { unsetenv("VRECON_TEST_FAKE_PW"); }

  // A fleet file for a new store (a schema of its own in the test's database); its URI in
  // last_db_. `extra`: more top-level keys.
  std::string Config(const std::string& name, const std::string& extra = "") {
    last_db_ = NewStore(TestBackend::kPostgres, dir_.path(), DatabaseOfThisTest());
    if (name == "ref") ref_db_ = last_db_;
    const std::string path = dir_.File(name + ".toml");
    WriteText(path, "db = \"" + last_db_ + "\"\nsince = \"30m\"\n" + extra +
                        "[[vcenter]]\nallow_insecure_http = true\nname = \"fake\"\nurl = \"" + vc_->url() +
                        "\"\nuser = \"" + vc_->options().user + "\"\npassword_env = \"VRECON_TEST_FAKE_PW\"\n");
    return path;
  }
  static std::string Samples(const std::string& db) {
    return RunVrecon({"samples", "--db", db, "--source", "vsphere", "--format", "csv"}).out;
  }
  // The round after the interruption succeeds and completes the samples.
  void ExpectNextRoundCompletes(const std::string& cfg, const std::string& db, const std::string& where) {
    CliResult next = RunVrecon({"collect", "--config", cfg, "--once"});
    ASSERT_EQ(next.exit_code, 0) << where << "\n" << next.err;
    EXPECT_EQ(Samples(db), want_) << where << ": the next round must complete the samples, once each";
  }

  TempDir dir_;
  std::unique_ptr<FakeVcenter> vc_;
  std::string want_, last_db_, ref_db_;
  double full_s_ = 0;
};

TEST_F(PgCrashTest, AKilledOrStoppedCollectorsRoundIsCompletedByTheNext) {
  std::mt19937 rng(1625);
  std::uniform_real_distribution<double> at(0, 1.1 * full_s_);
  for (int i = 0; i < 2 * kPgKills; ++i) {
    const int sig = i % 2 ? SIGTERM : SIGKILL;
    const std::string cfg = Config("k" + std::to_string(i));
    const std::string db = last_db_;
    {
      Background round({"collect", "--config", cfg, "--once"});
      std::this_thread::sleep_for(std::chrono::duration<double>(at(rng)));
      round.Signal(sig);
      // A SIGTERM ends the round early (the collector's handler) or, before the handler is set,
      // the process; either way within moments.
      const auto t0 = std::chrono::steady_clock::now();
      round.Wait(60);
      EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30)
          << "the collector did not end after " << (sig == SIGTERM ? "SIGTERM" : "SIGKILL");
    }
    ExpectNextRoundCompletes(cfg, db, std::string(sig == SIGTERM ? "SIGTERM " : "SIGKILL ") + std::to_string(i));
  }
  std::printf("PostgreSQL: %d SIGKILL and %d SIGTERM mid-round, full round %.2f s\n", kPgKills, kPgKills, full_s_);
}

TEST_F(PgCrashTest, ARoundWhoseConnectionsAreCutIsCompletedByTheNext) {
  auto admin = PgDatabase::Connect("postgresql:///" + DatabaseOfThisTest());
  ASSERT_TRUE(admin.ok()) << admin.status().message();
  std::mt19937 rng(1626);
  std::uniform_real_distribution<double> at(0, 1.1 * full_s_);
  int failed_rounds = 0;
  for (int i = 0; i < kPgKills; ++i) {
    const std::string cfg = Config("c" + std::to_string(i));
    const std::string db = last_db_;
    {
      Background round({"collect", "--config", cfg, "--once"});
      std::this_thread::sleep_for(std::chrono::duration<double>(at(rng)));
      ASSERT_TRUE((*admin)
                      ->Exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                             "current_database() AND pid <> pg_backend_pid()")
                      .ok());
      CliResult r = round.Wait(60);
      ASSERT_NE(r.exit_code, -1) << "cut " << i << ": the collector did not end";
      // Cut mid-round, a source fails with the connection's loss and the round says so.
      if (r.exit_code != 0) {
        ++failed_rounds;
        EXPECT_EQ(r.exit_code, 1) << r.err;
      }
    }
    ExpectNextRoundCompletes(cfg, db, "cut " + std::to_string(i));
  }
  std::printf("PostgreSQL: %d rounds' connections cut, %d of those rounds failed, full round %.2f s\n", kPgKills,
              failed_rounds, full_s_);
}

// A collector that runs --every keeps its own connection between rounds (the corrections and
// retention use it). Cut while it waits, as a server restart would, it is opened again by the
// next round, whose corrections and retention succeed.
TEST_F(PgCrashTest, AKeptConnectionCutBetweenRoundsIsOpenedAgain) {
  auto admin = PgDatabase::Connect("postgresql:///" + DatabaseOfThisTest());
  ASSERT_TRUE(admin.ok()) << admin.status().message();
  const std::string cfg = Config("every", "retain_samples = \"400d\"\n");
  // Long enough between rounds that the cut falls in the wait, not in the next round.
  const int every_s = 3 + static_cast<int>(3 * full_s_);
  Background bg({"collect", "--config", cfg, "--every", std::to_string(every_s) + "s", "--log-level", "info"});
  ASSERT_TRUE(bg.WaitForLog("round finished", 60)) << bg.err();
  ASSERT_TRUE((*admin)
                  ->Exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                         "current_database() AND pid <> pg_backend_pid()")
                  .ok());
  ASSERT_TRUE(bg.WaitForLog("round finished", 60 + every_s, 2)) << bg.err();
  bg.Signal(SIGTERM);
  CliResult r = bg.Wait(30);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("retention failed"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("storing the corrections failed"), std::string::npos) << r.err;
  EXPECT_EQ(Samples(last_db_), want_);
}

// A collector keeps its runner's connection from round to round and lends it to the round's first
// source (src/fleet/fleet_round.cc), so a collector of one vCenter opens no connection in its
// later rounds, where each round's source opened one (a password exchange and a new backend on
// the server). The server counts the sessions opened in the test's own database; this test reads
// them from another.
TEST_F(PgCrashTest, ACollectorOfOneSourceOpensNoConnectionInItsLaterRounds) {
  auto admin = PgDatabase::Connect("postgresql:///postgres");
  ASSERT_TRUE(admin.ok()) << admin.status().message();
  const auto sessions = [&]() -> int64_t {
    auto q = (*admin)->Prepare("SELECT sessions FROM pg_stat_database WHERE datname = ?");
    EXPECT_TRUE(q.ok());
    if (!q.ok() || !(*admin)->Exec("SELECT pg_stat_clear_snapshot()").ok()) return -1;
    q->Bind(1, DatabaseOfThisTest());
    auto row = q->Step();
    return row.ok() && *row ? q->ColumnInt(0) : -1;
  };
  const std::string cfg = Config("every");
  Background bg({"collect", "--config", cfg, "--every", "1s", "--log-level", "info"});
  ASSERT_TRUE(bg.WaitForLog("round finished", 60, 2)) << bg.err();
  const int64_t before = sessions();
  ASSERT_TRUE(bg.WaitForLog("round finished", 60, 5)) << bg.err();
  const int64_t after = sessions();
  bg.Signal(SIGTERM);
  CliResult r = bg.Wait(30);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_GE(before, 0);
  // At most one: the server may count the collector's own connection late (it reports a session
  // when the backend next flushes its statistics).
  EXPECT_LE(after - before, 1) << "sessions opened in three rounds: " << after - before;
  EXPECT_EQ(Samples(last_db_), want_);
}

// The lent connection stays open between rounds, but its claim of the source ends with the round,
// as when the source's own connection closed: another collector may collect the source meanwhile.
TEST_F(PgCrashTest, TheKeptConnectionsClaimEndsWithTheRound) {
  const std::string cfg = Config("every");
  Background bg({"collect", "--config", cfg, "--every", "1h", "--log-level", "info"});
  ASSERT_TRUE(bg.WaitForLog("round finished", 60)) << bg.err();
  CliResult other = RunVrecon({"collect", "--config", cfg, "--once"});
  bg.Signal(SIGTERM);
  CliResult r = bg.Wait(30);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(other.exit_code, 0) << other.err;
  EXPECT_EQ(other.err.find("skipped"), std::string::npos) << other.err;
  EXPECT_EQ(Samples(last_db_), want_);
}

}  // namespace
}  // namespace vrecon::testing
