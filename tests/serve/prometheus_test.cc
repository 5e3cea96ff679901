// A real Prometheus (Debian's `prometheus`) scrapes `vrecon serve` on loopback; its HTTP query
// API then returns the seed example's process A at 48.2 and, for every process of the four-VM
// fixture, exactly the value /metrics served (which ServeTest checks against `vrecon correct`).
// Without Prometheus installed the test skips, unless VRECON_REQUIRE_PROMETHEUS is set (the test
// command sets it): then it fails.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <thread>

#include "tests/serve/exposition_parse.h"
#include "tests/serve/serve_runner.h"
#include "tests/support/background.h"
#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

constexpr const char* kPrometheus = "/usr/bin/prometheus";

int FreeLoopbackPort() {
  const int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  int port = -1;
  if (bind(s, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(s);
  return port;
}

// (vm_key, process) -> value, from an instant query's JSON answer (labels sorted by name).
std::map<std::pair<std::string, std::string>, std::string> ProcessValues(const std::string& json) {
  std::map<std::pair<std::string, std::string>, std::string> out;
  static const std::regex result(R"re(\{"metric":\{([^}]*)\},"value":\[[0-9.]+,"([^"]+)"\]\})re");
  static const std::regex process(R"re("process":"([^"]*)")re"), vm_key(R"re("vm_key":"([^"]*)")re");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), result); it != std::sregex_iterator(); ++it) {
    const std::string labels = (*it)[1];
    std::smatch p, k;
    if (std::regex_search(labels, p, process) && std::regex_search(labels, k, vm_key)) out[{k[1], p[1]}] = (*it)[2];
  }
  return out;
}

class PrometheusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kPrometheus)) {
      if (std::getenv("VRECON_REQUIRE_PROMETHEUS")) FAIL() << kPrometheus << " is missing (Debian's prometheus)";
      GTEST_SKIP() << "no " << kPrometheus;
    }
  }
  // The query's JSON once it has a result, or "" when none came within the time.
  std::string QueryUntilAnswered(int port, const std::string& promql, int timeout_s) {
    httplib::Client c("127.0.0.1", port);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    while (std::chrono::steady_clock::now() < until) {
      auto res = c.Get("/api/v1/query", httplib::Params{{"query", promql}}, httplib::Headers{});
      if (res && res->status == 200 && res->body.find("\"result\":[{") != std::string::npos) return res->body;
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    return "";
  }
  TempDir dir_;
};

TEST_F(PrometheusTest, ScrapedValuesAreTheCorrectedCpu) {
  const std::string db = dir_.File("estate.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv"), Fixture("seed003/hyperv-hv01.csv"),
                       Fixture("report/fleet-guests.csv"), Fixture("report/fleet-esxtop.csv")})
                .exit_code,
            0);
  ASSERT_EQ(RunVrecon({"report", "--db", db, "--format", "csv", "--out", "-"}).exit_code, 0);
  ServeRunner serve(db);
  ASSERT_TRUE(serve.listening()) << serve.process().err();

  const int port = FreeLoopbackPort();
  ASSERT_GT(port, 0);
  WriteText(dir_.File("prometheus.yml"),
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
            "scrape_configs:\n  - job_name: vrecon\n    static_configs:\n"
            "      - targets: ['127.0.0.1:" +
                std::to_string(serve.port()) + "']\n");
  Background prometheus(Background::Program{kPrometheus},
                        {"--config.file=" + dir_.File("prometheus.yml"), "--storage.tsdb.path=" + dir_.File("tsdb"),
                         "--web.listen-address=127.0.0.1:" + std::to_string(port), "--log.level=warn"});

  const std::string a =
      QueryUntilAnswered(port, "vrecon_process_corrected_cpu_percent{vm=\"WEB01\",process=\"A\"}", 90);
  ASSERT_FALSE(a.empty()) << "Prometheus gave no value within 90 s:\n" << prometheus.err();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(a, m, std::regex(R"re("value":\[[0-9.]+,"([^"]+)"\])re"))) << a;
  EXPECT_NEAR(std::stod(m[1]), 48.2, 0.05) << a;

  const ParsedExposition served = ParseExposition(serve.Get("/metrics").second);
  const auto scraped = ProcessValues(QueryUntilAnswered(port, "vrecon_process_corrected_cpu_percent", 10));
  size_t compared = 0;
  for (const auto& [series, value] : served.samples) {
    if (series.rfind("vrecon_process_corrected_cpu_percent{", 0) != 0) continue;
    std::smatch k, p;
    ASSERT_TRUE(std::regex_search(series, k, std::regex(R"re(vm_key="([^"]*)")re")));
    ASSERT_TRUE(std::regex_search(series, p, std::regex(R"re(process="([^"]*)")re")));
    const auto it = scraped.find({k[1], p[1]});
    ASSERT_NE(it, scraped.end()) << series << " is not in Prometheus";
    EXPECT_EQ(std::stod(it->second), value) << series;
    ++compared;
  }
  EXPECT_EQ(compared, 5u) << "A, B; sqlservr; iis, sql";
  EXPECT_EQ(scraped.size(), compared);
}

}  // namespace
}  // namespace vrecon::testing
