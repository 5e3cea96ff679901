// `vrecon collect --config` without a vCenter, through the real binary: every config error is
// refused with file, line and key (exit 2), the store lock, drop folders (each new or grown file
// once, bad files recorded), `vrecon status` and SIGHUP reload.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <regex>

#include "src/core/text_util.h"
#include "tests/support/background.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

namespace fs = std::filesystem;

struct BadConfig {
  const char* name;
  std::string toml;
  std::string expected;  // in stderr, after "fleet.toml:"
};

class FleetConfigTest : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directory(dir_.File("drop")); }
  std::string Write(const std::string& toml) {
    WriteText(dir_.File("fleet.toml"), toml);
    return dir_.File("fleet.toml");
  }
  CliResult Once(const std::string& config, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"collect", "--config", config, "--once", "--format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunVrecon(args);
  }
  TempDir dir_;
};

// Every check of the file is in tests/fleet/fleet_config_test.cc (in-process); here, through the
// binary, that a refused file is a usage error naming file, line and key, never repeats the
// password and creates no store.
TEST_F(FleetConfigTest, ABadKeyOrValueIsAUsageErrorWithFileLineAndKey) {
  const std::string open_file = dir_.File("open.pass");
  WriteText(open_file, "TopSecret-77\n");
  chmod(open_file.c_str(), 0644);
  WriteText(dir_.File("ca.pem"), "x");
  setenv("VRECON_TEST_PW", "pw", 1);
  const std::string vc = "[[vcenter]]\nurl = \"https://vc01.example/sdk\"\nuser = \"svc\"\n";
  const std::vector<BadConfig> cases = {
      {"window out of range", "window = 5\n", "1: window: must be from 20 to 86400 (got 5)"},
      {"password file open", vc + "password_file = \"open.pass\"\n",
       "4: vcenter[0].password_file: " + open_file + " is readable by group or others"},
      {"not TOML", "db = \"a.db\"\nwindow = = 3\n", "2: not valid TOML"},
  };
  for (const BadConfig& c : cases) {
    // Cases about one key get a valid drop folder so that only that key is wrong.
    std::string toml = c.toml;
    if (toml.find("[[") == std::string::npos && toml.find("no source") == std::string::npos &&
        std::string(c.name) != "no source" && std::string(c.name) != "vcenter not array of tables")
      toml += "[[drop_folder]]\npath = \"drop\"\n";
    CliResult r = Once(Write(toml), {"--db", dir_.File("x.db")});
    EXPECT_EQ(r.exit_code, 2) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(dir_.File("fleet.toml") + ":" + c.expected), std::string::npos)
        << c.name << ": expected \"" << c.expected << "\" in:\n"
        << r.err;
    EXPECT_EQ(r.err.find("TopSecret"), std::string::npos) << c.name << ": the password leaked";
  }
  unsetenv("VRECON_TEST_PW");
  EXPECT_FALSE(Exists(dir_.File("x.db"))) << "a refused configuration must not create the store";
}

// [[map]] pins a guest to one VM by vm_key where its name matches two (issue 13).
TEST_F(FleetConfigTest, MapEntryPinsAGuestToAVmKey) {
  auto esxtop = [](const std::string& host, double used) {
    std::string out = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\" + host + "\\Group Cpu(4242:APP01)\\% Used\"\r\n";
    for (int m = 0; m <= 10; ++m)
      out += "\"03/02/2026 10:" + std::string(m < 10 ? "0" : "") + std::to_string(m) + ":00\",\"" + FormatDouble(used) +
             "\"\r\n";
    return out;
  };
  std::string guest =
      "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\APP01\\Processor(0)\\% Processor Time\",\"\\\\APP01\\Processor(_Total)\\% "
      "Processor Time\"\r\n";
  for (int m = 0; m <= 10; ++m)
    guest += "\"03/02/2026 10:" + std::string(m < 10 ? "0" : "") + std::to_string(m) + ":00\",\"50\",\"50\"\r\n";
  WriteText(dir_.File("drop/a.csv"), esxtop("esx-a", 40));
  WriteText(dir_.File("drop/b.csv"), esxtop("esx-b", 80));
  WriteText(dir_.File("drop/g.csv"), guest);
  const std::string db = dir_.File("s.db");
  CliResult r =
      Once(Write("db = \"s.db\"\nsettle = \"1s\"\n[[map]]\nguest = \"APP01\"\nvm = \"esxtop:esx-b/app01\"\n"
                 "[[drop_folder]]\npath = \"drop\"\n"));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  CliResult c = RunVrecon({"correct", "--db", db, "--vm", "esxtop:esx-b/app01", "--format", "csv"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find(",80,1.6,"), std::string::npos) << c.out;  // w = 80 / 50 against esx-b's figure
  EXPECT_EQ(c.out.find("ambiguous-vm"), std::string::npos) << c.out;
}

TEST_F(FleetConfigTest, UsageErrorsExitTwo) {
  const std::string cfg = Write("db = \"s.db\"\n[[drop_folder]]\npath = \"drop\"\n");
  EXPECT_EQ(RunVrecon({"collect", "--config", cfg}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"collect", "--config", cfg, "--every", "5x"}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"collect", "--config", cfg, "--every", "5m", "--once"}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"collect", "--config", dir_.File("missing.toml"), "--once"}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"status", "--db", dir_.File("s.db"), "--stale-after", "soon"}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"collect", "--help"}).exit_code, 0);
  EXPECT_EQ(RunVrecon({"status", "--help"}).exit_code, 0);
}

TEST_F(FleetConfigTest, DropFolderIngestsEachNewOrGrownFileOnceAndRecordsBadFiles) {
  const std::string cfg = Write("db = \"s.db\"\nsettle = 1\n[[drop_folder]]\npath = \"drop\"\n");
  const std::string guest = ReadText(Fixture("seed003/guest-web01.csv"));
  const size_t cut = guest.find('\n', guest.size() / 2) + 1;
  WriteText(dir_.File("drop/guest-web01.csv"), guest.substr(0, cut));
  fs::copy_file(Fixture("seed003/hyperv-hv01.csv"), dir_.File("drop/hyperv-hv01.csv"));
  WriteText(dir_.File("drop/notes.txt"), "not a performance log\n");

  CliResult r1 = Once(cfg);
  EXPECT_EQ(r1.exit_code, 1) << "a bad file fails the folder's round: " << r1.err;
  EXPECT_NE(r1.out.find("\"detail\": \"2 of 3 files ingested\""), std::string::npos) << r1.out;
  const int64_t rows1 = JsonInt(r1.out, "rows");
  EXPECT_GT(rows1, 0);
  CliResult st = RunVrecon({"status", "--db", dir_.File("s.db"), "--format", "json"});
  EXPECT_NE(st.out.find("notes.txt"), std::string::npos) << "the bad file is named: " << st.out;

  // Unchanged files are not read again; the bad one is remembered until it changes.
  CliResult r2 = Once(cfg);
  EXPECT_EQ(r2.exit_code, 0) << r2.err << r2.out;
  EXPECT_EQ(JsonInt(r2.out, "rows"), 0);
  EXPECT_NE(r2.out.find("\"detail\": \"0 of 3 files ingested\""), std::string::npos) << r2.out;

  // The guest log grows: only its new rows are added.
  WriteText(dir_.File("drop/guest-web01.csv"), guest);
  CliResult r3 = Once(cfg);
  EXPECT_EQ(r3.exit_code, 0) << r3.err;
  const int64_t rows3 = JsonInt(r3.out, "rows");
  EXPECT_GT(rows3, 0);
  CliResult fresh = Ingest(dir_.File("once.db"), dir_.File("drop/guest-web01.csv"));
  const int64_t guest_rows = JsonInt(fresh.out, "rows");
  const int64_t host_rows = JsonInt(Ingest(dir_.File("once.db"), dir_.File("drop/hyperv-hv01.csv")).out, "rows");
  EXPECT_EQ(rows1 + rows3, guest_rows + host_rows) << "every row once, none twice";

  CliResult ok = RunVrecon({"status", "--db", dir_.File("s.db"), "--format", "csv"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err << ok.out;
  EXPECT_NE(ok.out.find(",drop_folder,ok,"), std::string::npos) << ok.out;
}

TEST_F(FleetConfigTest, StatusExitsOneForAStaleSource) {
  const std::string cfg = Write("db = \"s.db\"\n[[drop_folder]]\npath = \"drop\"\n[[drop_folder]]\npath = \"gone\"\n");
  CliResult r = Once(cfg);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("gone is not a readable directory"), std::string::npos) << r.err;
  CliResult st = RunVrecon({"status", "--db", dir_.File("s.db"), "--format", "json"});
  EXPECT_EQ(st.exit_code, 1) << "a source that never succeeded is stale";
  EXPECT_NE(st.out.find("\"state\": \"stale\""), std::string::npos) << st.out;
  EXPECT_NE(st.out.find("\"state\": \"ok\""), std::string::npos) << "the other folder went on: " << st.out;
  // One line per source that is not ok (issue 13), naming it and why.
  EXPECT_EQ(st.err, "vrecon: error: source " + dir_.File("gone") +
                        " stale: no success recorded (threshold 15m); last attempt failed: drop folder " +
                        dir_.File("gone") + " is not a readable directory\n");
  CliResult none = RunVrecon({"status", "--db", dir_.File("nothing.db")});
  EXPECT_EQ(none.exit_code, 1);
}

TEST_F(FleetConfigTest, ASecondCollectorOnTheSameStoreRefuses) {
  const std::string cfg = Write("db = \"s.db\"\n[[drop_folder]]\npath = \"drop\"\n");
  Background first({"collect", "--config", cfg, "--every", "1h"});
  ASSERT_TRUE(first.WaitForLog("round finished", 30)) << first.err();
  CliResult second = Once(cfg);
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_NE(second.err.find("another collector is writing " + dir_.File("s.db")), std::string::npos) << second.err;
  EXPECT_NE(second.err.find("pid " + std::to_string(first.pid())), std::string::npos) << second.err;
  // One line: UTC time, level, message.
  EXPECT_TRUE(
      std::regex_match(second.err, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ error: another collector [^\n]+\n)")))
      << second.err;
  first.Signal(SIGTERM);
  CliResult r = first.Wait(30);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Once(cfg).exit_code, 0) << "the lock goes with the first collector";
}

TEST_F(FleetConfigTest, SighupReloadsAndABadFileKeepsTheOldConfiguration) {
  fs::create_directory(dir_.File("drop2"));
  fs::copy_file(Fixture("seed003/guest-web01.csv"), dir_.File("drop2/guest-web01.csv"));
  const std::string cfg = Write("db = \"s.db\"\nsettle = 1\n[[drop_folder]]\npath = \"drop\"\n");
  Background bg({"collect", "--config", cfg, "--every", "2s", "--log-level", "debug"});
  ASSERT_TRUE(bg.WaitForLog("round finished", 30)) << bg.err();
  Write("db = \"s.db\"\nwindoww = 300\n");
  bg.Signal(SIGHUP);
  ASSERT_TRUE(bg.WaitForLog("reload refused", 10)) << bg.err();
  EXPECT_NE(bg.err().find("windoww: unknown key"), std::string::npos) << bg.err();
  Write("db = \"s.db\"\nsettle = 1\n[[drop_folder]]\npath = \"drop\"\n[[drop_folder]]\npath = \"drop2\"\n");
  bg.Signal(SIGHUP);
  ASSERT_TRUE(bg.WaitForLog("configuration reloaded", 10)) << bg.err();
  ASSERT_TRUE(bg.WaitForLog("drop2: ", 30)) << bg.err();
  bg.Signal(SIGINT);
  CliResult r = bg.Wait(30);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  CliResult st = RunVrecon({"status", "--db", dir_.File("s.db"), "--format", "csv"});
  EXPECT_NE(st.out.find(dir_.File("drop2") + ",drop_folder,ok"), std::string::npos) << st.out;
  EXPECT_NE(st.out.find(dir_.File("drop") + ",drop_folder,ok"), std::string::npos) << st.out;
}

}  // namespace
}  // namespace vrecon::testing
