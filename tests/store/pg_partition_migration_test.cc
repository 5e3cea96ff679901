// PostgreSQL's monthly partitions of value_block (src/store/postgres/pg_partitions.h): migration
// 10, which moves the value blocks of a version-9 store into partitions without losing or
// changing a sample. The month arithmetic is unit-tested in tests/store/postgres/.
#include <gtest/gtest.h>

#include "src/store/postgres/pg_partitions.h"
#include "src/store/postgres/pg_schema.h"
#include "tests/support/cli_runner.h"
#include "tests/support/pdh_log.h"
#include "tests/support/test_store.h"

namespace vrecon {
namespace {

using testing::CliResult;
using testing::NewStore;
using testing::RunVrecon;
using testing::TempDir;
using testing::TestBackend;

TimeNs At(const char* iso) { return ParseIso(iso).value(); }

int64_t One(Database* db, const std::string& sql) {
  auto q = db->Prepare(sql);
  EXPECT_TRUE(q.ok()) << q.status().message();
  auto row = q->Step();
  EXPECT_TRUE(row.ok() && *row) << sql;
  return q->ColumnInt(0);
}

// A version-9 store with one series: two blocks in October and one in November 2026.
void WriteVersion9Store(PgDatabase* db) {
  ASSERT_TRUE(MigratePgSchema(db, true, 9).ok());
  ASSERT_TRUE(db->Exec("INSERT INTO source_file(id, fingerprint, path, format, encoding, kinds, machines, time_zone, "
                       "bias_minutes, consumed_lines, consumed_line_hash, rows, issues, ingested_at) VALUES(1, 'f', "
                       "'g.csv', 'perfmon-csv', 'utf-8', 'guest', 'VM1', 'UTC', 0, 7, '', 6, 0, 'now')")
                  .ok());
  ASSERT_TRUE(db->Exec("INSERT INTO series(id, source, machine, object, instance, counter, unit, original) "
                       "VALUES(1, 'guest', 'VM1', 'Processor', '_Total', '% Processor Time', 'percent', "
                       "'\\\\VM1\\Processor(_Total)\\% Processor Time')")
                  .ok());
  const TimeNs starts[3] = {At("2026-10-02T10:00:00Z"), At("2026-10-31T23:55:00Z"), At("2026-11-03T10:00:00Z")};
  for (int b = 0; b < 3; ++b) {
    const TimeNs t[2] = {starts[b], starts[b] + 300 * kNsPerSec};
    const TimeNs e[2] = {t[0] + 300 * kNsPerSec, t[1] + 300 * kNsPerSec};
    const double v[2] = {10.5 + b, 20.25 + b};
    auto tb = db->Prepare(
        "INSERT INTO time_block(id, file_id, n, first_start_ns, last_end_ns, starts, ends) "
        "VALUES(?, 1, 2, ?, ?, ?, ?)");
    ASSERT_TRUE(tb.ok());
    tb->Bind(1, int64_t{b + 1}).Bind(2, t[0]).Bind(3, e[1]).BindBlob(4, t, sizeof t).BindBlob(5, e, sizeof e);
    ASSERT_TRUE(tb->Run().ok());
    auto vb = db->Prepare("INSERT INTO value_block(series_id, block_id, present, vals) VALUES(1, ?, 2, ?)");
    ASSERT_TRUE(vb.ok());
    ASSERT_TRUE(vb->Bind(1, int64_t{b + 1}).BindBlob(2, v, sizeof v).Run().ok());
  }
}

TEST(PgPartitionMigrationTest, Version9ValueBlocksMoveIntoMonthlyPartitions) {
  VRECON_NEED_BACKEND(TestBackend::kPostgres);
  TempDir dir;
  const std::string uri = NewStore(TestBackend::kPostgres, dir.path(), "partition_migration");
  {
    auto db = PgDatabase::Connect(uri);
    ASSERT_TRUE(db.ok()) << db.status().message();
    WriteVersion9Store(db->get());
    if (HasFatalFailure()) return;
  }
  CliResult r = RunVrecon({"samples", "--db", uri, "--format", "csv"});  // opening migrates
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The block from 23:55 on October 31 ends in November: it goes by its last sample's end.
  for (const char* row : {"2026-10-02T10:00:00.000Z,2026-10-02T10:05:00.000Z,10.5,",
                          "2026-10-02T10:05:00.000Z,2026-10-02T10:10:00.000Z,20.25,",
                          "2026-10-31T23:55:00.000Z,2026-11-01T00:00:00.000Z,11.5,",
                          "2026-11-03T10:05:00.000Z,2026-11-03T10:10:00.000Z,22.25,"})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << " in\n" << r.out;
  auto db = PgDatabase::Connect(uri);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(One(db->get(), "SELECT max(version) FROM vrecon_schema"), kSchemaVersion);
  EXPECT_EQ(One(db->get(), "SELECT count(*) FROM value_block_202610"), 1);
  EXPECT_EQ(One(db->get(), "SELECT count(*) FROM value_block_202611"), 2);
  EXPECT_EQ(One(db->get(), "SELECT count(*) FROM pg_class WHERE relname = 'value_block_v9'"), 0);
}

// A table of a month's partition name that is not attached (a connection lost between making a
// partition and attaching it, before both went into one transaction) is attached, not taken for
// the partition: every insert into its month would fail.
TEST(PgPartitionMigrationTest, AnUnattachedTableOfTheMonthsNameIsAttached) {
  VRECON_NEED_BACKEND(TestBackend::kPostgres);
  TempDir dir;
  const std::string uri = NewStore(TestBackend::kPostgres, dir.path(), "partition_unattached");
  {
    auto db = PgDatabase::Connect(uri);
    ASSERT_TRUE(db.ok()) << db.status().message();
    ASSERT_TRUE(MigratePgSchema(db->get(), true).ok());
    ASSERT_TRUE((*db)->Exec("CREATE TABLE value_block_202611 (LIKE value_block INCLUDING DEFAULTS)").ok());
  }
  const std::string csv = testing::PdhHeader({"\\\\VM1\\Processor(_Total)\\% Processor Time"}) +
                          testing::PdhRow(0, {"10"}) + testing::PdhRow(15, {"20"});
  testing::WriteText(dir.File("g.csv"), csv);
  CliResult r = RunVrecon({"ingest", "--db", uri, dir.File("g.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto db = PgDatabase::Connect(uri);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(One(db->get(), "SELECT count(*) FROM pg_inherits WHERE inhrelid = 'value_block_202611'::regclass"), 1);
  EXPECT_EQ(One(db->get(), "SELECT count(*) FROM value_block"), 1);
}

}  // namespace
}  // namespace vrecon
