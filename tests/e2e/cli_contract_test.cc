// The command-line contract: help, exit codes, error lines, output shapes.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <regex>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

TEST(CliContractTest, EveryCommandHasHelp) {
  for (const char* cmd : {"ingest", "correct", "samples", "serve", "report", "prune", "status", "ready", "capacity"}) {
    CliResult r = RunVrecon({cmd, "--help"});
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("--db"), std::string::npos) << cmd;
  }
  CliResult r = RunVrecon({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("ingest"), std::string::npos);
}

// The version and the commit the binary was built from: the source tree's HEAD when it is a git
// checkout (marked -modified when tracked files differ), else "unknown".
TEST(CliContractTest, VersionNamesTheCommit) {
  const CliResult r = RunVrecon({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  std::smatch m;
  ASSERT_TRUE(
      std::regex_match(r.out, m, std::regex(R"(vrecon \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-modified)?|unknown)\)\n)")))
      << r.out;
  const std::string src = std::string(VRECON_FIXTURES_DIR) + "/..";
  std::string head;
  if (FILE* p = popen(("git -C '" + src + "' rev-parse --short=12 HEAD 2>/dev/null").c_str(), "r")) {
    char buf[64] = {};
    if (fgets(buf, sizeof buf, p)) head = buf;
    pclose(p);
  }
  if (head.size() >= 12) {
    EXPECT_EQ(m[1].str().substr(0, 12), head.substr(0, 12));
  }
}

TEST(CliContractTest, BadUsageExitsTwo) {
  EXPECT_EQ(RunVrecon({}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"nonsense"}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"correct", "--format", "xml"}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"correct", "--window", "abc"}).exit_code, 2);
  CliResult both = RunVrecon({"correct", "--db", "x.db", "--guest", Fixture("seed003/guest-web01.csv")});
  EXPECT_EQ(both.exit_code, 2);
  CliResult from = RunVrecon({"samples", "--db", ":memory:", "--from", "last tuesday"});
  EXPECT_EQ(from.exit_code, 2);
  EXPECT_NE(from.err.find("--from"), std::string::npos);
}

TEST(CliContractTest, FailuresExitOneWithOneLineNamingTheFile) {
  TempDir dir;
  WriteText(dir.File("empty.csv"), "");
  CliResult r = RunVrecon({"ingest", "--db", dir.File("s.db"), dir.File("empty.csv")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(dir.File("empty.csv")), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("s.db"))) << "a failed ingest into a new store leaves nothing";

  CliResult missing = RunVrecon({"correct", "--db", dir.File("nope.db")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nope.db"), std::string::npos);
}

TEST(CliContractTest, UnknownVmIsAnError) {
  CliResult r = RunVrecon({"correct", "--guest", Fixture("seed003/guest-web01.csv"), "--host",
                           Fixture("seed003/hyperv-hv01.csv"), "--vm", "NOPE"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("NOPE"), std::string::npos);
}

TEST(CliContractTest, SamplesJsonShape) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, Fixture("seed003/guest-web01.csv")}).exit_code, 0);
  CliResult r = RunVrecon({"samples", "--db", db, "--machine", "web01", "--object", "Processor", "--instance", "0",
                           "--counter", "% Processor Time", "--format", "json", "--to", "2026-11-02T15:00:15Z"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"samples\": [\n"
            "  {\"source\": \"guest\", \"machine\": \"WEB01\", \"object\": \"Processor\", \"instance\": \"0\", "
            "\"counter\": \"% Processor Time\", \"start\": \"2026-11-02T15:00:00.000Z\", \"end\": "
            "\"2026-11-02T15:00:00.000Z\", \"value\": null, \"unit\": \"percent\", \"original\": "
            "\"\\\\\\\\WEB01\\\\Processor(0)\\\\% Processor Time\"},\n"
            "  {\"source\": \"guest\", \"machine\": \"WEB01\", \"object\": \"Processor\", \"instance\": \"0\", "
            "\"counter\": \"% Processor Time\", \"start\": \"2026-11-02T15:00:00.000Z\", \"end\": "
            "\"2026-11-02T15:00:15.000Z\", \"value\": 73, \"unit\": \"percent\", \"original\": "
            "\"\\\\\\\\WEB01\\\\Processor(0)\\\\% Processor Time\"}\n"
            "]}\n");
}

TEST(CliContractTest, MapOptionJoinsDifferentlyNamedGuest) {
  TempDir dir;
  std::string guest = ReadText(Fixture("seed003/guest-web01.csv"));
  for (size_t p; (p = guest.find("\\\\WEB01\\")) != std::string::npos;) guest.replace(p, 8, "\\\\SRV-7\\");
  WriteText(dir.File("g.csv"), guest);
  CliResult unmapped = RunVrecon({"correct", "--guest", dir.File("g.csv"), "--host", Fixture("seed003/hyperv-hv01.csv"),
                                  "--vm", "SRV-7", "--format", "csv"});
  EXPECT_NE(unmapped.out.find("missing-host"), std::string::npos) << unmapped.out;
  CliResult mapped = RunVrecon({"correct", "--guest", dir.File("g.csv"), "--host", Fixture("seed003/hyperv-hv01.csv"),
                                "--map", "srv-7=web01", "--vm", "WEB01", "--format", "csv"});
  ASSERT_EQ(mapped.exit_code, 0) << mapped.err;
  EXPECT_NE(mapped.out.find("WEB01,2026-11-02T15:00:00Z,2026-11-02T15:05:00Z,1,73,88,"), std::string::npos)
      << mapped.out;
}

}  // namespace
}  // namespace vrecon::testing
