// Golden tests for the PowerCLI `Get-Stat | Export-Csv` reader, through the real CLI as a user
// runs it: fixtures/powercli/<case> -> `vrecon ingest` -> `vrecon samples --format csv`, compared
// byte for byte with <case>.expected.csv (values checked by hand, see fixtures/powercli/README.md),
// and the import issues with <case>.expected_issues. Also: re-ingest adds nothing, a grown file
// adds only its new rows, and a file with no readable row fails with one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

std::string PowerCliFixture(const std::string& name) { return Fixture("powercli/" + name); }

struct PowerCliCase {
  const char* name;   // <name>.expected.csv, .expected_issues, .args
  const char* input;  // the fixture read
};
void PrintTo(const PowerCliCase& c, std::ostream* os) { *os << c.name; }

const PowerCliCase kPowerCliCases[] = {
    {"enus-type", "enus-type.csv"},
    {"dede-notype-tz-bias", "dede-notype.csv"},
    {"iso-semicolon", "iso-semicolon.csv"},
    {"utf16le-24h", "utf16le-24h.csv"},
};

class PowerCliGoldenTest : public ::testing::TestWithParam<PowerCliCase> {};

TEST_P(PowerCliGoldenTest, IngestThenSamplesMatchesExpected) {
  const PowerCliCase& c = GetParam();
  TempDir dir;
  const std::string db = dir.File("x.db");
  const GoldenIngest g = ExpectGoldenIngest("powercli", c.name, c.input, db);
  ASSERT_EQ(g.ingest.exit_code, 0);
  EXPECT_NE(g.ingest.out.find("\"kinds\": [\"vsphere\"]"), std::string::npos) << g.ingest.out;

  // The same file again adds nothing: no rows, no issues, the same samples.
  const std::string expected = SamplesCsv(db);
  CliResult again = Ingest(db, PowerCliFixture(c.input), g.args);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(JsonInt(again.out, "rows"), 0) << again.out;
  EXPECT_GT(JsonInt(again.out, "rows_already_stored"), 0) << again.out;
  EXPECT_EQ(JsonInt(again.out, "issues"), 0) << again.out;
  EXPECT_EQ(SamplesCsv(db), expected) << "a second ingest changed the store";
}

INSTANTIATE_TEST_SUITE_P(PowerCli, PowerCliGoldenTest, ::testing::ValuesIn(kPowerCliCases),
                         [](const ::testing::TestParamInfo<PowerCliCase>& info) {
                           std::string n = info.param.name;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(PowerCliGoldenTest, TableShowsVsphereMachinesCountersRowsSpanAndIssues) {
  TempDir dir;
  CliResult in = Ingest(dir.File("x.db"), PowerCliFixture("enus-type.csv"), {}, "table");
  ASSERT_EQ(in.exit_code, 0) << in.err;
  const std::vector<std::string> lines = Lines(in.out);
  ASSERT_GE(lines.size(), 3u) << in.out;
  for (const char* want : {"vsphere", "APP02,WEB01", " 6 ", " 12 ", "2026-05-05T00:00:20Z", "2026-05-05T18:41:20Z"})
    EXPECT_NE(lines[1].find(want), std::string::npos) << want << " missing from:\n" << in.out;
  EXPECT_NE(in.out.find("enus-type.csv:3: warning no-bias"), std::string::npos) << in.out;
}

TEST(PowerCliGoldenTest, GrownFileAddsOnlyItsNewRows) {
  // An export cut after line 9 (mid-way through WEB01's cpu.ready group), ingested, then the
  // whole export ingested from the same path: the store must equal one ingest of the whole file.
  const std::string whole = ReadText(PowerCliFixture("enus-type.csv"));
  size_t cut = 0;
  for (int i = 0; i < 9; ++i) cut = whole.find('\n', cut) + 1;
  TempDir dir;
  const std::string db = dir.File("x.db"), file = dir.File("export.csv");
  WriteText(file, whole.substr(0, cut));
  CliResult first = Ingest(db, file);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(JsonInt(first.out, "rows"), 7) << first.out;
  WriteText(file, whole);
  CliResult second = Ingest(db, file);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(JsonInt(second.out, "rows"), 5) << second.out;
  EXPECT_EQ(JsonInt(second.out, "rows_already_stored"), 7) << second.out;
  EXPECT_EQ(JsonInt(second.out, "issues"), 0) << "the no-bias warning was recorded by the first ingest:\n"
                                              << second.out;
  EXPECT_EQ(SamplesCsv(db), ReadText(PowerCliFixture("enus-type.expected.csv")));  // the golden of the whole file
}

TEST(PowerCliGoldenTest, NoReadableRowFailsWithOneLineAndLeavesNoStore) {
  std::string want = ReadText(PowerCliFixture("all-bad.expected_error"));
  while (!want.empty() && (want.back() == '\n' || want.back() == '\r')) want.pop_back();
  ASSERT_FALSE(want.empty());
  TempDir dir;
  const std::string db = dir.File("x.db");
  CliResult in = Ingest(db, PowerCliFixture("all-bad.csv"));
  EXPECT_EQ(in.exit_code, 1) << in.out << in.err;
  EXPECT_EQ(std::count(in.err.begin(), in.err.end(), '\n'), 1) << in.err;
  EXPECT_NE(in.err.find(want), std::string::npos) << in.err;
  EXPECT_NE(in.err.find("all-bad.csv"), std::string::npos) << in.err;
  EXPECT_NE(in.err.find("line 2"), std::string::npos) << "the first problem is named:\n" << in.err;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) EXPECT_FALSE(Exists(db + suffix)) << suffix;
}

}  // namespace
}  // namespace vrecon::testing
