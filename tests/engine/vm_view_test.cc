// A fleet round's view of its VMs (src/engine/vm_view.h) reads only what decides their identities,
// yet gives them the directory entries the whole store gives: namesakes in other vCenters and in
// host logs, guests matched by guest.hostName or by a mapping, a renamed VM's old series, and a
// guest that an esxtop VM's inventory row maps to one of the round's names.
#include "src/engine/vm_view.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/store/vsphere_tables.h"
#include "tests/support/cli_runner.h"
#include "tests/support/sample_file.h"
#include "tests/support/test_store.h"
#include "tests/support/time_units.h"

namespace vrecon {
namespace {

using vrecon::testing::TestBackend;

const TimeNs kT0 = NsFromCivil(CivilTime{2026, 3, 2});
using vrecon::testing::kMin;

// An hour of samples of `columns` in one file.
void WriteFile(Store* store, const std::string& name, const std::vector<SeriesKey>& columns) {
  testing::WriteSampleFile(store, name, columns, kT0, kT0 + 60 * kMin, 5 * kMin, 20.0);
}

SeriesKey Vsphere(const std::string& name, const std::string& entity) {
  return SeriesKey{SourceKind::kVsphere, name, "cpu", "", "cpu.usage.average", "percent", "", entity};
}
SeriesKey Guest(const std::string& machine) {
  return SeriesKey{SourceKind::kGuest, machine, "Processor", "_Total", "% Processor Time", "percent", "", ""};
}
StoredVm Inventory(const std::string& moid, const std::string& name, const std::string& hostname,
                   const std::string& vcenter = "vca") {
  return StoredVm{"https://" + vcenter + "/sdk", moid, name, "host-1", "poweredOn", hostname, 2, vcenter + "/" + moid};
}

class VmViewTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override {
    VRECON_NEED_BACKEND(GetParam());
    auto store = Store::Open(testing::NewStore(GetParam(), dir_.path(), "vm_view.db"));
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
    Store* s = store_.get();
    // The round's VMs, vCenter A.
    WriteFile(s, "web01", {Vsphere("WEB01", "vca/vm-1")});
    WriteFile(s, "web01-before-rename", {Vsphere("OLD-WEB", "vca/vm-1")});
    WriteFile(s, "app02", {Vsphere("APP02", "vca/vm-2")});
    WriteFile(s, "db03", {Vsphere("DB03", "vca/vm-3")});
    WriteFile(s, "zed04", {Vsphere("ZED04", "vca/vm-4")});
    // Others: namesakes in vCenter B, a VM of its own there, an esxtop VM named DB03.
    WriteFile(s, "web01-b", {Vsphere("web01", "vcb/vm-7")});
    WriteFile(s, "app02-b", {Vsphere("app02", "vcb/vm-6")});
    WriteFile(s, "other05", {Vsphere("OTHER05", "vcb/vm-5")});
    WriteFile(s, "esx1",
              {SeriesKey{SourceKind::kEsxtop, "esx1", "Group Cpu", "1234:DB03", "% Used", "percent", "", ""}});
    // Guests: by guest.hostName (WEB01's, APP02's short one), by name (two VMs: neither), by a
    // mapping, through the inventory row of an esxtop VM named ZED04, the old name, and strangers.
    for (const char* g : {"WEB01.corp.example", "SRV-9", "db03", "MAPPED", "HIDDEN", "OLD-WEB", "OTHER05", "lonely",
                          "zed04.one.local", "zed04.two.local"})
      WriteFile(s, std::string("guest-") + g, {Guest(g)});
    ASSERT_TRUE(
        SaveVsphereVms(
            s, {Inventory("vm-1", "WEB01", "web01.corp.example"), Inventory("vm-2", "APP02", "srv-9.corp"),
                Inventory("vm-3", "DB03", ""), Inventory("vm-4", "ZED04", ""), Inventory("vm-7", "web01", "", "vcb"),
                Inventory("vm-5", "OTHER05", "", "vcb"), Inventory("vm-8", "ZED04", "hidden", "vcb")})
            .ok());
    ASSERT_TRUE(s->SetMapping("MAPPED", "vsphere:vca/vm-4").ok());
  }

  StatusOr<VmViewPtr> View(const std::optional<std::set<std::string>>& keys) {
    auto mappings = MergedMappings(store_.get(), {});
    if (!mappings.ok()) return mappings.status();
    return ReadVmView(store_.get(), keys, *mappings);
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
};

const std::set<std::string> kRound = {"vsphere:vca/vm-1", "vsphere:vca/vm-2", "vsphere:vca/vm-3", "vsphere:vca/vm-4"};

std::string Describe(const VmEntry& e) {
  std::string out = e.key + " name=" + e.name + " source=" + e.source + " shared=" + (e.name_shared ? "y" : "n") +
                    " cpus=" + std::to_string(e.num_cpu) + " hostname=" + e.guest_hostname + " guests=";
  for (const std::string& g : e.guests) out += g + ",";
  out += " hosts=";
  for (const std::string& h : e.hosts) out += h + ",";
  out += " ambiguous=";
  for (const std::string& a : e.ambiguous) out += a + ",";
  return out;
}

std::vector<std::string> Selected(const VmView& view, const std::set<std::string>& keys) {
  std::vector<std::string> out;
  for (size_t i : view.dir.Select(std::nullopt, keys)) out.push_back(Describe(view.dir.entry(i)));
  return out;
}

TEST_P(VmViewTest, TheRoundsVmsHaveTheEntriesTheWholeStoreGivesThem) {
  auto whole = View(std::nullopt);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  auto scoped = View(kRound);
  ASSERT_TRUE(scoped.ok()) << scoped.status().message();
  EXPECT_FALSE((*whole)->scoped);
  EXPECT_TRUE((*scoped)->scoped);

  const std::vector<std::string> want = Selected(**whole, kRound);
  ASSERT_EQ(want.size(), 4u);
  EXPECT_EQ(Selected(**scoped, kRound), want);
  // What the whole store says of them, so that the comparison above compares the cases it names.
  auto entry = [&](const std::string& key) {
    for (const std::string& d : want)
      if (d.starts_with(key + " ")) return d;
    return std::string();
  };
  EXPECT_NE(entry("vsphere:vca/vm-1").find("name=OLD-WEB "), std::string::npos);  // first spelled
  EXPECT_NE(entry("vsphere:vca/vm-1").find("guests=OLD-WEB,WEB01.corp.example,"), std::string::npos);
  EXPECT_NE(entry("vsphere:vca/vm-2").find("shared=y"), std::string::npos);  // vCenter B's app02
  EXPECT_NE(entry("vsphere:vca/vm-2").find("guests=SRV-9,"), std::string::npos);
  EXPECT_NE(entry("vsphere:vca/vm-3").find("shared=y"), std::string::npos);  // the esxtop VM
  EXPECT_NE(entry("vsphere:vca/vm-3").find("guests= "), std::string::npos);  // db03 matches both
  EXPECT_NE(entry("vsphere:vca/vm-4").find("guests=HIDDEN,MAPPED,"), std::string::npos);

  // Only what decides them was read: not the strangers' series.
  EXPECT_LT((*scoped)->series.size(), (*whole)->series.size());
  for (const StoredSeries& s : (*scoped)->series) {
    EXPECT_NE(s.key.machine, "lonely");
    EXPECT_NE(s.key.machine, "OTHER05");
  }
}

TEST_P(VmViewTest, KeysThatAreNotVsphereEntitiesReadTheWholeStore) {
  auto view = View(std::set<std::string>{"vsphere:vca/vm-1", "esxtop:esx1/db03"});
  ASSERT_TRUE(view.ok()) << view.status().message();
  EXPECT_FALSE((*view)->scoped);
  // Shaped like an entity but naming no VM (a PowerCLI export's VM called "a/b"): whole too.
  auto unknown = View(std::set<std::string>{"vsphere:vca/vm-1", "vsphere:a/b"});
  ASSERT_TRUE(unknown.ok()) << unknown.status().message();
  EXPECT_FALSE((*unknown)->scoped);
  auto none = View(std::set<std::string>{});
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_TRUE((*none)->scoped);
  EXPECT_TRUE((*none)->dir.Select(std::nullopt, std::set<std::string>{}).empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, VmViewTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         testing::BackendParamName);

}  // namespace
}  // namespace vrecon
