#include "src/engine/correction_job.h"

#include <gtest/gtest.h>

#include "src/ingest/ingest_file.h"
#include "src/store/vsphere_tables.h"
#include "tests/support/cli_runner.h"

namespace vrecon {
namespace {

using vrecon::testing::Fixture;
using vrecon::testing::ReadText;
using vrecon::testing::TempDir;
using vrecon::testing::WriteText;

// The seed example with the guest renamed: its computer name no longer matches the VM's.
std::unique_ptr<Store> RenamedSeedStore(const TempDir& dir) {
  std::string guest = ReadText(Fixture("seed003/guest-web01.csv"));
  for (size_t p; (p = guest.find("\\\\WEB01\\")) != std::string::npos;) guest.replace(p, 8, "\\\\SRV-7\\");
  WriteText(dir.File("g.csv"), guest);
  auto store = Store::Open(":memory:");
  EXPECT_TRUE(IngestFile(store->get(), dir.File("g.csv"), {}).ok());
  EXPECT_TRUE(IngestFile(store->get(), Fixture("seed003/hyperv-hv01.csv"), {}).ok());
  return std::move(store).value();
}

TEST(CorrectionJobTest, ExplicitMappingWinsOverInventoryHostName) {
  TempDir dir;
  auto store = RenamedSeedStore(dir);
  // The vSphere inventory claims the guest "srv-7.corp" is the VM OTHER; the user says WEB01.
  ASSERT_TRUE(SaveVsphereVm(store.get(), StoredVm{"https://vc/sdk", "vm-9", "OTHER", "host-1", "poweredOn",
                                                  "srv-7.corp", 1, "vc/vm-9"})
                  .ok());
  CorrectionRequest req;
  req.mappings["SRV-7"] = "WEB01";
  req.vm = "WEB01";
  auto r = RunCorrection(store.get(), req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_FALSE(r->empty());
  EXPECT_EQ((*r)[0].guest_machine, "SRV-7");
  ASSERT_TRUE((*r)[0].w);
  EXPECT_NEAR(*(*r)[0].w, 88.0 / 73.0, 1e-9);
}

TEST(CorrectionJobTest, InventoryHostNameMatchesAGuestWithoutAMapping) {
  TempDir dir;
  auto store = RenamedSeedStore(dir);
  ASSERT_TRUE(SaveVsphereVm(store.get(), StoredVm{"https://vc/sdk", "vm-9", "WEB01", "host-1", "poweredOn",
                                                  "srv-7.corp.example", 1, "vc/vm-9"})
                  .ok());
  CorrectionRequest req;
  req.vm = "WEB01";
  auto r = RunCorrection(store.get(), req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_FALSE(r->empty());
  EXPECT_EQ((*r)[0].guest_machine, "SRV-7");
  EXPECT_EQ((*r)[0].host, models::HostSource::kHyperV);
  EXPECT_TRUE((*r)[0].w.has_value());
}

}  // namespace
}  // namespace vrecon
