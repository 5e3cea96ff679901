#include "tests/support/test_store.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include "src/store/database.h"
#include "src/store/postgres/pg_database.h"
#include "src/store/postgres/pg_schema.h"

namespace vrecon::testing {
namespace {

std::string AdminUri() {
  const char* db = std::getenv("PGDATABASE");
  return std::string("postgresql:///") + (db && *db ? db : "postgres");
}

// Percent-encodes a URI query value.
std::string Encode(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '_' || c == '-' || c == '.') {
      out += static_cast<char>(c);
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace

std::string BackendParamName(const ::testing::TestParamInfo<TestBackend>& info) {
  return info.param == TestBackend::kSqlite ? "Sqlite" : "Postgres";
}

bool PostgresRequired() {
  const char* r = std::getenv("VRECON_TEST_PG");
  return r && std::string(r) == "require";
}

std::optional<std::string> PostgresUnavailable() {
  static const std::optional<std::string> why = []() -> std::optional<std::string> {
    if (!std::getenv("PGHOST") && !std::getenv("PGPORT"))
      return "PGHOST and PGPORT are not set (the test command runs the tests under pg_virtualenv)";
    auto db = PgDatabase::Connect(AdminUri());
    if (!db.ok()) return db.status().message();
    return std::nullopt;
  }();
  return why;
}

std::string NewStore(TestBackend backend, const std::string& dir, const std::string& name) {
  if (backend == TestBackend::kSqlite) return dir + "/" + name;
  static std::atomic<int> counter{0};
  const std::string schema = "t" + std::to_string(getpid()) + "_" + std::to_string(++counter);
  auto admin = PgDatabase::Connect(AdminUri());
  EXPECT_TRUE(admin.ok()) << admin.status().message();
  if (!admin.ok()) return "postgresql:///unreachable";
  // Names are the test's own constants and numbers: no value of a user reaches this SQL. Another
  // test process may create the database at the same moment (duplicate_database, 42P04, or a
  // unique violation in the catalog, 23505).
  Status created = (*admin)->Exec("CREATE DATABASE \"" + name + "\"");
  if (!created.ok()) {
    const std::string& state = (*admin)->last_sqlstate();
    EXPECT_TRUE(state == "42P04" || state == "23505") << created.message();
  }
  auto db = PgDatabase::Connect("postgresql:///" + Encode(name));
  EXPECT_TRUE(db.ok()) << db.status().message();
  if (db.ok()) {
    Status s = (*db)->Exec("CREATE SCHEMA " + schema);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  return "postgresql:///" + Encode(name) + "?options=" + Encode("-csearch_path=" + schema);
}

void WriteOldPgStore(const std::string& uri, int version, const std::string& rows_sql) {
  auto db = PgDatabase::Connect(uri);
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE(MigratePgSchema(db->get(), true, version).ok());
  Status inserted = (*db)->Exec(rows_sql);
  ASSERT_TRUE(inserted.ok()) << inserted.message();
}

std::string QueryText(Database* db, const std::string& sql) {
  auto q = db->Prepare(sql);
  EXPECT_TRUE(q.ok()) << sql << ": " << q.status().message();
  if (!q.ok()) return "";
  auto row = q->Step();
  EXPECT_TRUE(row.ok() && *row) << sql;
  return row.ok() && *row ? q->ColumnText(0) : "";
}

}  // namespace vrecon::testing
