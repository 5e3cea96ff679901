// `vrecon ingest` of inputs it does not read (fixtures/unread/, issue 38 part 2): one stderr line
// that names the file and what it is, exit 1, no table and no store.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "tests/support/cli_runner.h"
#include "tests/support/unread_fixtures.h"

namespace vrecon::testing {
namespace {

TEST(UnreadInputsTest, EachIsRefusedWithOneLineSayingWhatItIs) {
  const std::vector<UnreadFixture> unread = UnreadFixtures();
  for (const UnreadFixture& u : unread) {
    SCOPED_TRACE(u.path);
    TempDir dir;
    const CliResult r = RunVrecon({"ingest", "--db", dir.File("s.db"), u.path});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "") << "nothing was read: no table";
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("vrecon: error: " + u.path, 0), 0u) << r.err;
    EXPECT_NE(r.err.find(u.expected), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.File("s.db")));
  }
  EXPECT_EQ(unread.size(), 5u);
}

// Beside a file it reads, the refused one is named and the other stored: the table lists only it.
TEST(UnreadInputsTest, ARefusedFileBesideAGoodOneDoesNotStopIt) {
  TempDir dir;
  const CliResult r = RunVrecon(
      {"ingest", "--db", dir.File("s.db"), Fixture("unread/proc-stat.txt"), Fixture("seed003/guest-web01.csv")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("proc-stat.txt is a /proc/stat snapshot"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("guest-web01.csv"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("proc-stat.txt"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace vrecon::testing
