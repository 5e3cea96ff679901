#include "tests/serve/serve_runner.h"

#include <httplib.h>

#include <algorithm>
#include <regex>

namespace vrecon::testing {

ServeRunner::ServeRunner(const std::string& db, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"serve", "--db", db};
  if (std::find(extra.begin(), extra.end(), "--listen") == extra.end())
    args.insert(args.end(), {"--listen", "127.0.0.1:0"});
  args.insert(args.end(), extra.begin(), extra.end());
  bg_ = std::make_unique<Background>(args);
  if (!bg_->WaitForLog("/metrics (store", 30)) return;
  std::smatch m;
  const std::string err = bg_->err();
  if (std::regex_search(err, m, std::regex(R"(://127\.0\.0\.1:(\d+)/metrics)"))) port_ = std::stoi(m[1]);
}

std::pair<int, std::string> ServeRunner::Get(const std::string& path) const {
  httplib::Client c("127.0.0.1", port_);
  c.set_read_timeout(30);
  auto res = c.Get(path.c_str());
  if (!res) return {-1, ""};
  return {res->status, res->body};
}

}  // namespace vrecon::testing
