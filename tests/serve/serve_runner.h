// `vrecon serve` running in the background on a free loopback port, for the /metrics tests.
#ifndef VRECON_TESTS_SERVE_SERVE_RUNNER_H_
#define VRECON_TESTS_SERVE_SERVE_RUNNER_H_

#include <memory>
#include <string>
#include <vector>

#include "tests/support/background.h"

namespace vrecon::testing {

class ServeRunner {
 public:
  // Starts `vrecon serve --db db <extra>` (--listen 127.0.0.1:0 unless `extra` has a --listen) and
  // waits until it listens.
  explicit ServeRunner(const std::string& db, const std::vector<std::string>& extra = {});
  bool listening() const { return port_ > 0; }
  int port() const { return port_; }
  Background& process() { return *bg_; }
  // GET path over plain HTTP: the status and body (status -1 when nothing answered).
  std::pair<int, std::string> Get(const std::string& path) const;

 private:
  std::unique_ptr<Background> bg_;
  int port_ = -1;
};

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SERVE_SERVE_RUNNER_H_
