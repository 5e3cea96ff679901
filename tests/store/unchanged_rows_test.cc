// A VM's inventory row and its corr_vm row are written again only when a value changed (and the
// inventory row on a VM's first round of a UTC day), on both backends: a fleet round saves every
// VM's of both, and rewriting unchanged rows was a new row version and index entries per VM and
// round on PostgreSQL (docs/storage.md, "vsphere_vm" and "corr_vm").
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "src/core/time_util.h"
#include "src/store/correction_rows.h"
#include "src/store/correction_tables.h"
#include "src/store/store.h"
#include "src/store/vsphere_tables.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon {
namespace {

using testing::NewStore;
using testing::QueryText;
using testing::TempDir;
using testing::TestBackend;

constexpr const char* kLongAgo = "2001-02-03T04:05:06Z";

class UnchangedRowsTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override {
    VRECON_NEED_BACKEND(GetParam());
    auto store = Store::Open(NewStore(GetParam(), dir_.path(), "rows.db"));
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(*store);
  }

  Database* db() { return store_->db(); }

  void Exec(const std::string& sql) { ASSERT_TRUE(db()->Exec(sql).ok()) << sql; }

  std::string Text(const std::string& sql) { return QueryText(db(), sql); }

  TempDir dir_;
  std::unique_ptr<Store> store_;
};

StoredVm Inventory(const std::string& moid, int cpus) {
  return StoredVm{"https://vc/sdk", moid, "web-" + moid, "host-1", "poweredOn", "web.example", cpus, "vc-id/" + moid};
}

TEST_P(UnchangedRowsTest, AnInventoryRowIsWrittenAgainWhenItChangesOrOnANewDay) {
  ASSERT_TRUE(SaveVsphereVms(store_.get(), {Inventory("vm-1", 2), Inventory("vm-2", 2), Inventory("vm-3", 2)}).ok());
  const std::string today = NowIso().substr(0, 10);
  // vm-1 and vm-2 seen earlier today, vm-3 on an earlier day.
  Exec("UPDATE vsphere_vm SET seen_at = '" + today + "T00:00:00Z' WHERE moid IN ('vm-1', 'vm-2')");
  Exec(std::string("UPDATE vsphere_vm SET seen_at = '") + kLongAgo + "' WHERE moid = 'vm-3'");

  ASSERT_TRUE(SaveVsphereVms(store_.get(), {Inventory("vm-1", 2), Inventory("vm-2", 4), Inventory("vm-3", 2)}).ok());
  // A round across midnight would rightly write vm-1 again: its day is not today's any more.
  if (NowIso().substr(0, 10) == today) {
    EXPECT_EQ(Text("SELECT seen_at FROM vsphere_vm WHERE moid = 'vm-1'"), today + "T00:00:00Z");
  }
  EXPECT_NE(Text("SELECT seen_at FROM vsphere_vm WHERE moid = 'vm-2'"), today + "T00:00:00Z");
  EXPECT_EQ(Text("SELECT num_cpu FROM vsphere_vm WHERE moid = 'vm-2'"), "4");
  EXPECT_NE(Text("SELECT seen_at FROM vsphere_vm WHERE moid = 'vm-3'"), kLongAgo);
  EXPECT_EQ(Text("SELECT count(*) FROM vsphere_vm"), "3");
}

CorrVm Vm(const std::string& name, int vcpus) {
  return CorrVm{0, name, name, "vsphere", vcpus, "vsphere:vc-id/" + name, "vc", "cpu.usage.average"};
}

TEST_P(UnchangedRowsTest, ACorrVmRowIsWrittenAgainOnlyWhenAValueChanged) {
  auto a = UpsertCorrVm(store_.get(), Vm("a", 2));
  auto b = UpsertCorrVm(store_.get(), Vm("b", 2));
  ASSERT_TRUE(a.ok() && b.ok());
  Exec(std::string("UPDATE corr_vm SET stored_at = '") + kLongAgo + "'");

  {
    // As a recompute writes them: many VMs to a statement on PostgreSQL, one at a time on SQLite.
    auto tx = Transaction::Begin(db());
    ASSERT_TRUE(tx.ok());
    CorrectionRows rows(store_.get(), std::numeric_limits<TimeNs>::min(), std::numeric_limits<TimeNs>::max());
    ASSERT_TRUE(rows.SaveVm(Vm("a", 2), *a).ok());
    ASSERT_TRUE(rows.SaveVm(Vm("b", 4), *b).ok());
    ASSERT_TRUE(rows.Flush().ok());
    ASSERT_TRUE(tx->Commit().ok());
  }
  EXPECT_EQ(Text("SELECT stored_at FROM corr_vm WHERE vm = 'a'"), kLongAgo);
  EXPECT_NE(Text("SELECT stored_at FROM corr_vm WHERE vm = 'b'"), kLongAgo);
  EXPECT_EQ(Text("SELECT vcpus FROM corr_vm WHERE vm = 'b'"), "4");

  // One VM alone, and a value going from known to unknown is a change too.
  CorrVm unknown = Vm("a", 2);
  unknown.vcpus.reset();
  ASSERT_TRUE(RewriteCorrVm(store_.get(), Vm("a", 2)).ok());
  EXPECT_EQ(Text("SELECT stored_at FROM corr_vm WHERE vm = 'a'"), kLongAgo);
  ASSERT_TRUE(RewriteCorrVm(store_.get(), unknown).ok());
  EXPECT_NE(Text("SELECT stored_at FROM corr_vm WHERE vm = 'a'"), kLongAgo);
  EXPECT_EQ(Text("SELECT count(*) FROM corr_vm WHERE vm = 'a' AND vcpus IS NULL"), "1");
  EXPECT_EQ(Text("SELECT count(*) FROM corr_vm"), "2");
}

INSTANTIATE_TEST_SUITE_P(Backends, UnchangedRowsTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         testing::BackendParamName);

}  // namespace
}  // namespace vrecon
