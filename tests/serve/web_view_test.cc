// `vrecon serve`'s web view over real HTTP: / is the HTML report of the range asked, a VM link
// leads to that VM's page; the API answers exactly what `vrecon ready --format json` and
// `vrecon correct --format json` print for the same range; bad queries are 400, unknown VMs and
// paths 404, one line each and nothing that names a file; a client that disconnects mid-response
// leaves the server serving. Then the page in headless Chromium (Debian's chromium).
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <thread>

#include "src/serve/web_query.h"
#include "tests/serve/serve_runner.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon::testing {
namespace {

constexpr const char* kFrom = "2026-11-02T09:00:00Z";
constexpr const char* kTo = "2026-11-02T12:00:00Z";
const std::string kRange = std::string("from=") + kFrom + "&to=" + kTo;

class WebViewTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override {
    VRECON_NEED_BACKEND(GetParam());
    db_ = NewStore(GetParam(), dir_.path());
    ASSERT_EQ(RunVrecon({"ingest", "--db", db_, Fixture("report/fleet-guests.csv"), Fixture("report/fleet-esxtop.csv")})
                  .exit_code,
              0);
    ASSERT_EQ(RunVrecon({"report", "--db", db_, "--format", "csv", "--out", "-"}).exit_code, 0);
  }
  TempDir dir_;
  std::string db_;
};

int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST_P(WebViewTest, PageAndApiAnswerWhatTheCliPrints) {
  ServeRunner serve(db_);
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  const auto [status, page] = serve.Get("/?" + kRange);
  ASSERT_EQ(status, 200);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("http://"), std::string::npos) << "nothing from elsewhere";
  EXPECT_EQ(Count(page, "<details class=\"vm\""), 4);
  EXPECT_NE(page.find("2026-11-02"), std::string::npos);

  // The WEB02 link of the fleet tables: a page of WEB02 alone, over the same range.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(page, m, std::regex(R"re(href="(\?vm=esxtop%3Aesx01\.example\.com%2Fweb02[^"]*)")re")))
      << page.substr(0, 2000);
  std::string link = m[1];
  link = std::regex_replace(link, std::regex("&amp;"), "&");
  const auto vm_page = serve.Get("/" + link);
  ASSERT_EQ(vm_page.first, 200);
  EXPECT_EQ(Count(vm_page.second, "<details class=\"vm\""), 1);
  EXPECT_NE(vm_page.second.find("WEB02"), std::string::npos);
  EXPECT_EQ(vm_page.second.find(">DB02<"), std::string::npos);

  // A range with no windows: the same page, no window data.
  const auto empty = serve.Get("/?from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z");
  EXPECT_EQ(empty.first, 200);
  EXPECT_LT(Count(empty.second, "<path class=\"line"), Count(page, "<path class=\"line"));

  const CliResult ready = RunVrecon({"ready", "--db", db_, "--from", kFrom, "--to", kTo, "--format", "json"});
  ASSERT_EQ(ready.exit_code, 0) << ready.err;
  EXPECT_EQ(serve.Get("/api/vms?" + kRange), std::make_pair(200, ready.out));
  const std::string key = "esxtop:esx01.example.com/web02";
  const CliResult correct =
      RunVrecon({"correct", "--db", db_, "--vm", key, "--from", kFrom, "--to", kTo, "--format", "json"});
  ASSERT_EQ(correct.exit_code, 0) << correct.err;
  EXPECT_EQ(serve.Get("/api/vms/" + serve::UrlEncode(key) + "/windows?" + kRange), std::make_pair(200, correct.out));
  EXPECT_EQ(serve.Get("/api/vms/" + key + "/windows?" + kRange).second, correct.out) << "an unencoded / works too";
}

TEST_P(WebViewTest, ErrorsAreOneLineAndTheServerSurvivesADisconnect) {
  ServeRunner serve(db_);
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  const std::pair<std::string, int> cases[] = {
      {"/?from=yesterday", 400}, {"/?from=2026-11-02T12:00:00Z&to=2026-11-02T09:00:00Z", 400},
      {"/api/vms?to=noon", 400}, {"/?vm=NOPE&" + kRange, 404},
      {"/api/vms?vm=NOPE", 404}, {"/api/vms/nope/windows", 404},
      {"/report.html", 404},     {"/../../etc/passwd", 404},
  };
  for (const auto& [path, code] : cases) {
    const auto [status, body] = serve.Get(path);
    EXPECT_EQ(status, code) << path;
    EXPECT_EQ(Count(body, "\n"), 1) << path << ": " << body;
    EXPECT_EQ(body.find(dir_.path()), std::string::npos) << path << ": " << body;
    EXPECT_EQ(body.find("store.db"), std::string::npos) << path << ": " << body;
  }

  // A client that asks for the page and goes away before reading it.
  for (int i = 0; i < 3; ++i) {
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(serve.port()));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(connect(s, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    const std::string req = "GET /?" + kRange + " HTTP/1.1\r\nHost: x\r\n\r\n";
    ASSERT_EQ(send(s, req.data(), req.size(), 0), static_cast<ssize_t>(req.size()));
    char some[64];
    (void)recv(s, some, sizeof(some), 0);
    close(s);
  }
  EXPECT_EQ(serve.Get("/?" + kRange).first, 200);
  EXPECT_EQ(serve.Get("/metrics").first, 200);
}

// Scrapes and pages go on while ingests write the store; neither waits on the other for long.
TEST_P(WebViewTest, ServesWhileACollectorWrites) {
  ServeRunner serve(db_);
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  std::atomic<bool> writing{true};
  std::atomic<int> answered{0}, refused{0};
  std::thread reader([&] {
    while (writing.load()) {
      const int status = serve.Get(answered % 2 ? "/metrics" : "/?" + kRange).first;
      (status == 200 ? answered : refused)++;
    }
  });
  // The seed example stored again and again under other machine names: each ingest a write
  // transaction and a recompute of the stored corrections.
  const std::string guest = ReadText(Fixture("seed003/guest-web01.csv"));
  for (int i = 0; i < 4; ++i) {
    const std::string name = "WEB1" + std::to_string(i);
    WriteText(dir_.File(name + ".csv"), std::regex_replace(guest, std::regex("WEB01"), name));
    const auto t0 = std::chrono::steady_clock::now();
    const CliResult r = RunVrecon({"ingest", "--db", db_, dir_.File(name + ".csv")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
  }
  writing = false;
  reader.join();
  EXPECT_GT(answered.load(), 0);
  EXPECT_EQ(refused.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, WebViewTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         BackendParamName);

std::string Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

// The page as Chromium builds it from the live server: charts drawn; the VM link's page holds
// that VM; ?from=&to= move the range the page reports.
TEST(WebViewBrowserTest, ThePageRendersInHeadlessChromium) {
  const std::string chromium = Chromium();
  if (chromium.empty()) {
    if (const char* r = std::getenv("VRECON_REQUIRE_CHROMIUM"); r && std::string(r) == "1")
      FAIL() << "VRECON_REQUIRE_CHROMIUM=1 but chromium is not installed";
    GTEST_SKIP() << "chromium not installed";
  }
  TempDir dir;
  const std::string db = dir.File("fleet.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("report/fleet-guests.csv"), Fixture("report/fleet-esxtop.csv")})
                .exit_code,
            0);
  ASSERT_EQ(RunVrecon({"report", "--db", db, "--format", "csv", "--out", "-"}).exit_code, 0);
  ServeRunner serve(db);
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  const std::string base = "http://127.0.0.1:" + std::to_string(serve.port()) + "/";
  const auto dom_of = [&](const std::string& url, const std::string& name) {
    const std::string out = dir.File(name + ".html"), log = dir.File(name + ".log");
    const std::string cmd = "timeout 120 '" + chromium +
                            "' --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking "
                            "--disable-extensions --user-data-dir='" +
                            dir.File("profile-" + name) + "' --virtual-time-budget=5000 --dump-dom '" + url + "' >'" +
                            out + "' 2>'" + log + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << ReadText(log);
    return ReadText(out);
  };
  const std::string fleet = dom_of(base + "?" + kRange, "fleet");
  const auto count = [](const std::string& text, const std::string& re) {
    const std::regex compiled(re);
    return std::distance(std::sregex_iterator(text.begin(), text.end(), compiled), std::sregex_iterator());
  };
  EXPECT_GE(count(fleet, "<svg class=\"chart\""), 8) << "two charts per VM";
  EXPECT_GE(count(fleet, "<path class=\"line"), 6);
  EXPECT_EQ(count(fleet, "<details class=\"vm\""), 4);

  std::smatch m;
  ASSERT_TRUE(std::regex_search(fleet, m, std::regex(R"re(href="(\?vm=esxtop%3Aesx01\.example\.com%2Fdb02[^"]*)")re")));
  const std::string vm = dom_of(base + std::regex_replace(std::string(m[1]), std::regex("&amp;"), "&"), "vm");
  EXPECT_EQ(count(vm, "<details class=\"vm\""), 1);
  EXPECT_NE(vm.find("DB02"), std::string::npos);
  EXPECT_GE(count(vm, "<path class=\"line"), 2) << "the VM's charts are drawn";

  const std::string later = dom_of(base + "?from=2026-11-02T10:15:00Z&to=2026-11-02T10:30:00Z", "later");
  EXPECT_NE(later.find("2026-11-02T10:15:00Z"), std::string::npos);
  EXPECT_EQ(later.find("2026-11-02T09:00:00Z"), std::string::npos);
  EXPECT_NE(fleet.find("2026-11-02T09:00:00Z"), std::string::npos) << "the range asked is on the page";
}

}  // namespace
}  // namespace vrecon::testing
