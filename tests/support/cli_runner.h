// Runs the real vrecon binary, as a user would, and captures what it prints.
#ifndef VRECON_TESTS_SUPPORT_CLI_RUNNER_H_
#define VRECON_TESTS_SUPPORT_CLI_RUNNER_H_

#include <string>
#include <vector>

namespace vrecon::testing {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

// The binary under test: this build's, or $VRECON_TEST_BIN (to run a test against another build,
// e.g. to see it fail on the code before a fix).
std::string VreconBin();

CliResult RunVrecon(const std::vector<std::string>& args);
// The same with extra environment entries ("NAME=value", e.g. an LD_PRELOAD).
CliResult RunVreconWithEnv(const std::vector<std::string>& env, const std::vector<std::string>& args);

// A fresh directory under the system temp dir, removed when the object goes away.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string Fixture(const std::string& relative);  // path under fixtures/
// The files whose path starts with `prefix` (in prefix's directory), e.g. a report's stand-ins
// "out.csv.partial-<pid>".
std::vector<std::string> FilesStartingWith(const std::string& prefix);
std::string ReadText(const std::string& path);
void WriteText(const std::string& path, const std::string& text);

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_CLI_RUNNER_H_
