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
std::string ReadText(const std::string& path);
void WriteText(const std::string& path, const std::string& text);

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_CLI_RUNNER_H_
