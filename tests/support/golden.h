// Helpers of the golden tests: run ingest and samples through the real CLI, compare outputs
// line by line, read issue lists and numbers out of JSON output.
#ifndef VRECON_TESTS_SUPPORT_GOLDEN_H_
#define VRECON_TESTS_SUPPORT_GOLDEN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {

std::vector<std::string> Lines(const std::string& text);
// The number of newlines in `text` (lines of an error output, say).
int CountLines(const std::string& text);
// A line diff (longest common subsequence): "-" lines are expected but missing, "+" lines were
// printed but not expected.
std::string LineDiff(const std::string& expected, const std::string& actual);
// "line:code" of each import issue in `vrecon ingest --format json` output.
std::vector<std::string> IssuesFromJson(const std::string& json);
// The first integer "key": N in a JSON text, -1 when absent.
int64_t JsonInt(const std::string& json, const std::string& key);
bool Exists(const std::string& path);
// `vrecon ingest --db db --format format [extra...] file`.
CliResult Ingest(const std::string& db, const std::string& file, const std::vector<std::string>& extra = {},
                 const std::string& format = "json");
// `vrecon samples --db db --format csv` (expects success).
std::string SamplesCsv(const std::string& db);

// The golden check of one fixture: ingests fixtures/<dir>/<input> into `db` (with the arguments
// of <name>.args, one per line, when that file exists), then expects the import issues of
// <name>.expected_issues ("line:code" lines) and the stored samples of <name>.expected.csv, byte
// for byte. Returns the ingest result and the arguments used, for further checks.
struct GoldenIngest {
  CliResult ingest;
  std::vector<std::string> args;
};
GoldenIngest ExpectGoldenIngest(const std::string& dir, const std::string& name, const std::string& input,
                                const std::string& db);

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_GOLDEN_H_
