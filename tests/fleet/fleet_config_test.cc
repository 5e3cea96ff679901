// The fleet file's checks (src/fleet/fleet_config.cc), in-process: every bad key or value is
// refused with one sentence "FILE:LINE: KEY: what is wrong", and no message repeats a password.
// The environment is a stand-in; files (the CA, the password files) are real, in a temp dir.
#include "src/fleet/fleet_config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <map>

#include "tests/support/cli_runner.h"

namespace vrecon::fleet {
namespace {

using vrecon::testing::TempDir;
using vrecon::testing::WriteText;

struct BadConfig {
  const char* name;
  std::string toml;
  std::string expected;  // in the message, after "<dir>/fleet.toml:"
};

class FleetConfigParseTest : public ::testing::Test {
 protected:
  // The system's lookups, with the environment replaced by `env_`.
  ConfigLookups Lookups() {
    ConfigLookups l = SystemLookups();
    l.env = [this](const std::string& name) -> std::optional<std::string> {
      auto it = env_.find(name);
      if (it == env_.end()) return std::nullopt;
      return it->second;
    };
    return l;
  }
  StatusOr<FleetConfig> Parse(const std::string& toml) { return ParseFleetConfig(toml, path_, Lookups()); }

  TempDir dir_;
  const std::string path_ = dir_.File("fleet.toml");
  std::map<std::string, std::string> env_ = {{"VRECON_TEST_PW", "pw"}};
};

TEST_F(FleetConfigParseTest, EachBadKeyOrValueIsRefusedWithFileLineAndKey) {
  const std::string open_file = dir_.File("open.pass");
  WriteText(open_file, "TopSecret-77\n");
  chmod(open_file.c_str(), 0644);
  WriteText(dir_.File("ca.pem"), "x");
  const std::string vc = "[[vcenter]]\nurl = \"https://vc01.example/sdk\"\nuser = \"svc\"\n";
  const std::string pw = "password_env = \"VRECON_TEST_PW\"\n";
  const std::vector<BadConfig> cases = {
      {"unknown top key", "db = \"a.db\"\ncolour = 1\n", "2: colour: unknown key"},
      {"window not integer", "window = \"five\"\n", "1: window: must be an integer, not a string"},
      {"window out of range", "window = 5\n", "1: window: must be from 20 to 86400 (got 5)"},
      {"since not a duration", "since = \"soon\"\n", "1: since: must be a positive duration"},
      {"retries out of range", "retries = 11\n", "1: retries: must be from 0 to 10 (got 11)"},
      {"unknown vcenter key", vc + pw + "concurency = 4\n", "5: vcenter[0].concurency: unknown key"},
      {"concurrency zero", vc + pw + "concurrency = 0\n", "5: vcenter[0].concurrency: must be from 1 to 64 (got 0)"},
      {"backfill past a year", vc + pw + "backfill_days = 400\n",
       "5: vcenter[0].backfill_days: must be from 0 to 365 (got 400)"},
      {"url missing", "[[vcenter]]\nuser = \"svc\"\n" + pw, "1: vcenter[0].url: missing (required)"},
      {"url scheme", "[[vcenter]]\nurl = \"ftp://vc\"\nuser = \"u\"\n" + pw,
       "2: vcenter[0].url: must start with https://"},
      {"plain http", "[[vcenter]]\nuser = \"u\"\nurl = \"http://vc02.example/sdk\"\n" + pw,
       "3: vcenter[0].url: plain http:// would send the password to vc02.example unencrypted; use https://, or set "
       "allow_insecure_http = true"},
      {"plain http, key false",
       "[[vcenter]]\nurl = \"HTTP://vc02.example/sdk\"\nallow_insecure_http = false\nuser = \"u\"\n" + pw,
       "2: vcenter[0].url: plain http://"},
      {"allow_insecure_http not bool", vc + pw + "allow_insecure_http = 1\n",
       "5: vcenter[0].allow_insecure_http: must be true or false"},
      {"user missing", "[[vcenter]]\nurl = \"https://vc/sdk\"\n" + pw, "1: vcenter[0].user: missing (required)"},
      {"password env unset", vc + "password_env = \"VRECON_TEST_UNSET_PW\"\n",
       "4: vcenter[0].password_env: environment variable VRECON_TEST_UNSET_PW is not set"},
      {"no password", vc, "1: vcenter[0].password_env: missing: give password_env or password_file"},
      {"password file open", vc + "password_file = \"open.pass\"\n",
       "4: vcenter[0].password_file: " + open_file + " is readable by group or others"},
      {"password file missing", vc + "password_file = \"none.pass\"\n", "4: vcenter[0].password_file: cannot read"},
      {"ca and insecure", vc + pw + "ca = \"ca.pem\"\ninsecure = true\n",
       "6: vcenter[0].insecure: give ca or insecure"},
      {"ca missing", vc + pw + "ca = \"nope.pem\"\n", "5: vcenter[0].ca: no such file"},
      {"vms not array", vc + pw + "vms = \"WEB*\"\n", "5: vcenter[0].vms: must be an array of strings"},
      {"insecure not bool", vc + pw + "insecure = \"yes\"\n", "5: vcenter[0].insecure: must be true or false"},
      {"vcenter not array of tables", "vcenter = 3\n", "1: vcenter: must be written as [[vcenter]] tables"},
      {"same vcenter twice", vc + pw + vc + pw, "5: vcenter[1]: a second source named https://vc01.example/sdk"},
      {"drop folder path missing", "[[drop_folder]]\nrecursive = true\n", "1: drop_folder[0].path: missing (required)"},
      {"drop folder unknown key", "[[drop_folder]]\npath = \"drop\"\npattern = \"*.csv\"\n",
       "3: drop_folder[0].pattern: unknown key"},
      {"mapping not string", "[mappings]\n\"web01\" = 3\n[[drop_folder]]\npath = \"drop\"\n",
       "2: mappings.web01: must be the VM name"},
      {"vsphere counter", "vsphere_counter = \"ready\"\n[[drop_folder]]\npath = \"drop\"\n",
       "1: vsphere_counter: must be \"usage\" or \"run\""},
      {"esxtop counter", "esxtop_counter = \"usage\"\n[[drop_folder]]\npath = \"drop\"\n",
       "1: esxtop_counter: must be \"used\" or \"run\""},
      {"map without vm", "[[map]]\nguest = \"web01\"\n[[drop_folder]]\npath = \"drop\"\n",
       "1: map[0].vm: missing (required)"},
      {"map unknown key", "[[map]]\nguest = \"a\"\nvm = \"b\"\nhost = \"x\"\n[[drop_folder]]\npath = \"drop\"\n",
       "4: map[0].host: unknown key"},
      {"map not array of tables", "map = \"a=b\"\n[[drop_folder]]\npath = \"drop\"\n",
       "1: map: must be written as [[map]] tables"},
      {"retention shorter for corrections", "retain_samples = \"30d\"\nretain_corrections = \"10d\"\n",
       "2: retain_corrections: is shorter than retain_samples"},
      {"retention not a duration", "retain_samples = \"forever\"\n", "1: retain_samples: must be a positive duration"},
      {"not TOML", "db = \"a.db\"\nwindow = = 3\n", "2: not valid TOML"},
      {"no source", "db = \"a.db\"\n", "1: vcenter: the file names no source"},
  };

  for (const BadConfig& c : cases) {
    // Cases about one key get a valid drop folder so that only that key is wrong.
    std::string toml = c.toml;
    if (toml.find("[[") == std::string::npos && std::string(c.name) != "no source" &&
        std::string(c.name) != "vcenter not array of tables")
      toml += "[[drop_folder]]\npath = \"drop\"\n";
    const auto cfg = Parse(toml);
    ASSERT_FALSE(cfg.ok()) << c.name;
    EXPECT_TRUE(cfg.status().IsInvalidArgument()) << c.name << ": " << cfg.status().message();
    EXPECT_NE(cfg.status().message().find(path_ + ":" + c.expected), std::string::npos)
        << c.name << ": expected \"" << c.expected << "\" in:\n"
        << cfg.status().message();
    EXPECT_EQ(cfg.status().message().find("TopSecret"), std::string::npos) << c.name << ": the password leaked";
  }
}

TEST_F(FleetConfigParseTest, AGoodFileGivesEveryValueAndResolvesPasswordsAndPaths) {
  const std::string pass = dir_.File("vc02.pass");
  WriteText(pass, "s3cret\n");
  chmod(pass.c_str(), 0600);
  const auto cfg = Parse(
      "db = \"fleet.db\"\nwindow = 600\nsince = \"2h\"\nretries = 1\nretry_backoff = \"5s\"\n"
      "retain_samples = \"35d\"\nretain_corrections = \"400d\"\nvsphere_counter = \"run\"\nesxtop_counter = \"run\"\n"
      "[mappings]\n\"web01\" = \"WEB01 (prod)\"\n"
      "[[vcenter]]\nurl = \"https://vc01.example/sdk\"\nuser = \"svc\"\npassword_env = \"VRECON_TEST_PW\"\n"
      "vms = [\"WEB*\"]\nexclude = [\"WEB-test*\"]\nconcurrency = 2\nbackfill_days = 90\n"
      "[[vcenter]]\nname = \"vc02\"\nurl = \"https://vc02.example/sdk\"\nuser = \"svc\"\npassword_file = "
      "\"vc02.pass\"\n"
      "[[drop_folder]]\npath = \"drop\"\nrecursive = true\n");
  ASSERT_TRUE(cfg.ok()) << cfg.status().message();
  EXPECT_EQ(cfg->db, dir_.File("fleet.db")) << "relative to the file's directory";
  EXPECT_EQ(cfg->window_s, 600);
  EXPECT_EQ(cfg->since, 2 * 3600 * kNsPerSec);
  EXPECT_EQ(cfg->retries, 1);
  EXPECT_EQ(cfg->retry_backoff, 5 * kNsPerSec);
  EXPECT_EQ(cfg->retain_samples, 35 * 86400 * kNsPerSec);
  EXPECT_EQ(cfg->retain_corrections, 400 * 86400 * kNsPerSec);
  EXPECT_EQ(cfg->host_counters.vsphere, VsphereCounter::kRun);
  EXPECT_EQ(cfg->host_counters.esxtop, EsxtopCounter::kRun);
  EXPECT_EQ(cfg->mappings.at("web01"), "WEB01 (prod)");
  ASSERT_EQ(cfg->vcenters.size(), 2u);
  EXPECT_EQ(cfg->vcenters[0].id, "https://vc01.example/sdk");
  EXPECT_EQ(cfg->vcenters[0].password, "pw");
  EXPECT_EQ(cfg->vcenters[0].include, std::vector<std::string>{"WEB*"});
  EXPECT_EQ(cfg->vcenters[0].exclude, std::vector<std::string>{"WEB-test*"});
  EXPECT_EQ(cfg->vcenters[0].concurrency, 2);
  EXPECT_EQ(cfg->vcenters[0].backfill_days, 90);
  EXPECT_EQ(cfg->vcenters[1].id, "vc02");
  EXPECT_EQ(cfg->vcenters[1].password, "s3cret");
  ASSERT_EQ(cfg->drop_folders.size(), 1u);
  EXPECT_EQ(cfg->drop_folders[0].path, dir_.File("drop"));
  EXPECT_TRUE(cfg->drop_folders[0].recursive);
}

TEST(FleetDurationTest, UnitsAndBareSeconds) {
  EXPECT_EQ(ParseDuration("30"), 30 * kNsPerSec);
  EXPECT_EQ(ParseDuration("30s"), 30 * kNsPerSec);
  EXPECT_EQ(ParseDuration("5m"), 300 * kNsPerSec);
  EXPECT_EQ(ParseDuration("1h"), 3600 * kNsPerSec);
  EXPECT_EQ(ParseDuration("2d"), 2 * 86400 * kNsPerSec);
  for (const char* bad : {"", "soon", "5 parsecs", "-5m", "0"}) EXPECT_FALSE(ParseDuration(bad).has_value()) << bad;
}

}  // namespace
}  // namespace vrecon::fleet
