// Plain http:// to a vCenter sends the password in clear, so it is refused (exit 2, before any
// connection) unless the user says --allow-insecure-http, or allow_insecure_http = true in the
// fleet file; when allowed, every run warns. Through the real binary against the fake vCenter,
// which speaks plain HTTP.
#include <gtest/gtest.h>

#include <cstdlib>

#include "src/core/text_util.h"
#include "tests/support/cli_runner.h"
#include "tests/support/fake_vcenter.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

int Requests(const FakeVcenter& vc) {
  int n = 0;
  for (const char* op : {"RetrieveServiceContent", "Login", "QueryPerf", "Logout"}) n += vc.Count(op);
  return n;
}

class InsecureHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    vc_ = FakeVcenter::Start({.max_query_metrics = 4});
    ASSERT_NE(vc_, nullptr);
    setenv("VRECON_TEST_FAKE_PW", vc_->options().password.c_str(), 1);
    setenv("VRECON_VSPHERE_PASSWORD", vc_->options().password.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("VRECON_TEST_FAKE_PW");
    unsetenv("VRECON_VSPHERE_PASSWORD");
  }
  CliResult Collect(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        "collect", "vsphere",           "--url",   vc_->url(), "--user",    vc_->options().user,
        "--db",    dir_.File("cli.db"), "--since", "5m",       "--timeout", "5"};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunVrecon(args);
  }
  std::string Fleet(bool allow) {
    const std::string path = dir_.File("fleet.toml");
    WriteText(path, "db = \"fleet.db\"\nsince = \"5m\"\nretries = 0\n[[vcenter]]\nname = \"fake\"\nurl = \"" +
                        vc_->url() + "\"\nuser = \"" + vc_->options().user +
                        "\"\npassword_env = \"VRECON_TEST_FAKE_PW\"\n" + (allow ? "allow_insecure_http = true\n" : ""));
    return path;
  }
  std::string host() const { return UrlHost(vc_->url()); }  // 127.0.0.1:PORT
  std::unique_ptr<FakeVcenter> vc_;
  TempDir dir_;
};

TEST_F(InsecureHttpTest, CommandLineRefusesPlainHttpWithoutTheFlag) {
  CliResult r = Collect({});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_EQ(
      r.err.rfind("vrecon: error: --url " + vc_->url() + " is plain HTTP: the password would cross the network to " +
                      host() + " unencrypted; use https://, or pass --allow-insecure-http",
                  0),
      0u)
      << r.err;
  EXPECT_EQ(Requests(*vc_), 0) << "refused before any connection";
  EXPECT_FALSE(Exists(dir_.File("cli.db"))) << "nothing written";
  EXPECT_EQ(r.err.find(vc_->options().password), std::string::npos);
}

TEST_F(InsecureHttpTest, CommandLineAcceptsPlainHttpWithTheFlagAndWarns) {
  CliResult r = Collect({"--allow-insecure-http"});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(r.err, "vrecon: warning: --allow-insecure-http: the password is sent unencrypted to " + host() + "\n");
  EXPECT_EQ(vc_->Count("Login"), 1);
  EXPECT_GT(vc_->Count("QueryPerf"), 0);
}

TEST_F(InsecureHttpTest, OtherSchemesAreUsageErrors) {
  CliResult r = RunVrecon({"collect", "vsphere", "--url", "ftp://vc01.example/sdk", "--user", "u", "--db",
                           dir_.File("cli.db"), "--allow-insecure-http"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--url ftp://vc01.example/sdk must start with https://"), std::string::npos) << r.err;
}

TEST_F(InsecureHttpTest, HelpNamesTheFlag) {
  CliResult r = RunVrecon({"collect", "vsphere", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--allow-insecure-http"), std::string::npos) << r.out;
}

TEST_F(InsecureHttpTest, FleetFileRefusesPlainHttpWithoutTheKey) {
  const std::string config = Fleet(false);
  CliResult r = RunVrecon({"collect", "--config", config, "--once"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(config + ":6: vcenter[0].url: plain http:// would send the password to " + host() +
                       " unencrypted; use https://, or set allow_insecure_http = true in this [[vcenter]] table"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_EQ(Requests(*vc_), 0) << "refused before any connection";
  EXPECT_FALSE(Exists(dir_.File("fleet.db")));
}

TEST_F(InsecureHttpTest, FleetFileAcceptsPlainHttpWithTheKeyAndWarnsEachRound) {
  const std::string config = Fleet(true);
  for (int round = 1; round <= 2; ++round) {
    CliResult r = RunVrecon({"collect", "--config", config, "--once"});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.err.find(" warn: fake: allow_insecure_http = true: the password is sent unencrypted to " + host()),
              std::string::npos)
        << "round " << round << ": " << r.err;
  }
  EXPECT_EQ(vc_->Count("Login"), 2);
}

}  // namespace
}  // namespace vrecon::testing
