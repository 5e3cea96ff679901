// Tests that run against both store backends (parameterised, not copied): a SQLite file in the
// test's directory, or a schema of its own in the PostgreSQL that the test command starts with
// pg_virtualenv (PGHOST, PGPORT, PGUSER, PGPASSWORD in the environment). Without one, the
// PostgreSQL cases skip; with VRECON_TEST_PG=require (what scripts/test.sh sets) they fail.
#ifndef VRECON_TESTS_SUPPORT_TEST_STORE_H_
#define VRECON_TESTS_SUPPORT_TEST_STORE_H_

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace vrecon {
class Database;
}  // namespace vrecon

namespace vrecon::testing {

enum class TestBackend { kSqlite, kPostgres };

// For INSTANTIATE_TEST_SUITE_P(..., ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
// BackendParamName).
std::string BackendParamName(const ::testing::TestParamInfo<TestBackend>& info);

// Why PostgreSQL cannot be used by this test process, when it cannot.
std::optional<std::string> PostgresUnavailable();
bool PostgresRequired();

// A new, empty store: "<dir>/<name>" for SQLite; for PostgreSQL the database named `name`
// (created when missing) with a search_path of a schema no other test uses, as a URI. Either
// way the store's label (what reports print) is `name`.
std::string NewStore(TestBackend backend, const std::string& dir, const std::string& name = "store.db");

// The PostgreSQL store at `uri` (NewStore) as a vrecon of schema `version` left it, holding the
// rows `rows_sql` inserts: for the tests of a migration. Fails the test (ASSERT) on an error.
void WriteOldPgStore(const std::string& uri, int version, const std::string& rows_sql);

// The first column of the first row `sql` gives, as text, from either backend; "" and a test
// failure when the query fails or gives no row.
std::string QueryText(Database* db, const std::string& sql);

}  // namespace vrecon::testing

// Skips (or fails, when PostgreSQL is required) a PostgreSQL case that has no server.
#define VRECON_NEED_BACKEND(backend)                                                        \
  do {                                                                                      \
    if ((backend) == ::vrecon::testing::TestBackend::kPostgres) {                           \
      if (auto why = ::vrecon::testing::PostgresUnavailable()) {                            \
        if (::vrecon::testing::PostgresRequired()) FAIL() << "PostgreSQL needed: " << *why; \
        GTEST_SKIP() << "no PostgreSQL: " << *why;                                          \
      }                                                                                     \
    }                                                                                       \
  } while (0)

#endif  // VRECON_TESTS_SUPPORT_TEST_STORE_H_
