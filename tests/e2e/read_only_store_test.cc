// A store the user can read but not write (issue 15, part 3): on a read-only file system, or a
// file of another user. Commands that write refuse it with one line and leave nothing beside it;
// commands that read work, and `report` renders what it computed and says it could not store it.
// Root ignores file permissions, so the cases need a read-only bind mount (root with
// CAP_SYS_ADMIN) and another user (setpriv); each is skipped where the machine cannot do it.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "src/store/schema.h"
#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// `src` (a directory) seen read-only at `mnt` while the object lives.
class ReadOnlyMount {
 public:
  ReadOnlyMount(const std::string& src, const std::string& mnt) : mnt_(mnt) {
    fs::create_directories(mnt);
    ok_ = std::system(("mount --bind '" + src + "' '" + mnt + "' 2>/dev/null").c_str()) == 0;
    if (ok_ && std::system(("mount -o remount,bind,ro '" + mnt + "' 2>/dev/null").c_str()) != 0) {
      std::system(("umount '" + mnt + "'").c_str());
      ok_ = false;
    }
  }
  ~ReadOnlyMount() {
    if (ok_) std::system(("umount '" + mnt_ + "'").c_str());
  }
  bool ok() const { return ok_; }

 private:
  std::string mnt_;
  bool ok_ = false;
};

class ReadOnlyStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(src_);
    ASSERT_EQ(RunVrecon({"ingest", "--db", src_ + "/s.db", Fixture("seed003/guest-web01.csv"),
                         Fixture("seed003/hyperv-hv01.csv")})
                  .exit_code,
              0);
  }
  TempDir dir_;
  std::string src_ = dir_.File("src"), mnt_ = dir_.File("mnt");
};

TEST_F(ReadOnlyStoreTest, OnAReadOnlyFileSystemReadersWorkAndWritersSayWhy) {
  ReadOnlyMount ro(src_, mnt_);
  if (!ro.ok()) GTEST_SKIP() << "cannot mount read-only here (needs root and CAP_SYS_ADMIN)";
  const std::string db = mnt_ + "/s.db";
  const std::string before = ReadText(db);

  const CliResult in = RunVrecon({"ingest", "--db", db, Fixture("powercli/enus-type.csv")});
  EXPECT_EQ(in.exit_code, 1);
  EXPECT_EQ(in.err, "vrecon: error: store " + db + " is read-only: it is on a read-only file system; this command " +
                        "writes to it\n");

  const CliResult c = RunVrecon({"correct", "--db", db, "--format", "csv"});
  EXPECT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("48.2"), std::string::npos) << c.out;
  for (const char* command : {"samples", "counters", "status", "capacity"})  // capacity: digests not kept
    EXPECT_EQ(RunVrecon({command, "--db", db}).exit_code, 0) << command;

  // No stored corrections yet and none can be stored: the report computes them and says so.
  const CliResult r = RunVrecon({"report", "--db", db, "--format", "csv", "--out", dir_.File("r.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("is read-only (it is on a read-only file system): the corrections are computed for this "
                       "report and not stored"),
            std::string::npos)
      << r.err;
  EXPECT_NE(ReadText(dir_.File("r.csv")).find("WEB01"), std::string::npos);
  EXPECT_EQ(ReadText(db), before);
  EXPECT_EQ(Entries(src_), std::vector<std::string>{"s.db"});
}

TEST_F(ReadOnlyStoreTest, AnOldStoreThatCannotBeMigratedSaysSo) {
  fs::copy_file(Fixture("stores/v5-two-vcenters.db"), src_ + "/old.db");
  ReadOnlyMount ro(src_, mnt_);
  if (!ro.ok()) GTEST_SKIP() << "cannot mount read-only here (needs root and CAP_SYS_ADMIN)";
  const CliResult c = RunVrecon({"correct", "--db", mnt_ + "/old.db"});
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_EQ(c.err, "vrecon: error: store " + mnt_ + "/old.db has schema version 5 and this vrecon uses " +
                       std::to_string(kSchemaVersion) + "; it is " +
                       "read-only here (it is on a read-only file system), so it cannot be migrated: open it once " +
                       "with write access\n");
}

// Runs a copy of the binary (the build tree may not be reachable by other users) as nobody.
int RunAsNobody(const std::string& bin, const std::vector<std::string>& args, std::string* err) {
  std::string cmd = "setpriv --reuid=65534 --regid=65534 --clear-groups '" + bin + "'";
  for (const std::string& a : args) cmd += " '" + a + "'";
  const std::string err_file = fs::path(bin).parent_path() / "err";
  const int status = std::system((cmd + " >/dev/null 2>'" + err_file + "'").c_str());
  *err = ReadText(err_file);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(ReadOnlyStoreTest, AnotherUsersStoreIsReadWithoutWritingAndNeverIngestedInto) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to act as another user";
  const std::string bin = dir_.File("bin/vrecon");
  fs::create_directories(dir_.File("bin"));
  fs::copy_file(VRECON_BIN, bin);
  chmod(dir_.path().c_str(), 0755);
  chmod(dir_.File("bin").c_str(), 0777);
  chmod(src_.c_str(), 0777);  // the directory is writable: only the file is not
  const std::string db = src_ + "/s.db";
  chmod(db.c_str(), 0444);
  std::string err;
  if (RunAsNobody(bin, {"--version"}, &err) != 0) GTEST_SKIP() << "cannot run as nobody here: " << err;
  const std::string log = src_ + "/more.csv";
  fs::copy_file(Fixture("powercli/enus-type.csv"), log);
  chmod(log.c_str(), 0644);

  EXPECT_EQ(RunAsNobody(bin, {"ingest", "--db", db, log}, &err), 1);
  EXPECT_EQ(err, "vrecon: error: store " + db + " is read-only: the file is not writable (Permission denied); this " +
                     "command writes to it\n");
  EXPECT_EQ(Entries(src_), (std::vector<std::string>{"more.csv", "s.db"})) << "no -wal or -shm left behind";

  EXPECT_EQ(RunAsNobody(bin, {"report", "--db", db, "--format", "csv", "--out", dir_.File("bin/r.csv")}, &err), 0)
      << err;
  EXPECT_NE(err.find("the corrections are computed for this report and not stored"), std::string::npos) << err;
  EXPECT_NE(ReadText(dir_.File("bin/r.csv")).find("WEB01"), std::string::npos);
}

}  // namespace
}  // namespace vrecon::testing
