// Golden tests for the Perfmon CSV/TSV reader, through the real CLI as a user runs it:
// fixtures/perfmon/<case> -> `vrecon ingest` -> `vrecon samples --format csv`, compared byte for
// byte with <case>.expected.csv, and the import issues with <case>.expected_issues. Inputs that
// cannot be read must fail with exit code 1, one stderr line and no store left behind.
// fixtures/perfmon/README.md says what quirk each case reproduces.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

std::string FixturePath(const std::string& name) { return Fixture("perfmon/" + name); }

// ---- files that ingest -----------------------------------------------------------------------

struct GoodCase {
  const char* name;   // <name>.expected.csv, .expected_issues, .args
  const char* input;  // the fixture read
};

const GoodCase kGoodCases[] = {
    {"crlf", "crlf.csv"},
    {"lf-only", "lf-only.csv"},
    {"cr-only", "cr-only.csv"},
    {"utf8-bom", "utf8-bom.csv"},
    {"utf16le", "utf16le.csv"},
    {"ru-cp1251", "ru-cp1251.csv"},
    {"es-cp1252", "es-cp1252.tsv"},
    {"de-cp1252", "de-cp1252.csv"},
    {"fr", "fr.csv"},
    {"exponent", "exponent.csv"},
    {"missing-values", "missing-values.csv"},
    {"above-100", "above-100.csv"},
    {"dst-fallback", "dst-fallback.csv"},
    {"no-bias", "no-bias.csv"},
    {"no-bias-tz-bias", "no-bias.csv"},
    {"cut-off-header", "cut-off-header.csv"},
    {"instances", "instances.csv"},
    {"hyperv-host", "hyperv-host.csv"},
    {"vmtools-guest", "vmtools-guest.csv"},
    {"esxtop", "esxtop.csv"},
    {"bad-rows", "bad-rows.csv"},
};

void PrintTo(const GoodCase& c, std::ostream* os) { *os << c.name; }

class PerfmonGoldenTest : public ::testing::TestWithParam<GoodCase> {};

TEST_P(PerfmonGoldenTest, IngestThenSamplesMatchesExpected) {
  TempDir dir;
  ExpectGoldenIngest("perfmon", GetParam().name, GetParam().input, dir.File("x.db"));
}

INSTANTIATE_TEST_SUITE_P(Perfmon, PerfmonGoldenTest, ::testing::ValuesIn(kGoodCases),
                         [](const ::testing::TestParamInfo<GoodCase>& info) {
                           std::string n = info.param.name;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// ---- files that cannot be read at all ---------------------------------------------------------

struct BadCase {
  const char* name;  // <name>.expected_error
  const char* input;
};

const BadCase kBadCases[] = {
    {"empty", "empty.csv"},         {"header-only", "header-only.csv"}, {"binary", "binary.blg"},
    {"binary-le", "binary-le.blg"}, {"not-perfmon", "not-perfmon.csv"}, {"all-rows-bad", "all-rows-bad.csv"},
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

class PerfmonBadInputTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(PerfmonBadInputTest, FailsWithOneClearLineAndLeavesNoStore) {
  const BadCase& c = GetParam();
  const std::string input = FixturePath(c.input);
  ASSERT_TRUE(Exists(input)) << input;
  std::string want = ReadText(FixturePath(std::string(c.name) + ".expected_error"));
  while (!want.empty() && (want.back() == '\n' || want.back() == '\r')) want.pop_back();
  ASSERT_FALSE(want.empty());

  TempDir dir;
  const std::string db = dir.File("x.db");
  CliResult in = Ingest(db, input);
  EXPECT_EQ(in.exit_code, 1) << in.out << in.err;
  EXPECT_EQ(std::count(in.err.begin(), in.err.end(), '\n'), 1) << "want exactly one stderr line:\n" << in.err;
  EXPECT_NE(in.err.find(want), std::string::npos) << "stderr lacks \"" << want << "\":\n" << in.err;
  EXPECT_NE(in.err.find(c.input), std::string::npos) << "stderr must name the file:\n" << in.err;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"})
    EXPECT_FALSE(Exists(db + suffix)) << db << suffix << " was left behind";
}

INSTANTIATE_TEST_SUITE_P(Perfmon, PerfmonBadInputTest, ::testing::ValuesIn(kBadCases),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                           std::string n = info.param.name;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// ---- re-ingest contract: the same file adds nothing, a grown file adds only its new rows ------

class PerfmonReingestTest : public ::testing::TestWithParam<const char*> {};

TEST_P(PerfmonReingestTest, SameFileTwiceAddsNothing) {
  const std::string name = GetParam();
  TempDir dir;
  const std::string db = dir.File("x.db");
  const std::string file = FixturePath(name + ".csv");
  CliResult first = Ingest(db, file);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string before = SamplesCsv(db);
  EXPECT_EQ(before, ReadText(FixturePath(name + ".expected.csv")));

  CliResult second = Ingest(db, file);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(JsonInt(second.out, "rows"), 0) << second.out;
  EXPECT_EQ(JsonInt(second.out, "rows_already_stored"), JsonInt(first.out, "rows")) << second.out;
  EXPECT_EQ(JsonInt(second.out, "issues"), 0) << "issues of rows read before must not be raised again:\n" << second.out;
  const std::string after = SamplesCsv(db);
  EXPECT_TRUE(after == before) << LineDiff(before, after);
}

INSTANTIATE_TEST_SUITE_P(Perfmon, PerfmonReingestTest, ::testing::Values("crlf", "bad-rows", "dst-fallback"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// Ingests `original` into one store, then `grown` (the same file after it grew) into it again,
// and checks the store holds exactly what a fresh ingest of `grown` gives.
void ExpectGrowthAddsOnlyNewRows(const std::string& original, const std::string& grown, int64_t new_rows) {
  TempDir dir;
  const std::string log = dir.File("guest.csv");
  const std::string db = dir.File("x.db");
  WriteText(log, original);
  CliResult first = Ingest(db, log);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const int64_t stored = JsonInt(first.out, "rows");

  WriteText(log, grown);
  CliResult second = Ingest(db, log);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(JsonInt(second.out, "rows"), new_rows) << second.out;
  EXPECT_EQ(JsonInt(second.out, "rows_already_stored"), stored) << second.out;

  const std::string fresh_db = dir.File("fresh.db");
  ASSERT_EQ(Ingest(fresh_db, log).exit_code, 0);
  const std::string fresh = SamplesCsv(fresh_db);
  const std::string incremental = SamplesCsv(db);
  EXPECT_TRUE(incremental == fresh) << "incremental ingest differs from a fresh ingest of the grown file:\n"
                                    << LineDiff(fresh, incremental);
}

TEST(PerfmonGrowthTest, AppendedRowsAreAddedOnce) {
  const std::string original = ReadText(FixturePath("crlf.csv"));
  const std::string grown = original +
                            "\"03/02/2026 09:01:00.000\",\"55.5\",\"44.5\",\"50\",\"20\",\"3\",\"3001\"\r\n"
                            "\"03/02/2026 09:01:15.000\",\"35.5\",\"24.5\",\"30\",\"10\",\"1\",\"3002\"\r\n";
  ExpectGrowthAddsOnlyNewRows(original, grown, 2);

  // The new rows are where a user expects them: 09:01 EST = 14:01 UTC, after the last stored row.
  TempDir dir;
  WriteText(dir.File("g.csv"), grown);
  ASSERT_EQ(Ingest(dir.File("x.db"), dir.File("g.csv")).exit_code, 0);
  const std::string s = SamplesCsv(dir.File("x.db"));
  EXPECT_NE(s.find("guest,WEB01,Processor,_Total,% Processor Time,2026-03-02T14:00:45.000Z,"
                   "2026-03-02T14:01:00.000Z,50,percent,"),
            std::string::npos)
      << s;
}

TEST(PerfmonGrowthTest, RowsAppendedAfterDstShiftKeepTheShiftedBias) {
  // The resumed read must replay the clock: 01:03 after the fall-back is EST, 06:03 UTC.
  const std::string original = ReadText(FixturePath("dst-fallback.csv"));
  const std::string grown = original + "\"11/01/2026 01:03:00.000\",\"30.5\",\"15.25\"\r\n";
  ExpectGrowthAddsOnlyNewRows(original, grown, 1);
  TempDir dir;
  WriteText(dir.File("g.csv"), grown);
  ASSERT_EQ(Ingest(dir.File("x.db"), dir.File("g.csv")).exit_code, 0);
  EXPECT_NE(SamplesCsv(dir.File("x.db"))
                .find("guest,WEB01,Processor,_Total,% Processor Time,2026-11-01T06:02:00.000Z,"
                      "2026-11-01T06:03:00.000Z,30.5,percent,"),
            std::string::npos);
}

TEST(PerfmonGrowthTest, LineCutOffWhileCopiedIsReadOnceComplete) {
  // A log copied while the collector was writing ends in half a row; the next copy completes it.
  const std::string original = ReadText(FixturePath("crlf.csv"));
  const std::string row = "\"03/02/2026 09:01:00.000\",\"55.5\",\"44.5\",\"50\",\"20\",\"3\",\"3001\"\r\n";
  const std::string partial = original + row.substr(0, 40);
  TempDir dir;
  WriteText(dir.File("p.csv"), partial);
  CliResult cut = Ingest(dir.File("x.db"), dir.File("p.csv"));
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  EXPECT_EQ(JsonInt(cut.out, "rows"), 4) << cut.out;
  EXPECT_EQ(IssuesFromJson(cut.out), std::vector<std::string>{"6:ragged-row"}) << cut.out;
  ExpectGrowthAddsOnlyNewRows(partial, original + row, 1);
}

}  // namespace
}  // namespace vrecon::testing
