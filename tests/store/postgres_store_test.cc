// The PostgreSQL backend's own parts: parameter numbering, the URI check, and what a user meets
// when the server, the password, the database or the schema is wrong: one clear line, exit 1
// (2 for a usage error). The tables' behaviour is tested on both backends by the parameterised
// store, engine, fleet and report tests.
#include <gtest/gtest.h>

#include <cstdlib>

#include "src/store/postgres/pg_database.h"
#include "src/store/store_location.h"
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

TEST(PostgresParametersTest, NumbersQuestionMarksOutsideQuotes) {
  int n = 0;
  EXPECT_EQ(DollarParameters("SELECT a FROM t WHERE b = ? AND c = ?", &n), "SELECT a FROM t WHERE b = $1 AND c = $2");
  EXPECT_EQ(n, 2);
  EXPECT_EQ(DollarParameters("VALUES(?1, ?2, ?1)", &n), "VALUES($1, $2, $1)");
  EXPECT_EQ(n, 2);
  // SQLite's rule: a bare ? takes one past the highest number so far.
  EXPECT_EQ(DollarParameters("?3, ?", &n), "$3, $4");
  EXPECT_EQ(n, 4);
  EXPECT_EQ(DollarParameters("SELECT '?', \"a?\" -- what?\n, ?", &n), "SELECT '?', \"a?\" -- what?\n, $1");
  EXPECT_EQ(n, 1);
  EXPECT_EQ(DollarParameters("SELECT 'it''s ?', ?", &n), "SELECT 'it''s ?', $1");
  EXPECT_EQ(n, 1);
}

// A server older than vrecon supports cannot be started here; the check behind it can be run.
TEST(PostgresVersionTest, AnOlderServerIsNamedWithTheVersionNeeded) {
  EXPECT_TRUE(CheckServerVersion("postgresql:///v", 150004).ok());
  EXPECT_TRUE(CheckServerVersion("postgresql:///v", 130000).ok());
  Status old = CheckServerVersion("postgresql://db01/v", 120017);
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.message(), "postgresql://db01/v is PostgreSQL 12.17: vrecon needs PostgreSQL 13 or newer");
}

TEST(PostgresUriTest, RecognisesBothSchemes) {
  EXPECT_TRUE(IsPostgresUri("postgresql://vrecon@db01/vrecon"));
  EXPECT_TRUE(IsPostgresUri("postgres://db01/vrecon"));
  EXPECT_FALSE(IsPostgresUri("vrecon.db"));
  EXPECT_FALSE(IsPostgresUri("./postgresql://x"));
}

TEST(PostgresUriTest, RefusesAPasswordWithoutRepeatingIt) {
  for (const std::string uri :
       {"postgresql://vrecon:s3cret-pw@db01/vrecon", "postgres://db01/vrecon?password=s3cret-pw"}) {
    Status s = CheckPostgresUri(uri);
    ASSERT_FALSE(s.ok()) << uri;
    EXPECT_NE(s.message().find("PGPASSWORD"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("~/.pgpass"), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find("s3cret-pw"), std::string::npos) << s.message();
  }
  EXPECT_TRUE(CheckPostgresUri("postgresql://vrecon@db01:5432/vrecon?sslmode=verify-full").ok());
}

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

}  // namespace
}  // namespace vrecon
