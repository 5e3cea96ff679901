// The high-water marks one row per VM and interval (src/store/vsphere_marks.h): their text, a VM
// with a counter behind the others, and schema migration 15 from the per-counter rows on both
// backends.
#include "src/store/vsphere_marks.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "src/store/sqlite/sqlite_database.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon {
namespace {

using testing::Fixture;
using testing::NewStore;
using testing::TempDir;
using testing::TestBackend;
using testing::WriteOldPgStore;

TEST(VsphereMarksTest, CountersBehindTheNewestRoundTrip) {
  const std::map<std::string, TimeNs> counters = {
      {"cpu.ready.summation", 1000}, {"cpu.usage.average", 1000}, {"cpu.costop.summation", 400}};
  const std::string text = EncodeVmMarks(counters, 1000);
  EXPECT_EQ(text, "600 cpu.costop.summation\n0 cpu.ready.summation\n0 cpu.usage.average");
  EXPECT_EQ(DecodeVmMarks(text, 1000), counters);
  // Moved back as a whole, as a bench does with `last_end_ns`.
  EXPECT_EQ(DecodeVmMarks(text, 700)->at("cpu.costop.summation"), 100);
  EXPECT_EQ(DecodeVmMarks("", 5), (std::map<std::string, TimeNs>{}));
  for (const char* damaged : {"x cpu.usage.average", "-5 cpu.usage.average", "0", "0 ", "12cpu"})
    EXPECT_FALSE(DecodeVmMarks(damaged, 1000)) << damaged;
  EXPECT_FALSE(DecodeVmMarks("9223372036854775807 cpu.usage.average", -10));  // before any time there is
}

class VsphereMarksStoreTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(GetParam()); }
  TempDir dir_;
};

TEST_P(VsphereMarksStoreTest, AVmsCountersAreStoredTogetherAndNeverMoveBack) {
  auto store = Store::Open(NewStore(GetParam(), dir_.path(), "marks.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  const std::map<MarkKey, TimeNs> marks = {{{"vm-1", "cpu.ready.summation", 20}, 9000},
                                           {{"vm-1", "cpu.usage.average", 20}, 9000},
                                           {{"vm-1", "cpu.costop.summation", 20}, 7000},  // behind
                                           {{"vm-1", "cpu.ready.summation", 300}, 6000},  // a rollup
                                           {{"vm-2", "cpu.ready.summation", 20}, 8000}};
  ASSERT_TRUE(SetVsphereMarks(store->get(), "https://vc/sdk", marks).ok());
  ASSERT_TRUE(SetVsphereMarks(store->get(), "https://other/sdk", {{{"vm-1", "cpu.ready.summation", 20}, 1}}).ok());
  EXPECT_EQ(*VsphereMarks(store->get(), "https://vc/sdk"), marks);
  EXPECT_EQ(**NewestVsphereMark(store->get(), "https://vc/sdk"), 9000);
  EXPECT_FALSE(*NewestVsphereMark(store->get(), "https://none/sdk"));

  // vm-1 at 20 s older than stored: kept whole; vm-2 newer: replaced.
  ASSERT_TRUE(SetVsphereMarks(store->get(), "https://vc/sdk",
                              {{{"vm-1", "cpu.ready.summation", 20}, 8500},
                               {{"vm-1", "cpu.usage.average", 20}, 8500},
                               {{"vm-1", "cpu.costop.summation", 20}, 8500},
                               {{"vm-2", "cpu.ready.summation", 20}, 8300}})
                  .ok());
  auto read = VsphereMarks(store->get(), "https://vc/sdk");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->at({"vm-1", "cpu.costop.summation", 20}), 7000);
  EXPECT_EQ(read->at({"vm-2", "cpu.ready.summation", 20}), 8300);
  EXPECT_EQ(read->size(), marks.size());
}

INSTANTIATE_TEST_SUITE_P(Backends, VsphereMarksStoreTest,
                         ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres), testing::BackendParamName);

TEST(VsphereMarksMigrationTest, AnOldSqliteStoresMarksArePackedPerVm) {
  TempDir dir;
  const std::string path = dir.File("v5.db");
  std::filesystem::copy_file(Fixture("stores/v5-two-vcenters.db"), path);
  std::map<MarkKey, TimeNs> before;
  std::string vcenter;
  {
    auto db = SqliteDatabase::Open(path);
    ASSERT_TRUE(db.ok());
    auto q = (*db)->Prepare(
        "SELECT vcenter, moid, counter, interval_s, last_end_ns FROM vsphere_mark "
        "WHERE vcenter = (SELECT min(vcenter) FROM vsphere_mark)");
    ASSERT_TRUE(q.ok());
    while (*q->Step()) {
      vcenter = q->ColumnText(0);
      before[{q->ColumnText(1), q->ColumnText(2), static_cast<int>(q->ColumnInt(3))}] = q->ColumnInt(4);
    }
  }
  ASSERT_EQ(before.size(), 18u);  // 3 VMs x 6 counters
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ(*VsphereMarks(store->get(), vcenter), before);
  auto rows = (*store)->db()->Prepare("SELECT count(*) FROM vsphere_vm_mark WHERE vcenter = ?");
  ASSERT_TRUE(rows.ok());
  ASSERT_TRUE(*rows->Bind(1, vcenter).Step());
  EXPECT_EQ(rows->ColumnInt(0), 3);
  EXPECT_FALSE((*store)->db()->Prepare("SELECT 1 FROM vsphere_mark").ok());  // dropped
}

TEST(VsphereMarksMigrationTest, AVersion14PostgresStoresMarksArePackedPerVm) {
  VRECON_NEED_BACKEND(TestBackend::kPostgres);
  TempDir dir;
  const std::string uri = NewStore(TestBackend::kPostgres, dir.path(), "marks_migration");
  WriteOldPgStore(uri, 14,
                  "INSERT INTO vsphere_mark(vcenter, moid, counter, interval_s, last_end_ns) VALUES "
                  "('https://vc/sdk', 'vm-1', 'cpu.ready.summation', 20, 9000), "
                  "('https://vc/sdk', 'vm-1', 'cpu.usage.average', 20, 8000), "
                  "('https://vc/sdk', 'vm-1', 'cpu.ready.summation', 300, 6000), "
                  "('https://vc/sdk', 'vm-2', 'cpu.ready.summation', 20, 7000)");
  if (HasFatalFailure()) return;
  auto store = Store::Open(uri);  // opening migrates
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ(*VsphereMarks(store->get(), "https://vc/sdk"),
            (std::map<MarkKey, TimeNs>{{{"vm-1", "cpu.ready.summation", 20}, 9000},
                                       {{"vm-1", "cpu.usage.average", 20}, 8000},
                                       {{"vm-1", "cpu.ready.summation", 300}, 6000},
                                       {{"vm-2", "cpu.ready.summation", 20}, 7000}}));
}

}  // namespace
}  // namespace vrecon
