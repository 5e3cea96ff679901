// Hostile and careless use of the command line (issue 15, part 3), through the real binary: each
// case either works or ends with one clear "vrecon: error:" line and the documented exit status.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

class HostileCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = dir_.File("s.db");
    ASSERT_EQ(RunVrecon({"ingest", "--db", db_, Fixture("seed003/guest-web01.csv"), Fixture("seed003/hyperv-hv01.csv")})
                  .exit_code,
              0);
  }
  TempDir dir_;
  std::string db_;
};

TEST_F(HostileCliTest, FromAfterToIsAUsageError) {
  for (const char* command : {"correct", "samples", "ready", "counters", "report"}) {
    std::vector<std::string> args = {command, "--db", db_, "--from", "2026-11-03", "--to", "2026-11-02"};
    if (std::string(command) == "report") args.insert(args.end(), {"--out", dir_.File("r.html")});
    CliResult r = RunVrecon(args);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_NE(r.err.find("vrecon: error: --to 2026-11-02 is not after --from 2026-11-03"), std::string::npos)
        << command << ": " << r.err;
  }
}

TEST_F(HostileCliTest, ADayThatIsNotInItsMonthIsAUsageError) {
  CliResult r = RunVrecon({"correct", "--db", db_, "--from", "2026-02-30"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.err.rfind("vrecon: error: --from", 0), 0u) << r.err;
}

TEST_F(HostileCliTest, NonsenseNumbersAreRefused) {
  for (const auto& [option, value] : {std::pair<std::string, std::string>{"--idle-threshold", "nan"},
                                      {"--idle-threshold", "inf"},
                                      {"--idle-threshold", "-1"},
                                      {"--top", "-1"},
                                      {"--top", "ten"}}) {
    CliResult r = RunVrecon({"correct", "--db", db_, option, value});
    EXPECT_EQ(r.exit_code, 2) << option << " " << value << ": " << r.out;
    EXPECT_EQ(r.err.rfind("vrecon: error: " + option, 0), 0u) << r.err;
  }
  EXPECT_EQ(RunVrecon({"correct", "--db", db_, "--idle-threshold", "2.5", "--top", "0"}).exit_code, 0);
  // A duration past what nanoseconds in 64 bits hold is refused, not overflowed (collect vsphere
  // had its own parser without the fleet file's bounds).
  for (const char* since : {"1e7d", "1e300", "0", "nan"}) {
    CliResult r =
        RunVrecon({"collect", "vsphere", "--url", "https://127.0.0.1:1/sdk", "--user", "u", "--since", since});
    EXPECT_EQ(r.exit_code, 2) << since << ": " << r.err;
    EXPECT_NE(r.err.find("--since \"" + std::string(since) + "\" is not a duration"), std::string::npos) << r.err;
  }
}

TEST_F(HostileCliTest, UsageErrorsSayVreconError) {
  CliResult r = RunVrecon({"correct", "--no-such-option"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("vrecon: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("vrecon correct --help"), std::string::npos) << r.err;
  EXPECT_EQ(RunVrecon({"--help"}).exit_code, 0);
  EXPECT_EQ(RunVrecon({"--version"}).exit_code, 0);
}

TEST_F(HostileCliTest, OneMissingFileAmongSeveralIsSkippedAndNamed) {
  const std::string other = dir_.File("other.db");
  CliResult r = RunVrecon({"ingest", "--db", other, Fixture("seed003/guest-web01.csv"), dir_.File("nope.csv"),
                           Fixture("seed003/hyperv-hv01.csv")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("nope.csv"), std::string::npos) << r.err;
  CliResult files = RunVrecon({"samples", "--db", other, "--format", "csv"});
  EXPECT_NE(files.out.find("WEB01"), std::string::npos);
  EXPECT_NE(files.out.find("HV01"), std::string::npos) << "the file after the missing one is read too";
}

TEST_F(HostileCliTest, ReportOutThatIsADirectoryIsRefusedAndLeavesNothing) {
  const std::string out = dir_.File("reports");
  std::filesystem::create_directory(out);
  CliResult r = RunVrecon({"report", "--db", db_, "--out", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
  EXPECT_EQ(FilesStartingWith(out + ".partial"), std::vector<std::string>{});
}

// A directory, a FIFO (opening one without a writer would block for ever) and a symlink loop as
// log files: one clear line each, exit 1, no store left behind.
TEST_F(HostileCliTest, PathsThatAreNotFilesEndWithOneLine) {
  const std::string fifo = dir_.File("pipe"), loop = dir_.File("loop"), sub = dir_.File("sub");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_symlink(loop, loop);
  std::filesystem::create_directory(sub);
  for (const auto& [path, says] : {std::pair<std::string, std::string>{fifo, "is a pipe (FIFO)"},
                                   {loop, "Too many levels of symbolic links"},
                                   {sub, "is a directory"}}) {
    const std::string db = dir_.File("new.db");
    CliResult r = RunVrecon({"ingest", "--db", db, path});
    EXPECT_EQ(r.exit_code, 1) << path << ": " << r.err;
    EXPECT_EQ(r.err.rfind("vrecon: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(db)) << "nothing was read: no store is left";
  }
}

}  // namespace
}  // namespace vrecon::testing
