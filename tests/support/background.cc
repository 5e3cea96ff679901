#include "tests/support/background.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace vrecon::testing {

Background::Background(const std::vector<std::string>& args) : Background(Program{VreconBin()}, args) {}

Background::Background(const Program& program, const std::vector<std::string>& args) {
  const std::string out = io_.File("out"), err = io_.File("err");
  std::vector<std::string> argv_s = {program.path};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_ = fork();
  if (pid_ == 0) {
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int in = open("/dev/null", O_RDONLY);
    dup2(o, 1);
    dup2(e, 2);
    dup2(in, 0);
    execv(argv[0], argv.data());
    _exit(127);
  }
}

Background::~Background() {
  if (pid_ > 0 && !exited_) {
    kill(pid_, SIGKILL);
    Reap(true);
  }
}

void Background::Signal(int sig) {
  if (pid_ > 0 && !exited_) kill(pid_, sig);
}

std::string Background::err() const { return ReadText(io_.File("err")); }

bool Background::Reap(bool block) {
  if (exited_) return true;
  const pid_t r = waitpid(pid_, &status_, block ? 0 : WNOHANG);
  if (r == pid_) exited_ = true;
  return exited_;
}

bool Background::WaitForLog(const std::string& text, int timeout_s, size_t occurrences) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (std::chrono::steady_clock::now() < until) {
    const std::string e = err();
    size_t n = 0;
    for (size_t at = e.find(text); at != std::string::npos; at = e.find(text, at + 1)) ++n;
    if (n >= occurrences) return true;
    if (Reap(false)) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

CliResult Background::Wait(int timeout_s) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (!Reap(false) && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CliResult r;
  if (!exited_) {
    kill(pid_, SIGKILL);
    Reap(true);
  } else {
    r.exit_code = WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
  }
  r.out = ReadText(io_.File("out"));
  r.err = err();
  return r;
}

}  // namespace vrecon::testing
