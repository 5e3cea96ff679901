// `--map GUEST=VM` takes exactly one value per occurrence, in every command (issue 13): before,
// a list option took the words after it, so `ingest --map A=B f1.csv f2.csv` (the order
// docs/cli.md shows) read f1.csv as a mapping. Repeating --map gives several mappings.
#include <gtest/gtest.h>

#include <map>

#include "src/store/store.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

class MapOptionTest : public ::testing::Test {
 protected:
  // seed 003's guest log under another computer name (SRV-7), so only a mapping pairs it with
  // the Hyper-V host's WEB01.
  void SetUp() override {
    std::string guest = ReadText(Fixture("seed003/guest-web01.csv"));
    for (size_t p; (p = guest.find("\\\\WEB01\\")) != std::string::npos;) guest.replace(p, 8, "\\\\SRV-7\\");
    WriteText(guest_, guest);
  }
  std::map<std::string, std::string> StoredMappings() {
    auto store = Store::Open(db_);
    EXPECT_TRUE(store.ok()) << store.status().message();
    if (!store.ok()) return {};
    auto maps = (*store)->Mappings();
    EXPECT_TRUE(maps.ok()) << maps.status().message();
    return maps.ok() ? *maps : std::map<std::string, std::string>{};
  }
  // WEB01's first window, corrected with the host's data: the guest was paired with the VM.
  static bool HasPairedWindow(const std::string& csv) {
    return csv.find("WEB01,2026-11-02T15:00:00Z,2026-11-02T15:05:00Z,1,73,88,") != std::string::npos;
  }
  TempDir dir_;
  const std::string db_ = dir_.File("s.db");
  const std::string guest_ = dir_.File("guest-srv7.csv");
  const std::string host_ = Fixture("seed003/hyperv-hv01.csv");
};

TEST_F(MapOptionTest, IngestReadsEveryFileAfterAMap) {
  CliResult r = RunVrecon({"ingest", "--db", db_, "--format", "json", "--map", "srv-7=web01", guest_, host_});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("{\"path\": \"" + guest_ + "\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"path\": \"" + host_ + "\""), std::string::npos) << r.out;
  EXPECT_EQ(StoredMappings(), (std::map<std::string, std::string>{{"srv-7", "web01"}}));
  CliResult c = RunVrecon({"correct", "--db", db_, "--vm", "WEB01", "--format", "csv"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_TRUE(HasPairedWindow(c.out)) << "the stored mapping pairs them: " << c.out;
}

TEST_F(MapOptionTest, IngestTakesRepeatedMapsAnywhereAmongTheFiles) {
  CliResult r = RunVrecon(
      {"ingest", "--db", db_, "--map", "srv-7=web01", "--map", "srv-8=web02", guest_, "--map", "srv-9=web03", host_});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find(guest_), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(host_), std::string::npos) << r.out;
  EXPECT_EQ(StoredMappings(),
            (std::map<std::string, std::string>{{"srv-7", "web01"}, {"srv-8", "web02"}, {"srv-9", "web03"}}));
}

TEST_F(MapOptionTest, CorrectAndCountersTakeOneValuePerMap) {
  ASSERT_EQ(RunVrecon({"ingest", "--db", db_, guest_}).exit_code, 0);
  ASSERT_EQ(RunVrecon({"ingest", "--db", db_, host_}).exit_code, 0);
  // A second GUEST=VM after one --map is a stray argument now, not a second mapping.
  for (const char* cmd : {"correct", "counters"}) {
    CliResult r = RunVrecon({cmd, "--db", db_, "--map", "srv-7=web01", "srv-8=web02", "--vm", "WEB01"});
    EXPECT_EQ(r.exit_code, 2) << cmd << ": " << r.out;
    EXPECT_NE(r.err.find("srv-8=web02"), std::string::npos) << cmd << ": " << r.err;
  }
  CliResult repeated = RunVrecon(
      {"correct", "--db", db_, "--map", "srv-8=web02", "--map", "srv-7=web01", "--vm", "WEB01", "--format", "csv"});
  ASSERT_EQ(repeated.exit_code, 0) << repeated.err;
  EXPECT_TRUE(HasPairedWindow(repeated.out)) << repeated.out;
  // Ad hoc, --map before the file lists: --guest and --host still take their files.
  CliResult ad_hoc = RunVrecon(
      {"correct", "--map", "srv-7=web01", "--guest", guest_, "--host", host_, "--vm", "WEB01", "--format", "csv"});
  ASSERT_EQ(ad_hoc.exit_code, 0) << ad_hoc.err;
  EXPECT_TRUE(HasPairedWindow(ad_hoc.out)) << ad_hoc.out;
}

}  // namespace
}  // namespace vrecon::testing
