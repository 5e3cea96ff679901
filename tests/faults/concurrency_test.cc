// Several vrecon processes on one SQLite store at once (issue 15, part 2): two ingests of
// different files into a store that does not exist yet, and reports while a collector writes.
// Every run succeeds (SQLite's busy timeout, one writer at a time) and nothing is lost.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/faults/store_digest.h"
#include "tests/support/background.h"
#include "tests/support/cli_runner.h"
#include "tests/support/fake_vcenter.h"

namespace vrecon::testing {
namespace {

TEST(ConcurrencyTest, TwoIngestsCreatingOneStoreAtOnceBothSucceed) {
  TempDir dir;
  const std::string a = Fixture("seed003/guest-web01.csv"), b = Fixture("seed003/hyperv-hv01.csv");
  const std::string ref = dir.File("ref.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", ref, a, b}).exit_code, 0);
  const auto want = StoreDigest(ref);
  for (int i = 0; i < 20; ++i) {
    const std::string db = dir.File("s" + std::to_string(i) + ".db");
    Background first({"ingest", "--db", db, a});
    Background second({"ingest", "--db", db, b});
    CliResult r1 = first.Wait(60), r2 = second.Wait(60);
    ASSERT_EQ(r1.exit_code, 0) << "trial " << i << ": " << r1.err;
    ASSERT_EQ(r2.exit_code, 0) << "trial " << i << ": " << r2.err;
    ASSERT_EQ(IntegrityCheck(db), "ok") << "trial " << i;
    EXPECT_EQ(StoreDigest(db), want) << "trial " << i << ": both files, once each";
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
      EXPECT_EQ(e.path().string().find(".creating-"), std::string::npos) << "trial " << i << ": " << e.path();
  }
}

TEST(ConcurrencyTest, ReportsWhileACollectorWritesAllSucceed) {
  auto vc = FakeVcenter::Start({.max_query_metrics = 4});
  ASSERT_NE(vc, nullptr);
  TempDir dir;
  setenv("VRECON_TEST_FAKE_PW", vc->options().password.c_str(), 1);
  const std::string db = dir.File("fleet.db");
  WriteText(dir.File("fleet.toml"),
            "db = \"" + db + "\"\nsince = \"30m\"\n[[vcenter]]\nallow_insecure_http = true\nname = \"fake\"\nurl = \"" +
                vc->url() + "\"\nuser = \"" + vc->options().user + "\"\npassword_env = \"VRECON_TEST_FAKE_PW\"\n");
  ASSERT_EQ(RunVrecon({"collect", "--config", dir.File("fleet.toml"), "--once"}).exit_code, 0);
  // The collector keeps writing (a round a second) and ingests land beside it.
  Background collector({"collect", "--config", dir.File("fleet.toml"), "--every", "1s"});
  Background ingest({"ingest", "--db", db, Fixture("seed003/guest-web01.csv"), Fixture("seed003/hyperv-hv01.csv")});
  for (int i = 0; i < 10; ++i) {
    CliResult r = RunVrecon({"report", "--db", db, "--format", "json", "--out", dir.File("r.json")});
    EXPECT_EQ(r.exit_code, 0) << "report " << i << ": " << r.err;
    CliResult c = RunVrecon({"correct", "--db", db, "--format", "csv"});
    EXPECT_EQ(c.exit_code, 0) << "correct " << i << ": " << c.err;
  }
  EXPECT_EQ(ingest.Wait(60).exit_code, 0);
  collector.Signal(SIGTERM);
  CliResult stopped = collector.Wait(60);
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  EXPECT_EQ(IntegrityCheck(db), "ok");
  EXPECT_EQ(StoreDigest(db).count(Fixture("seed003/guest-web01.csv")), 1u)
      << "the ingest beside the collector is stored";
  unsetenv("VRECON_TEST_FAKE_PW");
}

}  // namespace
}  // namespace vrecon::testing
