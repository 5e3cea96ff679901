#include "src/store/staged_store.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "tests/support/cli_runner.h"

namespace vrecon {
namespace {

using vrecon::testing::TempDir;

// Files in `dir` other than the store itself and its -wal/-shm.
std::vector<std::string> Others(const TempDir& dir, const std::string& store) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    const std::string p = e.path().string();
    if (p != store && p != store + "-wal" && p != store + "-shm") out.push_back(p);
  }
  return out;
}

std::string MappingOf(Store* store, const std::string& guest) {
  auto m = store->Mappings();
  EXPECT_TRUE(m.ok());
  if (!m.ok() || !m->count(guest)) return "";
  return m->at(guest);
}

TEST(StagedStoreTest, NothingIsAtTheTargetUntilPublished) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  auto staged = StagedStore::Begin(db);
  ASSERT_TRUE(staged.ok()) << staged.status().message();
  ASSERT_TRUE(staged->store()->SetMapping("g1", "VM1").ok());
  EXPECT_FALSE(std::filesystem::exists(db));
  bool ours = false;
  auto store = staged->Publish(&ours);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_TRUE(ours);
  EXPECT_EQ(MappingOf(store->get(), "g1"), "VM1");
  EXPECT_EQ(Others(dir, db), std::vector<std::string>{}) << "the private files are gone";
}

TEST(StagedStoreTest, DroppedUnpublishedItLeavesNothing) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  {
    auto staged = StagedStore::Begin(db);
    ASSERT_TRUE(staged.ok());
    ASSERT_TRUE(staged->store()->SetMapping("g1", "VM1").ok());
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Two runs staging one store: the first to publish wins; the second opens the winner's store,
// and what it wrote into its own is not there (the caller writes it again).
TEST(StagedStoreTest, TheSecondToPublishOpensTheFirstsStore) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  auto a = StagedStore::Begin(db), b = StagedStore::Begin(db);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE(a->store()->SetMapping("g1", "from-a").ok());
  ASSERT_TRUE(b->store()->SetMapping("g1", "from-b").ok());
  bool a_ours = false, b_ours = true;
  auto sa = a->Publish(&a_ours);
  auto sb = b->Publish(&b_ours);
  ASSERT_TRUE(sa.ok() && sb.ok());
  EXPECT_TRUE(a_ours);
  EXPECT_FALSE(b_ours);
  EXPECT_EQ(MappingOf(sb->get(), "g1"), "from-a");
  EXPECT_EQ(Others(dir, db), std::vector<std::string>{});
}

// A killed ingest into a new store leaves its private store (a whole ingest's worth): the next
// run creating that store removes it. One of a process that runs (here pid 1) stays.
TEST(StagedStoreTest, APrivateStoreAKilledRunLeftIsRemovedByTheNext) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  const pid_t gone = fork();
  if (gone == 0) _exit(0);
  ASSERT_GT(gone, 0);
  waitpid(gone, nullptr, 0);
  const std::string stale = db + ".creating-" + std::to_string(gone) + "-0";
  const std::string live = db + ".creating-1-0";
  for (const std::string& f : {stale, stale + "-wal", live}) testing::WriteText(f, "left behind");
  auto staged = StagedStore::Begin(db);
  ASSERT_TRUE(staged.ok()) << staged.status().message();
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_FALSE(std::filesystem::exists(stale + "-wal"));
  EXPECT_TRUE(std::filesystem::exists(live));
}

TEST(StagedStoreTest, AnErrorNamesTheTargetNotThePrivatePath) {
  TempDir dir;
  const std::string db = dir.File("missing-dir/s.db");
  auto staged = StagedStore::Begin(db);
  ASSERT_FALSE(staged.ok());
  EXPECT_NE(staged.status().message().find(db), std::string::npos) << staged.status().message();
  EXPECT_EQ(staged.status().message().find(".creating-"), std::string::npos) << staged.status().message();
}

}  // namespace
}  // namespace vrecon
