// Schema migration 6 on a store written by the release before VM identities
// (fixtures/stores/v5-two-vcenters.db: two vCenters' VMs of the same three names, merged into one
// series per name and counter by that release).
#include "src/store/identity_migration.h"
#include "src/store/sqlite/sqlite_database.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "src/core/text_util.h"
#include "src/store/sample_reader.h"
#include "src/store/schema.h"
#include "src/store/store.h"
#include "src/store/vsphere_tables.h"
#include "tests/support/cli_runner.h"  // TempDir, Fixture

namespace vrecon {
namespace {

using testing::Fixture;
using testing::TempDir;

constexpr const char* kA = "127.0.0.1:44351";
constexpr const char* kB = "127.0.0.1:39927";

int64_t One(Database* db, const std::string& sql) {
  auto q = db->Prepare(sql);
  EXPECT_TRUE(q.ok()) << sql;
  auto row = q->Step();
  EXPECT_TRUE(row.ok() && *row) << sql;
  return q->ColumnInt(0);
}

std::string CopyOfV5(const TempDir& dir) {
  const std::string path = dir.File("v5.db");
  std::filesystem::copy_file(Fixture("stores/v5-two-vcenters.db"), path);
  return path;
}

TEST(IdentityMigrationTest, EntityOfAnApiFileIsItsVcenterHostAndMoid) {
  EXPECT_EQ(EntityOfVsphereFile("vsphere|https://VC01.example:443/sdk|vm-42"), "vc01.example/vm-42");
  EXPECT_EQ(EntityOfVsphereFile("vsphere|https://127.0.0.1:8989/sdk|vm-7"), "127.0.0.1:8989/vm-7");
  EXPECT_EQ(EntityOfVsphereFile("527bc128a9e9d1e1"), "");  // a log file's fingerprint
  EXPECT_EQ(EntityOfVsphereFile("vsphere|https://vc/sdk|"), "");
}

TEST(IdentityMigrationTest, MergedSeriesOfTwoVcentersAreSplitByTheirFiles) {
  TempDir dir;
  const std::string path = CopyOfV5(dir);
  int64_t blocks_before = 0;
  {
    auto db = SqliteDatabase::Open(path);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ(One(db->get(), "PRAGMA user_version"), 5);
    EXPECT_EQ(One(db->get(), "SELECT count(*) FROM series"), 27);
    EXPECT_EQ(One(db->get(), "SELECT count(*) FROM corr_vm"), 4);
    blocks_before = One(db->get(), "SELECT count(*) FROM value_block");
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  Database* db = (*store)->db();
  EXPECT_EQ(One(db, "PRAGMA user_version"), kSchemaVersion);
  EXPECT_EQ(One(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check != 'ok'"), 0);
  EXPECT_EQ(One(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
  EXPECT_EQ(One(db, "SELECT count(*) FROM value_block"), blocks_before);  // moved, none lost or copied
  // Stored corrections were keyed by name: dropped, rebuilt by the next report.
  EXPECT_EQ(One(db, "SELECT count(*) FROM corr_vm"), 0);

  SeriesFilter vsphere;
  vsphere.source = "vsphere";
  auto all = FindSeries(store->get(), vsphere);
  ASSERT_TRUE(all.ok());
  std::map<std::string, std::set<std::string>> entities;  // machine/counter/instance -> entities
  for (const StoredSeries& s : *all)
    entities[s.key.machine + "|" + s.key.counter + "|" + s.key.instance].insert(s.key.entity);
  ASSERT_FALSE(entities.empty());
  for (const auto& [series, e] : entities) {
    ASSERT_EQ(e.size(), 2u) << series;
    EXPECT_TRUE(e.begin()->starts_with(kB) && e.rbegin()->starts_with(kA)) << series;
  }
  EXPECT_EQ(entities["DC0_H0_VM0|cpu.usage.average|"],
            (std::set<std::string>{std::string(kA) + "/vm-57", std::string(kB) + "/vm-57"}));
  // Each split series holds only blocks of its own vCenter's file.
  EXPECT_EQ(One(db,
                "SELECT count(*) FROM series s JOIN value_block v ON v.series_id = s.id JOIN time_block t ON "
                "t.id = v.block_id JOIN source_file f ON f.id = t.file_id WHERE s.source = 'vsphere' AND "
                "f.fingerprint NOT LIKE '%' || substr(s.entity, 1, instr(s.entity, '/') - 1) || '/sdk|' || "
                "substr(s.entity, instr(s.entity, '/') + 1)"),
            0);
  auto vms = VsphereVms(store->get());
  ASSERT_TRUE(vms.ok());
  ASSERT_EQ(vms->size(), 6u);
  for (const StoredVm& v : *vms) EXPECT_EQ(v.entity, UrlHost(v.vcenter) + "/" + v.moid);
}

TEST(IdentityMigrationTest, AVcentersFirstInstanceUuidTakesOverItsUrlKeyedData) {
  TempDir dir;
  auto store = Store::Open(CopyOfV5(dir));
  ASSERT_TRUE(store.ok()) << store.status().message();
  Database* db = (*store)->db();
  const std::string url = std::string("https://") + kA + "/sdk";
  auto a = RecordVcenter(store->get(), url, "4a1e7e5c-uuid-a");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, "4a1e7e5c-uuid-a");
  EXPECT_EQ(One(db, "SELECT count(*) FROM series WHERE entity LIKE '4a1e7e5c-uuid-a/%'"), 15);
  EXPECT_EQ(One(db, std::string("SELECT count(*) FROM series WHERE entity LIKE '") + kA + "/%'"), 0);
  EXPECT_EQ(One(db, std::string("SELECT count(*) FROM series WHERE entity LIKE '") + kB + "/%'"), 15);
  EXPECT_EQ(One(db, "SELECT count(*) FROM vsphere_vm WHERE entity LIKE '4a1e7e5c-uuid-a/%'"), 3);
  // Another URL reporting the same uuid (a cloned vCenter, with the same moids) is kept apart.
  auto b = RecordVcenter(store->get(), std::string("https://") + kB + "/sdk", "4a1e7e5c-uuid-a");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, std::string("4a1e7e5c-uuid-a@") + kB);
  EXPECT_EQ(One(db, std::string("SELECT count(*) FROM series WHERE entity LIKE '4a1e7e5c-uuid-a@") + kB + "/%'"), 15);
  EXPECT_EQ(One(db, "SELECT count(*) FROM series WHERE source = 'vsphere'"), 30);
  EXPECT_EQ(One(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
  // A later id for a URL already known by its uuid is another server: nothing moves.
  ASSERT_TRUE(RecordVcenter(store->get(), url, "another-uuid").ok());
  EXPECT_EQ(One(db, "SELECT count(*) FROM series WHERE entity LIKE '4a1e7e5c-uuid-a/%'"), 15);
  EXPECT_EQ(One(db, "SELECT count(*) FROM series WHERE entity LIKE 'another-uuid/%'"), 0);
}

}  // namespace
}  // namespace vrecon
