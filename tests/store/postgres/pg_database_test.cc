// The PostgreSQL connection's pure parts (src/store/postgres/pg_database.h): SQLite-style
// parameters numbered for libpq, and the server version check.
#include "src/store/postgres/pg_database.h"

#include <gtest/gtest.h>

namespace vrecon {
namespace {

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

}  // namespace
}  // namespace vrecon
