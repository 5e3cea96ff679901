#include "tests/support/cli_runner.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vrecon::testing {
namespace {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

}  // namespace

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string Fixture(const std::string& relative) { return std::string(VRECON_FIXTURES_DIR) + "/" + relative; }

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "vrecon-test-XXXXXX").string();
  path_ = mkdtemp(tmpl.data());
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<std::string> FilesStartingWith(const std::string& prefix) {
  std::vector<std::string> out;
  const std::filesystem::path dir = std::filesystem::path(prefix).parent_path();
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().string().rfind(prefix, 0) == 0) out.push_back(it->path().string());
  return out;
}

std::string VreconBin() {
  const char* other = std::getenv("VRECON_TEST_BIN");
  return other && *other ? other : VRECON_BIN;
}

CliResult RunVrecon(const std::vector<std::string>& args) { return RunVreconWithEnv({}, args); }

CliResult RunVreconWithEnv(const std::vector<std::string>& env, const std::vector<std::string>& args) {
  TempDir io;
  std::string cmd;
  if (!env.empty()) {
    cmd = "env";
    for (const std::string& e : env) cmd += " " + Quote(e);
    cmd += " ";
  }
  cmd += Quote(VreconBin());
  for (const std::string& a : args) cmd += " " + Quote(a);
  cmd += " >" + Quote(io.File("out")) + " 2>" + Quote(io.File("err")) + " </dev/null";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadText(io.File("out"));
  r.err = ReadText(io.File("err"));
  return r;
}

}  // namespace vrecon::testing
