#include "tests/support/golden.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

namespace vrecon::testing {

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

}  // namespace vrecon::testing
