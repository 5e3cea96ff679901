// A store written by an earlier release, opened by today's commands: the migration's result as a
// user sees it (the migrations themselves are unit-tested in tests/store/).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

// fixtures/stores/v5-two-vcenters.db: two vCenters' VMs of the same three names, merged into one
// series per name and counter by the release before VM identities (schema version 5).
constexpr const char* kA = "127.0.0.1:44351";
constexpr const char* kB = "127.0.0.1:39927";

TEST(OldStoreTest, MigratedStoreReportsEachVcentersVmApart) {
  TempDir dir;
  const std::string path = dir.File("v5.db");
  std::filesystem::copy_file(Fixture("stores/v5-two-vcenters.db"), path);
  CliResult ready = RunVrecon({"ready", "--db", path, "--format", "csv"});
  ASSERT_EQ(ready.exit_code, 0) << ready.err;
  for (const char* vc : {kA, kB})
    for (const char* moid : {"vm-57", "vm-63", "vm-66"})
      EXPECT_NE(ready.out.find(std::string(",vsphere:") + vc + "/" + moid + "\n"), std::string::npos) << ready.out;
  CliResult report = RunVrecon({"report", "--db", path, "--format", "csv", "--out", dir.File("r.csv")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  CliResult corrected = RunVrecon({"correct", "--db", path, "--vm", "web01", "--format", "json"});
  ASSERT_EQ(corrected.exit_code, 0) << corrected.err;
  EXPECT_NE(corrected.out.find("\"vm_key\": \"hyperv:hv01/web01\""), std::string::npos);
  // Schema 17's capacity day digests, built from the samples the old store holds.
  CliResult capacity = RunVrecon({"capacity", "--db", path, "--format", "json"});
  ASSERT_EQ(capacity.exit_code, 0) << capacity.err;
  for (const char* vc : {kA, kB})
    EXPECT_NE(capacity.out.find(std::string("\"key\": \"vsphere:") + vc + "/vm-57\""), std::string::npos)
        << capacity.out.substr(0, 2000);
  // The table tells the namesakes apart as the other commands do.
  CliResult table = RunVrecon({"capacity", "--db", path});
  for (const char* vc : {kA, kB})
    EXPECT_NE(table.out.find(std::string("DC0_C0_RP0_VM0 [") + vc + "]"), std::string::npos) << table.out;
}

}  // namespace
}  // namespace vrecon::testing
