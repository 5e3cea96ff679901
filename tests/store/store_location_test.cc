// What a --db value names (src/store/store_location.h). The CLI's answer to a password in --db
// is tested through the binary in tests/store/postgres_store_test.cc.
#include "src/store/store_location.h"

#include <gtest/gtest.h>

#include "tests/support/cli_runner.h"

namespace vrecon {
namespace {

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

TEST(StoreLocationTest, ANewStoreFileIsAPathWithNothingAtIt) {
  testing::TempDir dir;
  EXPECT_TRUE(IsNewStoreFile(dir.File("new.db")));
  testing::WriteText(dir.File("old.db"), "");
  EXPECT_FALSE(IsNewStoreFile(dir.File("old.db")));
  EXPECT_FALSE(IsNewStoreFile("postgresql://db01/vrecon"));
}

}  // namespace
}  // namespace vrecon
