// The real vrecon binary running in the background, for long-running modes: signal it, read
// what it has logged so far, wait for its exit.
//
//   Background bg({"collect", "--config", cfg, "--every", "1h"});
//   ASSERT_TRUE(bg.WaitForLog("round finished", 60));
//   bg.Signal(SIGTERM);
//   CliResult r = bg.Wait(30);   // exit_code -1 when it did not exit in time (then killed)
#ifndef VRECON_TESTS_SUPPORT_BACKGROUND_H_
#define VRECON_TESTS_SUPPORT_BACKGROUND_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {

class Background {
 public:
  explicit Background(const std::vector<std::string>& args);  // the vrecon binary
  struct Program {
    std::string path;
  };
  Background(const Program& program, const std::vector<std::string>& args);  // another program
  ~Background();                                                             // SIGKILL if still running
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;

  pid_t pid() const { return pid_; }
  void Signal(int sig);
  std::string err() const;  // stderr so far
  // Polls stderr until it holds `text` (true) or the process exits or the time is up (false).
  bool WaitForLog(const std::string& text, int timeout_s, size_t occurrences = 1);
  CliResult Wait(int timeout_s);

 private:
  TempDir io_;
  pid_t pid_ = -1;
  int status_ = 0;
  bool exited_ = false;
  bool Reap(bool block);
};

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_BACKGROUND_H_
