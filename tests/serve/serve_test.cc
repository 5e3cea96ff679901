// `vrecon serve` (issue 17): /metrics from a real store on both backends, over real HTTP. The
// values are those of `vrecon correct` for each VM's latest complete window; the latest window
// follows new data and goes with a prune; the CLI's refusals are one clear line each.
#include <signal.h>
#include <sys/stat.h>

#include <gtest/gtest.h>
#include <httplib.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "src/core/time_util.h"
#include "tests/serve/exposition_parse.h"
#include "tests/serve/serve_runner.h"
#include "tests/support/background.h"
#include "tests/support/capacity_logs.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon::testing {
namespace {

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream in(line);
  std::string x;
  while (std::getline(in, x, ',')) f.push_back(x);
  if (!line.empty() && line.back() == ',') f.push_back("");
  return f;
}

// `correct --format csv` rows of each VM's last window that has w, by vm_key.
std::map<std::string, std::vector<std::map<std::string, std::string>>> LastWindowsWithW(const std::string& csv) {
  std::stringstream in(csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = SplitCsv(line);
  std::map<std::string, std::vector<std::map<std::string, std::string>>> out;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = SplitCsv(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < f.size(); ++i) row[header[i]] = f[i];
    if (row["w"].empty()) continue;
    auto& rows = out[row["vm_key"]];
    if (!rows.empty() && rows.front()["start"] != row["start"]) rows.clear();  // a later window
    rows.push_back(row);
  }
  return out;
}

std::string Labels(const std::map<std::string, std::string>& row) {
  return "vm=\"" + row.at("vm") + "\",vm_key=\"" + row.at("vm_key") + "\"";
}

class ServeTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(GetParam()); }
  TempDir dir_;
};

TEST_P(ServeTest, MetricsAreCorrectsLatestCompleteWindow) {
  const std::string db = NewStore(GetParam(), dir_.path());
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("report/fleet-guests.csv"), Fixture("report/fleet-esxtop.csv"),
                       Fixture("seed003/guest-web01.csv"), Fixture("seed003/hyperv-hv01.csv")})
                .exit_code,
            0);
  ASSERT_EQ(RunVrecon({"report", "--db", db, "--format", "csv", "--out", "-"}).exit_code, 0);
  const CliResult correct = RunVrecon({"correct", "--db", db, "--format", "csv"});
  ASSERT_EQ(correct.exit_code, 0) << correct.err;

  ServeRunner serve(db);
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  const auto [status, body] = serve.Get("/metrics");
  ASSERT_EQ(status, 200) << serve.process().err();
  const ParsedExposition p = ParseExposition(body);

  const auto last = LastWindowsWithW(correct.out);
  ASSERT_EQ(last.size(), 3u) << "DB02, WEB02 and WEB01 have host data; LONE03 has none";
  EXPECT_EQ(p.samples.at("vrecon_vms"), 3);
  const std::string version = RunVrecon({"--version"}).out;  // "vrecon 0.1.0 (commit abc)\n"
  const std::string build_info =
      "vrecon_build_info{version=\"" + version.substr(7, version.find(' ', 7) - 7) + "\",commit=\"" +
      version.substr(version.find("commit ") + 7, version.find(')') - version.find("commit ") - 7) + "\"}";
  EXPECT_EQ(p.samples.count(build_info), 1u) << build_info;
  for (const auto& [key, rows] : last) {
    const std::string l = Labels(rows.front());
    SCOPED_TRACE(l);
    EXPECT_DOUBLE_EQ(p.samples.at("vrecon_vm_w_ratio{" + l + "}"), std::stod(rows.front().at("w")));
    EXPECT_DOUBLE_EQ(p.samples.at("vrecon_vm_guest_cpu_percent{" + l + "}"),
                     std::stod(rows.front().at("guest_util_pct")));
    EXPECT_DOUBLE_EQ(p.samples.at("vrecon_vm_host_cpu_percent{" + l + "}"),
                     std::stod(rows.front().at("host_util_pct")));
    EXPECT_DOUBLE_EQ(p.samples.at("vrecon_vm_window_start_timestamp_seconds{" + l + "}"),
                     static_cast<double>(*ParseIso(rows.front().at("start")) / kNsPerSec));
    for (const auto& row : rows) {
      if (row.at("name").empty()) continue;
      EXPECT_DOUBLE_EQ(
          p.samples.at("vrecon_process_corrected_cpu_percent{" + l + ",process=\"" + row.at("name") + "\"}"),
          std::stod(row.at("corrected_pct")))
          << row.at("name");
    }
  }
  EXPECT_NEAR(p.samples.at("vrecon_process_corrected_cpu_percent{vm=\"WEB01\",vm_key=\"hyperv:hv01/web01\","
                           "process=\"A\"}"),
              48.2, 0.05)
      << "the seed article's worked example";

  serve.process().Signal(SIGTERM);
  EXPECT_EQ(serve.process().Wait(30).exit_code, 0);
}

// The seed example's guest log, with `extra` more 15 s samples at the same load after its end.
std::string LongerGuest(int extra) {
  std::string csv = ReadText(Fixture("seed003/guest-web01.csv"));
  for (int i = 1; i <= extra; ++i) {
    const int s = 600 + 15 * i;  // seconds after 10:00:00 local
    char t[16];
    std::snprintf(t, sizeof t, "10:%02d:%02d", s / 60, s % 60);
    csv += std::string("\"11/02/2026 ") + t +
           ".000\",\"73.000000000000000\",\"73.000000000000000\",\"40.000000000000000\",\"20.000000000000000\","
           "\"27.000000000000000\",\"100.00000000000000\",\"1\"\n";
  }
  return csv;
}

std::string LongerHost(int extra) {
  std::string csv = ReadText(Fixture("seed003/hyperv-hv01.csv"));
  for (int i = 1; i <= extra; ++i) {
    const int s = 600 + 20 * i;
    char t[16];
    std::snprintf(t, sizeof t, "10:%02d:%02d", s / 60, s % 60);
    csv += std::string("\"11/02/2026 ") + t + ".000\",\"88\",\"85\",\"3\",\"44\",\"40.5\"\n";
  }
  return csv;
}

TEST_P(ServeTest, TheLatestWindowIsCompleteFollowsNewDataAndGoesWithAPrune) {
  const std::string db = NewStore(GetParam(), dir_.path());
  WriteText(dir_.File("guest.csv"), LongerGuest(20));  // a window more, with no host data yet
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir_.File("guest.csv"), Fixture("seed003/hyperv-hv01.csv")}).exit_code, 0);
  ASSERT_EQ(RunVrecon({"report", "--db", db, "--format", "csv", "--out", "-"}).exit_code, 0);
  const std::string start = "vrecon_vm_window_start_timestamp_seconds{vm=\"WEB01\",vm_key=\"hyperv:hv01/web01\"}";
  const double t1505 = static_cast<double>(*ParseIso("2026-11-02T15:05:00Z") / kNsPerSec);
  {
    ServeRunner serve(db);
    ASSERT_TRUE(serve.listening()) << serve.process().err();
    const auto p = ParseExposition(serve.Get("/metrics").second);
    EXPECT_EQ(p.samples.at(start), t1505) << "15:10 has no host data: not complete";
  }
  // The host's samples arrive: ingest recomputes the stored corrections, 15:10 becomes the latest.
  WriteText(dir_.File("host.csv"), LongerHost(15));
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir_.File("host.csv")}).exit_code, 0);
  ServeRunner serve(db);
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  auto p = ParseExposition(serve.Get("/metrics").second);
  EXPECT_EQ(p.samples.at(start), t1505 + 300);
  EXPECT_NEAR(p.samples.at("vrecon_process_corrected_cpu_percent{vm=\"WEB01\",vm_key=\"hyperv:hv01/web01\","
                           "process=\"A\"}"),
              48.2, 0.05);
  // The same server, a prune later: what it serves is read at each scrape.
  ASSERT_EQ(RunVrecon({"prune", "--db", db, "--corrections", "1d"}).exit_code, 0);
  p = ParseExposition(serve.Get("/metrics").second);
  EXPECT_EQ(p.samples.at("vrecon_vms"), 0);
  EXPECT_EQ(p.samples.count(start), 0u);
}

// /metrics carries `vrecon capacity`'s answers for every entity (+Inf where the forecast crosses
// nothing within the horizon), and /capacity is the report's Capacity section on a page.
TEST_P(ServeTest, MetricsAndTheCapacityPageCarryTheCapacityAnswers) {
  const std::string db = NewStore(GetParam(), dir_.path());
  WriteText(dir_.File("esxtop.csv"), EsxtopLog());
  WriteText(dir_.File("guests.csv"), CapacityGuests());
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir_.File("esxtop.csv"), dir_.File("guests.csv")}).exit_code, 0);
  CliResult cap = RunVrecon({"capacity", "--db", db, "--format", "csv"});
  ASSERT_EQ(cap.exit_code, 0) << cap.err;
  ServeRunner serve(db);
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  const auto [status, body] = serve.Get("/metrics");
  ASSERT_EQ(status, 200);
  const ParsedExposition p = ParseExposition(body);
  EXPECT_EQ(p.types.at("vrecon_capacity_time_remaining_days"), "gauge");
  // `vrecon capacity --format csv`: scope,name,key,...,usable_cores,demand_p95_cores,time_remaining_days
  std::stringstream rows(cap.out);
  std::string line;
  std::getline(rows, line);
  const std::vector<std::string> header = SplitCsv(line);
  int entities = 0;
  while (std::getline(rows, line)) {
    std::map<std::string, std::string> row;
    const std::vector<std::string> f = SplitCsv(line);
    for (size_t i = 0; i < header.size() && i < f.size(); ++i) row[header[i]] = f[i];
    const std::string labels = "{scope=\"" + row["scope"] + "\",name=\"" + row["name"] + "\",key=\"" + row["key"] +
                               "\",source=\"" + row["source"] + "\"}";
    ++entities;
    if (!row["usable_cores"].empty()) {
      EXPECT_DOUBLE_EQ(p.samples.at("vrecon_capacity_usable_cores" + labels), std::stod(row["usable_cores"]));
    }
    EXPECT_DOUBLE_EQ(p.samples.at("vrecon_capacity_demand_p95_cores" + labels), std::stod(row["demand_p95_cores"]))
        << labels;
    const double days = p.samples.at("vrecon_capacity_time_remaining_days" + labels);
    if (row["time_remaining_days"].empty()) {
      EXPECT_TRUE(std::isinf(days)) << labels << ": a forecast that crosses nothing";
    } else {
      EXPECT_EQ(days, std::stod(row["time_remaining_days"])) << labels;
    }
  }
  EXPECT_EQ(entities, 4) << "the host and its three VMs";
  EXPECT_TRUE(
      std::isinf(p.samples.at("vrecon_capacity_time_remaining_days{scope=\"vm\",name=\"DB02\",key=\"esxtop:"
                              "esx01.example.com/db02\",source=\"esxtop\"}")));

  const auto [page_status, page] = serve.Get("/capacity");
  ASSERT_EQ(page_status, 200) << page;
  EXPECT_NE(page.find("<section id=\"capacity\"><h2>Capacity</h2>"), std::string::npos);
  EXPECT_NE(page.find("<td>host</td><td>esx01.example.com</td>"), std::string::npos) << page.substr(0, 4000);
  EXPECT_NE(page.find("<svg class=\"chart\""), std::string::npos);
  const auto [one_status, one] = serve.Get("/capacity?vm=DB02");
  ASSERT_EQ(one_status, 200) << one;
  EXPECT_NE(one.find(">DB02<"), std::string::npos);
  EXPECT_EQ(one.find("esx01.example.com</td><td>esxtop"), std::string::npos) << "a VM's page: no host table rows";
}

INSTANTIATE_TEST_SUITE_P(Backends, ServeTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         BackendParamName);

TEST(ServeCliTest, RefusalsAreOneLineWithTheRightExitCode) {
  TempDir dir;
  CliResult r = RunVrecon({"serve", "--db", dir.File("none.db")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("none.db does not exist"), std::string::npos) << r.err;
  const std::string db = dir.File("s.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv")}).exit_code, 0);
  r = RunVrecon({"serve", "--db", db, "--listen", "0.0.0.0:0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a loopback address"), std::string::npos) << r.err;
  r = RunVrecon({"serve", "--db", db, "--listen", "9477"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("HOST:PORT"), std::string::npos) << r.err;
  r = RunVrecon({"serve", "--db", db, "--tls-cert", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("go together"), std::string::npos) << r.err;
}

TEST(ServeCliTest, UnknownPathsAre404AndABusyPortIsAnError) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv")}).exit_code, 0);
  ServeRunner serve(db);
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  const auto [status, body] = serve.Get("/etc/passwd");
  EXPECT_EQ(status, 404);
  EXPECT_EQ(body, "not found: vrecon serve answers /, /capacity, /api/vms, /api/vms/{vm_key}/windows and /metrics\n");
  const auto metrics = serve.Get("/metrics");
  EXPECT_EQ(metrics.first, 200);
  EXPECT_NE(metrics.second.find("vrecon_vms 0\n"), std::string::npos) << "no stored corrections yet";
  const CliResult busy = RunVrecon({"serve", "--db", db, "--listen", "127.0.0.1:" + std::to_string(serve.port())});
  EXPECT_EQ(busy.exit_code, 1);
  EXPECT_NE(busy.err.find("cannot listen on 127.0.0.1:" + std::to_string(serve.port())), std::string::npos) << busy.err;
}

// `collect --listen`: the collector serves /metrics from the store it writes, from its first
// round on, and both stop together.
TEST(ServeCliTest, ACollectorServesMetricsBesideItsRounds) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("drop"));
  std::filesystem::copy_file(Fixture("seed003/guest-web01.csv"), dir.File("drop/guest-web01.csv"));
  std::filesystem::copy_file(Fixture("seed003/hyperv-hv01.csv"), dir.File("drop/hyperv-hv01.csv"));
  WriteText(dir.File("fleet.toml"), "db = \"fleet.db\"\n[[drop_folder]]\npath = \"drop\"\n");
  Background collector({"collect", "--config", dir.File("fleet.toml"), "--every", "1h", "--listen", "127.0.0.1:0"});
  ASSERT_TRUE(collector.WaitForLog("round finished", 60)) << collector.err();
  std::smatch m;
  const std::string err = collector.err();
  ASSERT_TRUE(std::regex_search(err, m, std::regex(R"(metrics on http://127\.0\.0\.1:(\d+)/metrics)"))) << err;
  httplib::Client c("127.0.0.1", std::stoi(m[1]));
  auto res = c.Get("/metrics");
  ASSERT_TRUE(res);
  const ParsedExposition p = ParseExposition(res->body);
  EXPECT_NEAR(p.samples.at("vrecon_process_corrected_cpu_percent{vm=\"WEB01\",vm_key=\"hyperv:hv01/web01\","
                           "process=\"A\"}"),
              48.2, 0.05);
  const std::string up = "vrecon_source_up{source=\"" + dir.File("drop") + "\",kind=\"drop_folder\"}";
  ASSERT_EQ(p.samples.count(up), 1u) << res->body;
  EXPECT_EQ(p.samples.at(up), 1);
  collector.Signal(SIGTERM);
  EXPECT_EQ(collector.Wait(30).exit_code, 0);
  EXPECT_FALSE(c.Get("/metrics")) << "the server stops with the collector";

  const CliResult wide = RunVrecon({"collect", "--config", dir.File("fleet.toml"), "--once", "--listen", "0.0.0.0:0"});
  EXPECT_EQ(wide.exit_code, 2);
  EXPECT_NE(wide.err.find("not a loopback address"), std::string::npos) << wide.err;
}

// HTTPS with a certificate the client verifies; a non-loopback address is then allowed; a key
// that does not load is one error.
TEST(ServeCliTest, ServesHttpsWithTheGivenCertificate) {
  TempDir dir;
  const std::string db = dir.File("s.db"), cert = dir.File("cert.pem"), key = dir.File("key.pem");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv")}).exit_code, 0);
  const std::string openssl =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
      "-addext subjectAltName=IP:127.0.0.1 -keyout " +
      key + " -out " + cert + " 2>/dev/null";
  ASSERT_EQ(std::system(openssl.c_str()), 0) << "openssl (Debian's openssl) is needed";

  ServeRunner serve(db, {"--tls-cert", cert, "--tls-key", key});
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  EXPECT_NE(serve.process().err().find("https://127.0.0.1:"), std::string::npos);
  httplib::SSLClient c("127.0.0.1", serve.port());
  c.set_ca_cert_path(cert.c_str());
  c.enable_server_certificate_verification(true);
  auto res = c.Get("/metrics");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(res->body.find("# TYPE vrecon_vms gauge"), std::string::npos);
  httplib::SSLClient untrusting("127.0.0.1", serve.port());
  untrusting.enable_server_certificate_verification(true);
  untrusting.set_ca_cert_path(key.c_str());  // not a CA: the self-signed certificate is not trusted
  EXPECT_FALSE(untrusting.Get("/metrics"));
  EXPECT_EQ(serve.Get("/metrics").first, -1) << "plain HTTP gets no answer from the TLS port";

  ServeRunner wide(db, {"--listen", "0.0.0.0:0", "--tls-cert", cert, "--tls-key", key});
  EXPECT_TRUE(wide.process().WaitForLog("https://0.0.0.0:", 30)) << wide.process().err();

  const CliResult bad =
      RunVrecon({"serve", "--db", db, "--listen", "127.0.0.1:0", "--tls-cert", key, "--tls-key", key});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("cannot load the TLS certificate " + key), std::string::npos) << bad.err;
}

// --auth-file over real HTTP: 401 with a challenge until the right password is given; a file
// others may write is refused. The file's format: tests/serve/basic_auth_test.cc.
TEST(BasicAuthServeTest, RequestsNeedAUserOfTheFile) {
  TempDir dir;
  const std::string db = dir.File("s.db"), users = dir.File("users");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv")}).exit_code, 0);
  // `openssl passwd -6 -salt vrecon s3cret`
  WriteText(users,
            "bob:$6$vrecon$LePtEmPF5tjLdx2ZCAZA06S.jM.Xhk.3CF87T6Vk97HuPsa5849AXJrvftnjL5e5phbKHNacsqvd6Fhtcncs21\n");
  chmod(users.c_str(), 0664);
  const CliResult writable = RunVrecon({"serve", "--db", db, "--listen", "127.0.0.1:0", "--auth-file", users});
  EXPECT_EQ(writable.exit_code, 1);
  EXPECT_NE(writable.err.find("may be written by other users"), std::string::npos) << writable.err;
  chmod(users.c_str(), 0644);

  ServeRunner serve(db, {"--auth-file", users});
  ASSERT_TRUE(serve.listening()) << serve.process().err();
  httplib::Client c("127.0.0.1", serve.port());
  for (const char* path : {"/metrics", "/", "/api/vms", "/nope"}) {
    auto res = c.Get(path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 401) << path;
    EXPECT_EQ(res->get_header_value("WWW-Authenticate"), "Basic realm=\"vrecon\", charset=\"UTF-8\"");
    EXPECT_EQ(res->body, "authentication required\n");
  }
  c.set_basic_auth("bob", "wrong");
  EXPECT_EQ(c.Get("/metrics")->status, 401);
  c.set_basic_auth("bob", "s3cret");
  EXPECT_EQ(c.Get("/metrics")->status, 200);
  EXPECT_EQ(c.Get("/nope")->status, 404);
}

}  // namespace
}  // namespace vrecon::testing
