#include "tests/support/golden.h"

#include <cstdlib>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

namespace vrecon::testing {

int CountLines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

// A line diff (longest common subsequence): "-" lines are expected but missing, "+" lines were
// printed but not expected.
std::string LineDiff(const std::string& expected, const std::string& actual) {
  const std::vector<std::string> a = Lines(expected), b = Lines(actual);
  std::vector<std::vector<int>> lcs(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::string out;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ++i, ++j;
    } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out += "- " + a[i++] + "\n";
    } else {
      out += "+ " + b[j++] + "\n";
    }
  }
  if (out.empty()) out = "(same lines; the bytes differ, e.g. in line ends or the final newline)\n";
  return out;
}

// "line:code" of each import issue in `vrecon ingest --format json` output.
std::vector<std::string> IssuesFromJson(const std::string& json) {
  static const std::regex re(R"re(\{"line": (\d+), "severity": "[a-z]+", "code": "([^"]+)")re");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(json.begin(), json.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1].str() + ":" + (*it)[2].str());
  return out;
}

int64_t JsonInt(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\": (-?[0-9]+)"))) return -1;
  return std::stoll(m[1].str());
}

bool Exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

// Ingests `file` into `db` (json output) and returns the result.
CliResult Ingest(const std::string& db, const std::string& file, const std::vector<std::string>& extra,
                 const std::string& format) {
  std::vector<std::string> args = {"ingest", "--db", db, "--format", format};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(file);
  return RunVrecon(args);
}

std::string SamplesCsv(const std::string& db) {
  CliResult r = RunVrecon({"samples", "--db", db, "--format", "csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

GoldenIngest ExpectGoldenIngest(const std::string& dir, const std::string& name, const std::string& input,
                                const std::string& db) {
  GoldenIngest g;
  const std::string base = Fixture(dir + "/" + name);
  const std::string file = Fixture(dir + "/" + input);
  for (const std::string& f : {file, base + ".expected.csv", base + ".expected_issues"}) {
    if (!Exists(f)) {
      ADD_FAILURE() << "missing fixture " << f;
      return g;
    }
  }
  if (Exists(base + ".args"))
    for (const std::string& a : Lines(ReadText(base + ".args")))
      if (!a.empty()) g.args.push_back(a);
  g.ingest = Ingest(db, file, g.args);
  if (g.ingest.exit_code != 0) {
    ADD_FAILURE() << "ingest of " << file << " exited " << g.ingest.exit_code << ": " << g.ingest.err;
    return g;
  }
  EXPECT_EQ(g.ingest.err, "");
  std::vector<std::string> want_issues;
  for (const std::string& l : Lines(ReadText(base + ".expected_issues")))
    if (!l.empty()) want_issues.push_back(l);
  EXPECT_EQ(IssuesFromJson(g.ingest.out), want_issues) << "import issues (line:code) differ; ingest said:\n"
                                                       << g.ingest.out;
  const std::string actual = SamplesCsv(db);
  // VRECON_UPDATE_GOLDEN=1 rewrites the file (as tests/report does); review the diff before committing it.
  if (const char* u = std::getenv("VRECON_UPDATE_GOLDEN"); u && std::string(u) == "1")
    WriteText(base + ".expected.csv", actual);
  const std::string expected = ReadText(base + ".expected.csv");
  EXPECT_TRUE(actual == expected) << "samples of " << input << " differ from " << name << ".expected.csv:\n"
                                  << LineDiff(expected, actual);
  return g;
}

}  // namespace vrecon::testing
