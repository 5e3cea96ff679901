// The PostgreSQL backend as a user meets it: when the server, the password, the database or the
// schema is wrong, one clear line and exit 1 (2 for a usage error); and its connection's
// pipelined writes. Its pure parts are unit-tested in tests/store/postgres/ and
// tests/store/store_location_test.cc. The tables' behaviour is tested on both backends by the parameterised
// store, engine, fleet and report tests.
#include <gtest/gtest.h>

#include <cstdlib>

#include "src/store/array_literal.h"
#include "src/store/block_writer.h"
#include "src/store/postgres/pg_database.h"
#include "src/store/store.h"
#include "src/store/store_location.h"
#include "src/store/write_ahead.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon {
namespace {

using testing::CliResult;
using testing::Fixture;
using testing::NewStore;
using testing::RunVrecon;
using testing::RunVreconWithEnv;
using testing::TempDir;
using testing::TestBackend;

TEST(PostgresUriTest, CliRefusesAPasswordInDbAsAUsageError) {
  TempDir dir;
  CliResult r =
      RunVrecon({"ingest", "--db", "postgresql://u:s3cret-pw@127.0.0.1:1/x", Fixture("seed003/guest-web01.csv")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("PGPASSWORD"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("s3cret-pw"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("vrecon: error: --db: the PostgreSQL URI carries a password", 0), 0u) << r.err;
}

TEST(PostgresErrorsTest, UnreachableServerIsOneLine) {
  CliResult r = RunVrecon({"correct", "--db", "postgresql://127.0.0.1:1/vrecon?connect_timeout=2"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("cannot connect to postgresql://127.0.0.1:1/vrecon"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

class PostgresServerTest : public ::testing::Test {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(TestBackend::kPostgres); }
};

TEST_F(PostgresServerTest, MissingDatabaseAndWrongPasswordAreOneLine) {
  CliResult r = RunVrecon({"status", "--db", "postgresql:///no_such_database"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("no_such_database"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  // Over TCP the cluster asks for the password (pg_virtualenv's pg_hba.conf); a wrong one is said.
  const char* port = std::getenv("PGPORT");
  const char* user = std::getenv("PGUSER");
  const std::string uri =
      std::string("postgresql://") + (user ? user : "postgres") + "@127.0.0.1:" + (port ? port : "5432") + "/postgres";
  r = RunVreconWithEnv({"PGPASSWORD=wrong-password"}, {"status", "--db", uri});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("password authentication failed"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("wrong-password"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(PostgresServerTest, ReadingCommandsDoNotCreateAStore) {
  TempDir dir;
  const std::string db = NewStore(TestBackend::kPostgres, dir.path(), "vrecon_empty");
  CliResult r = RunVrecon({"correct", "--db", db});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("does not exist: run `vrecon ingest --db"), std::string::npos) << r.err;
  r = RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = RunVrecon({"samples", "--db", db, "--counter", "% Processor Time", "--instance", "_Total"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(PostgresServerTest, NewerSchemaAndForeignTablesAreRefused) {
  TempDir dir;
  const std::string db = NewStore(TestBackend::kPostgres, dir.path(), "vrecon_schemas");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv")}).exit_code, 0);
  {
    auto conn = PgDatabase::Connect(db);
    ASSERT_TRUE(conn.ok()) << conn.status().message();
    ASSERT_TRUE((*conn)->Exec("INSERT INTO vrecon_schema(version) VALUES(99)").ok());
  }
  CliResult r = RunVrecon({"correct", "--db", db});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("schema version 99, newer than this vrecon understands"), std::string::npos) << r.err;

  const std::string other = NewStore(TestBackend::kPostgres, dir.path(), "vrecon_foreign");
  {
    auto conn = PgDatabase::Connect(other);
    ASSERT_TRUE(conn.ok()) << conn.status().message();
    ASSERT_TRUE((*conn)->Exec("CREATE TABLE invoices(id int)").ok());
  }
  r = RunVrecon({"ingest", "--db", other, Fixture("seed003/guest-web01.csv")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("holds tables of another program (invoices)"), std::string::npos) << r.err;
}

// A new store's first round fills `series` and `source_file` from empty, batch after batch on one
// connection. PostgreSQL plans a cached statement for good at its sixth call, while those tables
// hold a few rows, and the scan it picks there stayed while they grew (docs/history/performance.md, step
// 12): once the connection has added rows, their lookups are planned at each call, never from
// a kept plan. The lookups still find every row, the other writers' too.
TEST_F(PostgresServerTest, LookupsOfTablesTheConnectionFillsAreNotRunFromAKeptPlan) {
  TempDir dir;
  const std::string uri = NewStore(TestBackend::kPostgres, dir.path(), "vrecon_lookup_plans");
  auto store = Store::Open(uri);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto other = Store::Open(uri);
  ASSERT_TRUE(other.ok()) << other.status().message();
  const auto keys_of = [](int batch) {
    std::vector<SeriesKey> keys;
    for (int vm = 0; vm < 3; ++vm) {
      for (const char* counter : {"cpu.usage.average", "cpu.ready.summation"}) {
        const std::string name = "vm-" + std::to_string(batch) + "-" + std::to_string(vm);
        keys.push_back(SeriesKey{SourceKind::kVsphere, name, "cpu", "", counter, "percent", "", "vc/" + name});
      }
    }
    return keys;
  };
  const auto add_batch = [&](Store* s, int batch) {
    auto tx = s->BeginTransaction();
    ASSERT_TRUE(tx.ok()) << tx.status().message();
    WriteAhead ahead(s);
    const std::vector<SeriesKey> keys = keys_of(batch);
    ASSERT_TRUE(ahead.LoadSeries(keys).ok());
    ASSERT_TRUE(ahead.AddMissing(keys).ok());
    auto ids = ahead.Known(keys);
    ASSERT_TRUE(ids.has_value());
    EXPECT_EQ(ids->size(), keys.size()) << "batch " << batch;
    const std::string fingerprint = "vsphere:vc:" + std::to_string(batch);
    auto found = s->FindFiles({fingerprint});
    ASSERT_TRUE(found.ok()) << found.status().message();
    EXPECT_TRUE(found->empty());
    FileRecord file;
    file.fingerprint = fingerprint;
    file.path = "vc";
    ASSERT_TRUE(s->AddFiles({&file}).ok());
    ASSERT_TRUE(tx->Commit().ok());
  };
  for (int batch = 0; batch < 12; ++batch) add_batch(store->get(), batch);
  add_batch(other->get(), 12);

  // The lookups again, on the connection that added rows: another writer's rows too.
  WriteAhead ahead(store->get());
  std::vector<SeriesKey> all;
  for (int batch = 0; batch <= 12; ++batch) {
    const std::vector<SeriesKey> keys = keys_of(batch);
    all.insert(all.end(), keys.begin(), keys.end());
  }
  ASSERT_TRUE(ahead.LoadSeries(all).ok());
  ASSERT_EQ(ahead.Known(all)->size(), all.size());
  auto files = (*store)->FindFiles({"vsphere:vc:0", "vsphere:vc:12"});
  ASSERT_TRUE(files.ok()) << files.status().message();
  EXPECT_EQ(files->size(), 2U);

  auto plans = (*store)->db()->Prepare(
      "SELECT count(*), coalesce(sum(generic_plans), 0) FROM pg_prepared_statements "
      "WHERE statement LIKE '%FROM series WHERE source =%' OR statement LIKE '%FROM source_file WHERE fingerprint%'");
  ASSERT_TRUE(plans.ok()) << plans.status().message();
  ASSERT_TRUE(*plans->Step());
  EXPECT_EQ(plans->ColumnInt(1), 0) << plans->ColumnInt(0) << " lookups kept a plan made for a nearly empty table";
}

// A batch adds the series it did not find; the INSERT gives the new rows' ids back. A series
// another writer added between the lookup and the INSERT gives none (ON CONFLICT DO NOTHING): it
// is looked up again and has the other writer's id, not a second row.
TEST_F(PostgresServerTest, ASeriesAnotherWriterAddedMeanwhileIsFoundNotAddedTwice) {
  TempDir dir;
  const std::string uri = NewStore(TestBackend::kPostgres, dir.path(), "vrecon_series_race");
  auto late = Store::Open(uri);
  ASSERT_TRUE(late.ok()) << late.status().message();
  auto early = Store::Open(uri);
  ASSERT_TRUE(early.ok()) << early.status().message();
  const auto key = [](const char* counter) {
    return SeriesKey{SourceKind::kVsphere, "web01", "cpu", "", counter, "percent", "", "vc/vm-1"};
  };
  const std::vector<SeriesKey> both = {key("cpu.usage.average"), key("cpu.ready.summation")};

  auto tx = (*late)->BeginTransaction();
  ASSERT_TRUE(tx.ok()) << tx.status().message();
  WriteAhead ahead(late->get());
  ASSERT_TRUE(ahead.LoadSeries(both).ok());
  ASSERT_TRUE(ahead.Known(both)->empty());
  std::map<std::string, int64_t> first;
  {  // Another writer adds one of the two and commits meanwhile.
    auto other_tx = (*early)->BeginTransaction();
    ASSERT_TRUE(other_tx.ok()) << other_tx.status().message();
    WriteAhead other(early->get());
    const std::vector<SeriesKey> one = {both[1]};
    ASSERT_TRUE(other.LoadSeries(one).ok());
    ASSERT_TRUE(other.AddMissing(one).ok());
    first = *other.Known(one);
    ASSERT_EQ(first.size(), 1U);
    ASSERT_TRUE(other_tx->Commit().ok());
  }
  ASSERT_TRUE(ahead.AddMissing(both).ok());
  auto ids = ahead.Known(both);
  ASSERT_TRUE(ids.has_value());
  ASSERT_EQ(ids->size(), 2U);
  EXPECT_EQ(ids->at(first.begin()->first), first.begin()->second);
  EXPECT_NE((*ids)[BlockWriter::SeriesName(both[0])], first.begin()->second);
  ASSERT_TRUE(tx->Commit().ok());

  auto count = (*late)->db()->Prepare("SELECT count(*) FROM series");
  ASSERT_TRUE(count.ok());
  ASSERT_TRUE(*count->Step());
  EXPECT_EQ(count->ColumnInt(0), 2);
}

// Writes inside a transaction are pipelined (pg_database.h): many more than one pipeline holds
// all arrive, a read in between sees those before it, and a write that fails fails the
// transaction at its next read or COMMIT, leaving nothing of it.
class PostgresPipelineTest : public PostgresServerTest {
 protected:
  std::unique_ptr<PgDatabase> Open(const char* name) {
    const std::string uri = NewStore(TestBackend::kPostgres, dir_.path(), name);
    auto conn = PgDatabase::Connect(uri);
    EXPECT_TRUE(conn.ok()) << conn.status().message();
    if (!conn.ok()) return nullptr;
    std::unique_ptr<PgDatabase> db = std::move(*conn);
    EXPECT_TRUE(db->Exec("DROP TABLE IF EXISTS t; CREATE TABLE t(k bigint PRIMARY KEY, v text NOT NULL)").ok());
    return db;
  }
  static int64_t Count(Database* db) {
    auto q = db->Prepare("SELECT count(*) FROM t");
    EXPECT_TRUE(q.ok());
    auto row = q->Step();
    EXPECT_TRUE(row.ok() && *row) << (row.ok() ? "" : row.status().message());
    return row.ok() && *row ? q->ColumnInt(0) : -1;
  }
  TempDir dir_;
};

TEST_F(PostgresPipelineTest, ManyWritesArriveAndAReadSeesThoseBeforeIt) {
  auto db = Open("vrecon_pipeline_many");
  ASSERT_NE(db, nullptr);
  auto tx = Transaction::Begin(db.get());
  ASSERT_TRUE(tx.ok()) << tx.status().message();
  const int n = PgDatabase::kMaxPipelined * 3 + 7;
  for (int k = 0; k < n; ++k) {
    auto ins = db->Cached("INSERT INTO t(k, v) VALUES(?, ?)");
    ASSERT_TRUE(ins.ok());
    ASSERT_TRUE((*ins)->Bind(1, int64_t{k}).Bind(2, "row " + std::to_string(k)).Run().ok());
    if (k == 100) {
      EXPECT_EQ(Count(db.get()), 101);  // a read drains what was sent before it
    }
  }
  ASSERT_TRUE(tx->Commit().ok());
  EXPECT_EQ(Count(db.get()), n);
}

TEST_F(PostgresPipelineTest, AFailedWriteFailsTheTransactionAndLeavesNothing) {
  auto db = Open("vrecon_pipeline_fail");
  ASSERT_NE(db, nullptr);
  {
    auto tx = Transaction::Begin(db.get());
    ASSERT_TRUE(tx.ok());
    for (int k : {1, 2, 2, 3}) {  // the second 2 breaks the primary key
      auto ins = db->Cached("INSERT INTO t(k, v) VALUES(?, ?)");
      ASSERT_TRUE(ins.ok());
      EXPECT_TRUE((*ins)->Bind(1, int64_t{k}).Bind(2, "x").Run().ok()) << "queued, not yet answered";
    }
    Status commit = tx->Commit();
    ASSERT_FALSE(commit.ok());
    EXPECT_NE(commit.message().find("duplicate key value violates unique constraint"), std::string::npos)
        << commit.message();
    EXPECT_EQ(db->last_sqlstate(), "23505");
  }  // rolled back here
  EXPECT_EQ(Count(db.get()), 0);
  // The connection is usable again: the next transaction commits.
  auto tx = Transaction::Begin(db.get());
  ASSERT_TRUE(tx.ok()) << tx.status().message();
  auto ins = db->Cached("INSERT INTO t(k, v) VALUES(?, ?)");
  ASSERT_TRUE(ins.ok());
  ASSERT_TRUE((*ins)->Bind(1, int64_t{1}).Bind(2, "y").Run().ok());
  ASSERT_TRUE(tx->Commit().ok());
  EXPECT_EQ(Count(db.get()), 1);
}

TEST_F(PostgresPipelineTest, AFailedWriteIsReportedByTheNextRead) {
  auto db = Open("vrecon_pipeline_read");
  ASSERT_NE(db, nullptr);
  auto tx = Transaction::Begin(db.get());
  ASSERT_TRUE(tx.ok());
  auto ins = db->Cached("INSERT INTO t(k, v) VALUES(?, ?)");
  ASSERT_TRUE(ins.ok());
  ASSERT_TRUE((*ins)->Bind(1, int64_t{1}).BindNull(2).Run().ok());  // v is NOT NULL
  auto q = db->Prepare("SELECT count(*) FROM t");
  ASSERT_TRUE(q.ok());
  auto row = q->Step();
  ASSERT_FALSE(row.ok());
  EXPECT_NE(row.status().message().find("null value in column \"v\""), std::string::npos) << row.status().message();
}

// Lists bound as one array literal (src/store/array_literal.h) reach the server element for
// element, whatever their text holds: quotes, backslashes, commas, braces, spaces, NULL-like words.
TEST_F(PostgresPipelineTest, ArrayLiteralsCarryAnyTextAndNumber) {
  auto db = Open("vrecon_array_literals");
  ASSERT_NE(db, nullptr);
  const std::vector<std::string> texts = {
      "plain", "with \"quotes\"", "back\\slash\\", "a,b", "{braces}", " spaced ", "NULL", "", "Ünïcode"};
  auto q = db->Prepare("SELECT x FROM unnest(?::text[]) WITH ORDINALITY AS u(x, i) ORDER BY i");
  ASSERT_TRUE(q.ok());
  q->Bind(1, TextArrayLiteral(texts));
  std::vector<std::string> back;
  while (true) {
    auto row = q->Step();
    ASSERT_TRUE(row.ok()) << row.status().message();
    if (!*row) break;
    EXPECT_FALSE(q->ColumnIsNull(0));
    back.push_back(q->ColumnText(0));
  }
  EXPECT_EQ(back, texts);
  const std::vector<int64_t> ids = {-9223372036854775807LL - 1, -1, 0, 42, 9223372036854775807LL};
  auto n = db->Prepare("SELECT x FROM unnest(?::bigint[]) WITH ORDINALITY AS u(x, i) ORDER BY i");
  ASSERT_TRUE(n.ok());
  n->Bind(1, ArrayLiteral(ids));
  std::vector<int64_t> nums;
  while (true) {
    auto row = n->Step();
    ASSERT_TRUE(row.ok()) << row.status().message();
    if (!*row) break;
    nums.push_back(n->ColumnInt(0));
  }
  EXPECT_EQ(nums, ids);
}

}  // namespace
}  // namespace vrecon
