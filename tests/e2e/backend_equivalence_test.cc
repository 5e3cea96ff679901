// SQLite and PostgreSQL give the same answers: the same input files stored in each give
// byte-identical `correct --format json` and `report --format csv` (issue 16). Inputs: the seed
// example, the four-VM report fixture, and simulated contention runs (tests/sim) with their
// ground truth, several seeds in one store.
#include <gtest/gtest.h>

#include "src/core/time_util.h"
#include "tests/sim/simulator.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"
#include "tests/support/test_store.h"

namespace vrecon::testing {
namespace {

// Both stores are named eq.db: reports print the store's name.
std::pair<std::string, std::string> TwoStores(const TempDir& dir) {
  return {NewStore(TestBackend::kSqlite, dir.path(), "eq.db"), NewStore(TestBackend::kPostgres, dir.path(), "eq.db")};
}

void IngestBoth(const std::pair<std::string, std::string>& dbs, const std::vector<std::string>& files) {
  for (const std::string& db : {dbs.first, dbs.second}) {
    std::vector<std::string> args = {"ingest", "--db", db};
    args.insert(args.end(), files.begin(), files.end());
    CliResult r = RunVrecon(args);
    ASSERT_EQ(r.exit_code, 0) << db << ": " << r.err;
  }
}

void ExpectSameOutput(const std::pair<std::string, std::string>& dbs, const std::vector<std::string>& command) {
  std::string out[2];
  int i = 0;
  for (const std::string& db : {dbs.first, dbs.second}) {
    std::vector<std::string> args = command;
    args.insert(args.begin() + 1, {"--db", db});
    CliResult r = RunVrecon(args);
    ASSERT_EQ(r.exit_code, 0) << db << ": " << r.err;
    out[i++] = r.out;
  }
  EXPECT_FALSE(out[0].empty());
  EXPECT_TRUE(out[0] == out[1]) << command[0] << " differs between SQLite and PostgreSQL:\n"
                                << LineDiff(out[0], out[1]);
}

class BackendEquivalenceTest : public ::testing::Test {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(TestBackend::kPostgres); }
  void ExpectEquivalent(const std::vector<std::string>& files) {
    TempDir dir;
    const auto dbs = TwoStores(dir);
    IngestBoth(dbs, files);
    if (HasFatalFailure()) return;
    ExpectSameOutput(dbs, {"correct", "--format", "json"});
    ExpectSameOutput(dbs, {"report", "--format", "csv", "--out", "-"});
    // The report stored corrections on its first run; the second reads them back.
    ExpectSameOutput(dbs, {"report", "--format", "csv", "--out", "-"});
    ExpectSameOutput(dbs, {"ready", "--format", "json"});
  }
};

TEST_F(BackendEquivalenceTest, SeedExample) {
  ExpectEquivalent({Fixture("seed003/guest-web01.csv"), Fixture("seed003/hyperv-hv01.csv")});
}

TEST_F(BackendEquivalenceTest, FourVmFixture) {
  ExpectEquivalent({Fixture("report/fleet-guests.csv"), Fixture("report/fleet-esxtop.csv")});
}

TEST_F(BackendEquivalenceTest, SimulatedContention) {
  TempDir in;
  std::vector<std::string> files;
  for (uint64_t seed : {11u, 12u, 13u}) {
    const sim::SimOutput s = sim::Simulate(sim::MakeScenario("contention", seed));
    const std::string stem = in.File("contention-" + std::to_string(seed));
    WriteText(stem + "-guest.csv", s.guest_csv);
    WriteText(stem + "-host.csv", s.host_csv);
    files.push_back(stem + "-guest.csv");
    files.push_back(stem + "-host.csv");
  }
  const sim::SimOutput mixed = sim::Simulate(sim::MakeScenario("mixed", 5));
  WriteText(in.File("mixed-guest.csv"), mixed.guest_csv);
  WriteText(in.File("mixed-host.csv"), mixed.host_csv);
  files.push_back(in.File("mixed-guest.csv"));
  files.push_back(in.File("mixed-host.csv"));
  ExpectEquivalent(files);
}

// PostgreSQL keeps each month's value blocks in a partition of its own; a VM whose newer month
// was ingested first has block ids out of time order across them.
TEST_F(BackendEquivalenceTest, TwoMonthsIngestedNewestFirst) {
  TempDir in;
  std::vector<std::string> files;
  for (const char* start : {"2026-11-02T10:00:00Z", "2026-10-30T22:00:00Z"}) {
    sim::Scenario sc = sim::MakeScenario("contention", 21);
    sc.start = *ParseIso(start);
    sc.hours = 3;  // the second crosses the month's end
    const sim::SimOutput s = sim::Simulate(sc);
    const std::string stem = in.File(std::string("vm-") + start);
    WriteText(stem + "-guest.csv", s.guest_csv);
    WriteText(stem + "-host.csv", s.host_csv);
    files.push_back(stem + "-guest.csv");
    files.push_back(stem + "-host.csv");
  }
  ExpectEquivalent(files);
}

// One file across a month's end into a new store: on PostgreSQL the ingest makes the second
// month's partition while its own transaction holds rows of the first.
TEST_F(BackendEquivalenceTest, AFileAcrossAMonthsEndIntoANewStore) {
  TempDir in;
  sim::Scenario sc = sim::MakeScenario("calm", 22);
  sc.start = *ParseIso("2026-09-30T22:00:00Z");
  sc.hours = 4;
  const sim::SimOutput s = sim::Simulate(sc);
  WriteText(in.File("guest.csv"), s.guest_csv);
  WriteText(in.File("host.csv"), s.host_csv);
  ExpectEquivalent({in.File("guest.csv"), in.File("host.csv")});
}

}  // namespace
}  // namespace vrecon::testing
