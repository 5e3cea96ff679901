// The option values every command shares (src/cli/commands.cc), in-process: each refusal is a
// usage error whose one sentence names the option and what it should be.
#include "src/cli/commands.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/cli_runner.h"

namespace vrecon::cli {
namespace {

TEST(CommandsTest, FormatsAndTheirDefault) {
  EXPECT_EQ(ToFormat("csv"), OutputFormat::kCsv);
  EXPECT_EQ(ToFormat("json"), OutputFormat::kJson);
  EXPECT_EQ(ToFormat("table"), OutputFormat::kTable);
}

TEST(CommandsTest, ATimeOptionIsIsoOrAUsageErrorNamingIt) {
  std::optional<TimeNs> t;
  ASSERT_TRUE(ParseTimeOption("--from", "", &t).ok());
  EXPECT_FALSE(t) << "empty: not given";
  ASSERT_TRUE(ParseTimeOption("--from", "2026-11-02T10:00:00+01:00", &t).ok());
  EXPECT_EQ(t, ParseIso("2026-11-02T09:00:00Z"));
  const Status bad = ParseTimeOption("--to", "yesterday", &t);
  EXPECT_TRUE(bad.IsInvalidArgument());
  EXPECT_EQ(bad.message(), "--to \"yesterday\" is not an ISO 8601 time (e.g. 2026-11-01T10:00:00Z)");
}

TEST(CommandsTest, ARangeEndsAfterItStarts) {
  std::optional<TimeNs> from, to;
  EXPECT_TRUE(ParseTimeRange("2026-11-02", "2026-11-03", &from, &to).ok());
  EXPECT_TRUE(ParseTimeRange("", "2026-11-03", &from, &to).ok()) << "either end may be open";
  from.reset();
  to.reset();
  const Status same = ParseTimeRange("2026-11-03", "2026-11-03", &from, &to);
  EXPECT_EQ(same.message(), "--to 2026-11-03 is not after --from 2026-11-03");
  const Status bad_from = ParseTimeRange("soon", "2026-11-03", &from, &to);
  EXPECT_NE(bad_from.message().find("--from \"soon\""), std::string::npos) << bad_from.message();
}

TEST(CommandsTest, AMappingIsGuestEqualsVm) {
  std::string g, v;
  ASSERT_TRUE(ParseMapping("web01=WEB01 (prod)", &g, &v).ok());
  EXPECT_EQ(g, "web01");
  EXPECT_EQ(v, "WEB01 (prod)");
  ASSERT_TRUE(ParseMapping("a=b=c", &g, &v).ok()) << "the VM name may hold '='";
  EXPECT_EQ(v, "b=c");
  for (const char* bad : {"web01", "=WEB01", "web01=", ""}) {
    const Status s = ParseMapping(bad, &g, &v);
    EXPECT_EQ(s.message(), "--map \"" + std::string(bad) + "\" should be GUEST=VM") << bad;
  }
}

TEST(CommandsTest, AStoreToReadMustExistAndSaysHowToMakeOne) {
  testing::TempDir dir;
  const auto missing = OpenExistingStore(dir.File("nope.db"));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsNotFound());
  EXPECT_EQ(missing.status().message(), "store " + dir.File("nope.db") + " does not exist: run `vrecon ingest --db " +
                                            dir.File("nope.db") + " FILE...` first");
  EXPECT_FALSE(std::filesystem::exists(dir.File("nope.db"))) << "looking did not create it";
  EXPECT_TRUE(OpenExistingStore(":memory:").ok());
}

}  // namespace
}  // namespace vrecon::cli
