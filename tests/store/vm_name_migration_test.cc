// Schema migration 14 (src/store/vm_name_migration.h): the name keys of series and inventory rows
// stored before it, on both backends, and those of rows written after it.
#include "src/store/vm_name_migration.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "models/vm_identity.h"
#include "src/store/store.h"
#include "src/store/vsphere_tables.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon {
namespace {

using testing::Fixture;
using testing::NewStore;
using testing::TempDir;
using testing::TestBackend;
using testing::WriteOldPgStore;

// machine|object|instance -> vm_name, of every series.
std::map<std::string, std::string> VmNames(Database* db) {
  std::map<std::string, std::string> out;
  auto q = db->Prepare("SELECT source, machine, object, instance, vm_name FROM series");
  EXPECT_TRUE(q.ok());
  while (*q->Step())
    out[q->ColumnText(0) + "|" + q->ColumnText(1) + "|" + q->ColumnText(2) + "|" + q->ColumnText(3)] = q->ColumnText(4);
  return out;
}

// name -> name_key|host_key, of every inventory row.
std::map<std::string, std::string> InventoryKeys(Database* db) {
  std::map<std::string, std::string> out;
  auto q = db->Prepare("SELECT vcenter, name, name_key, host_key FROM vsphere_vm");
  EXPECT_TRUE(q.ok());
  while (*q->Step()) out[q->ColumnText(0) + "|" + q->ColumnText(1)] = q->ColumnText(2) + "|" + q->ColumnText(3);
  return out;
}

TEST(VmNameMigrationTest, AnOldSqliteStoresSeriesAndInventoryGetTheirKeys) {
  TempDir dir;
  const std::string path = dir.File("v5.db");
  std::filesystem::copy_file(Fixture("stores/v5-two-vcenters.db"), path);
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  const auto names = VmNames((*store)->db());
  ASSERT_FALSE(names.empty());
  int vsphere = 0, hyperv_vp = 0, host_own = 0;
  for (const auto& [series, vm_name] : names) {
    if (series.starts_with("vsphere|")) {
      ++vsphere;
      EXPECT_EQ(vm_name, models::NormalizeVmName(series.substr(8, series.find('|', 8) - 8))) << series;
    } else if (series.find("|Hyper-V Hypervisor Virtual Processor|") != std::string::npos &&
               series.find(":Hv VP ") != std::string::npos) {
      ++hyperv_vp;
      EXPECT_EQ(vm_name, "web01") << series;
    } else if (series.starts_with("hyperv|")) {
      ++host_own;
      EXPECT_EQ(vm_name, "") << series;  // a host's own counters stand for no VM
    }
  }
  EXPECT_GT(vsphere, 0);
  EXPECT_GT(hyperv_vp, 0);
  const auto inventory = InventoryKeys((*store)->db());
  ASSERT_FALSE(inventory.empty());
  for (const auto& [vm, keys] : inventory) {
    const std::string name = vm.substr(vm.find('|') + 1);
    EXPECT_TRUE(keys.starts_with(models::NormalizeVmName(name) + "|")) << vm << " " << keys;
  }
}

TEST(VmNameMigrationTest, AVersion13PostgresStoreGetsItsKeysAndNewRowsComeWithThem) {
  VRECON_NEED_BACKEND(TestBackend::kPostgres);
  TempDir dir;
  const std::string uri = NewStore(TestBackend::kPostgres, dir.path(), "vm_name_migration");
  WriteOldPgStore(uri, 13,
                  "INSERT INTO series(source, machine, object, instance, counter, unit, original, entity) "
                  "VALUES ('vsphere', 'Web01.Corp.Example', 'cpu', '', 'cpu.usage.average', 'percent', '', "
                  "'vc/vm-1'), ('hyperv', 'HV01', 'Hyper-V Hypervisor Virtual Processor', 'APP02:Hv VP 1', "
                  "'% Total Run Time', 'percent', '', ''), ('hyperv', 'HV01', 'Hyper-V Hypervisor Logical "
                  "Processor', '_Total', '% Total Run Time', 'percent', '', ''), ('esxtop', 'esx1', "
                  "'Group Cpu', '1234:DB03', '% Used', 'percent', '', ''), ('guest', 'SRV-9.corp', "
                  "'Processor', '_Total', '% Processor Time', 'percent', '', ''); "
                  "INSERT INTO vsphere_vm(vcenter, moid, name, num_cpu, host_moid, power_state, "
                  "guest_hostname, seen_at, entity) VALUES ('https://vc/sdk', 'vm-1', 'Web01.Corp.Example', "
                  "2, 'host-1', 'poweredOn', 'SRV-9.corp', 'now', 'vc/vm-1')");
  if (HasFatalFailure()) return;
  auto store = Store::Open(uri);  // opening migrates
  ASSERT_TRUE(store.ok()) << store.status().message();
  const std::map<std::string, std::string> want = {
      {"vsphere|Web01.Corp.Example|cpu|", "web01"},
      {"hyperv|HV01|Hyper-V Hypervisor Virtual Processor|APP02:Hv VP 1", "app02"},
      {"hyperv|HV01|Hyper-V Hypervisor Logical Processor|_Total", ""},
      {"esxtop|esx1|Group Cpu|1234:DB03", "db03"},
      {"guest|SRV-9.corp|Processor|_Total", "srv-9"}};
  EXPECT_EQ(VmNames((*store)->db()), want);
  EXPECT_EQ(InventoryKeys((*store)->db()),
            (std::map<std::string, std::string>{{"https://vc/sdk|Web01.Corp.Example", "web01|srv-9"}}));

  // Written after the migration: the writers set them.
  ASSERT_TRUE(SaveVsphereVm(store->get(), StoredVm{"https://vc/sdk", "vm-2", "APP02", "host-1", "poweredOn",
                                                   "App02.Example", 1, "vc/vm-2"})
                  .ok());
  EXPECT_EQ(InventoryKeys((*store)->db())["https://vc/sdk|APP02"], "app02|app02");
}

}  // namespace
}  // namespace vrecon
