// The vCenter inventory links a vSphere VM to the esxtop VM of its name on the host it places it
// on (src/engine/host_links.h), in a real store: of two WEB01s that two esxtop hosts show at once,
// the one on the inventory's host, even when the series would not say so.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/engine/vm_view.h"
#include "src/store/vsphere_tables.h"
#include "tests/support/cli_runner.h"
#include "tests/support/sample_file.h"
#include "tests/support/test_store.h"
#include "tests/support/time_units.h"

namespace vrecon {
namespace {

const TimeNs kLinksT0 = NsFromCivil(CivilTime{2026, 3, 2});
using vrecon::testing::kMin;

SeriesKey EsxtopUsed(const std::string& host, const std::string& group) {
  return SeriesKey{SourceKind::kEsxtop, host, "Group Cpu", group, "% Used", "percent", "", ""};
}

class HostLinksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(testing::NewStore(testing::TestBackend::kSqlite, dir_.path(), "links.db"));
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
    Store* s = store_.get();
    // An hour at once on two hosts; vSphere's WEB01 at a level neither esxtop VM shows.
    testing::WriteSampleFile(s, "esx01", {EsxtopUsed("esx01", "11:WEB01")}, kLinksT0, kLinksT0 + 60 * kMin, 5 * kMin,
                             60);
    testing::WriteSampleFile(s, "esx02", {EsxtopUsed("esx02", "22:WEB01")}, kLinksT0, kLinksT0 + 60 * kMin, 5 * kMin,
                             60);
    testing::WriteSampleFile(
        s, "vc", {SeriesKey{SourceKind::kVsphere, "WEB01", "cpu", "", "cpu.usage.average", "percent", "", "vca/vm-1"}},
        kLinksT0, kLinksT0 + 60 * kMin, 5 * kMin, 5);
  }
  std::vector<std::string> Keys() {
    auto view = ReadVmView(store_.get(), std::nullopt, {});
    EXPECT_TRUE(view.ok()) << view.status().message();
    std::vector<std::string> keys;
    if (view.ok())
      for (const VmEntry& e : (*view)->dir.entries()) keys.push_back(e.key);
    return keys;
  }
  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(HostLinksTest, WithoutAPlacementSeriesThatDisagreeStayApart) {
  EXPECT_EQ(Keys(), (std::vector<std::string>{"vsphere:vca/vm-1", "esxtop:esx01/web01", "esxtop:esx02/web01"}));
}

TEST_F(HostLinksTest, TheInventorysHostLinksTheVmOnItOnly) {
  ASSERT_TRUE(SaveVsphereHost(store_.get(),
                              StoredHost{"https://vca/sdk", "host-9", "esx02.corp.example", 16, 2400, 32, true, "", ""})
                  .ok());
  ASSERT_TRUE(SaveVsphereVm(store_.get(),
                            StoredVm{"https://vca/sdk", "vm-1", "WEB01", "host-9", "poweredOn", "", 2, "vca/vm-1"})
                  .ok());
  auto view = ReadVmView(store_.get(), std::nullopt, {});
  ASSERT_TRUE(view.ok()) << view.status().message();
  const VmDirectory& dir = (*view)->dir;
  ASSERT_EQ(dir.entries().size(), 2u);
  const VmEntry& linked = dir.entry(0);
  EXPECT_EQ(linked.key, "vsphere:vca/vm-1");
  EXPECT_EQ(linked.linked, std::vector<std::string>{"esxtop:esx02/web01"});
  EXPECT_EQ(linked.linked_by, "inventory");
  EXPECT_EQ(linked.hosts, std::vector<std::string>{"esx02"});
  EXPECT_EQ(dir.entry(1).key, "esxtop:esx01/web01");
  // Both sources' series are the linked VM's; esx01's stay its own.
  EXPECT_EQ(dir.HostEntryOf(EsxtopUsed("esx02", "22:WEB01")), 0);
  EXPECT_EQ(dir.HostEntryOf(EsxtopUsed("esx01", "11:WEB01")), 1);
  EXPECT_EQ(dir.Select(std::string("esxtop:esx02/web01")), std::vector<size_t>{0});
}

}  // namespace
}  // namespace vrecon
