#include "src/store/window_blocks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "src/store/store.h"
#include "tests/support/cli_runner.h"
#include "tests/support/time_units.h"

namespace vrecon {
namespace {

using vrecon::testing::TempDir;

using vrecon::testing::kS;
constexpr TimeNs kDay0 = 1793836800 * kS;  // 2026-11-05T00:00:00Z
constexpr TimeNs kMinT = std::numeric_limits<TimeNs>::min();
constexpr TimeNs kMaxT = std::numeric_limits<TimeNs>::max();

StoredWindow Window(TimeNs start, double guest) {
  StoredWindow w;
  w.start = start;
  w.end = start + 300 * kS;
  w.vcpus = 2;
  w.guest_util = guest;
  w.host_util = guest * 1.2;
  w.w = 1.2;
  w.guest_cov = 1;
  w.host_cov = 0.5;
  return w;
}

std::vector<StoredWindow> Read(Store* store, int64_t vm, TimeNs from = kMinT, TimeNs to = kMaxT) {
  std::vector<StoredWindow> out;
  EXPECT_TRUE(ForEachCorrWindow(store, vm, from, to, [&](const StoredWindow& w) {
                out.push_back(w);
                return true;
              }).ok());
  return out;
}

// Windows every 300 s from `from` for `n` windows, guest value = index.
std::vector<StoredWindow> Windows(TimeNs from, int n, double base = 0) {
  std::vector<StoredWindow> v;
  v.reserve(n);
  for (int i = 0; i < n; ++i) v.push_back(Window(from + i * 300 * kS, base + i));
  return v;
}

int64_t AddVm(Store* store, const std::string& name) {
  auto id = UpsertCorrVm(store, CorrVm{0, name, name, "vsphere", 2, "vsphere:" + name, "vc", "cpu.usage.average"});
  EXPECT_TRUE(id.ok());
  return *id;
}

TEST(WindowBlocksTest, BlockRoundTripKeepsMissingFieldsMissing) {
  StoredWindow a = Window(kDay0, 12.5);
  a.flags = {{"high-ready", Severity::kWarning, "ready 12% per vCPU"}, {"gap", Severity::kInfo, "no data\tfor 5 min"}};
  a.clock_offset_s = -3.25;
  StoredWindow b;  // nothing but coverage: every optional missing, NaN counted as missing
  b.start = kDay0 + 300 * kS;
  b.end = b.start + 300 * kS;
  b.steal = std::nan("");
  b.guest_cov = 0;
  b.host_cov = 1;
  const std::vector<StoredWindow> in = {a, b};
  std::vector<StoredWindow> out;
  ASSERT_TRUE(DecodeWindowBlock(EncodeWindowBlock(in), [&](const StoredWindow& w) {
                out.push_back(w);
                return true;
              }).ok());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].start, a.start);
  EXPECT_EQ(out[0].end, a.end);
  EXPECT_EQ(out[0].vcpus, 2);
  EXPECT_EQ(out[0].guest_util, 12.5);
  EXPECT_EQ(out[0].host_util, 15.0);
  EXPECT_EQ(out[0].w, 1.2);
  EXPECT_FALSE(out[0].steal);
  EXPECT_EQ(out[0].clock_offset_s, -3.25);
  EXPECT_EQ(out[0].host_cov, 0.5);
  ASSERT_EQ(out[0].flags.size(), 2u);
  EXPECT_EQ(out[0].flags[1].code, "gap");
  EXPECT_EQ(out[0].flags[1].message, "no data for 5 min");
  EXPECT_FALSE(out[1].vcpus);
  EXPECT_FALSE(out[1].guest_util);
  EXPECT_FALSE(out[1].steal);
  EXPECT_FALSE(out[1].clock_offset_s);
  EXPECT_TRUE(out[1].flags.empty());
  EXPECT_EQ(out[1].host_cov, 1.0);
}

// A window with the processor's utility: block version 2 (a second presence mask), read back;
// blocks without it stay version 1, byte for byte what an older vrecon wrote and reads.
TEST(WindowBlocksTest, UtilityIsKeptInVersionTwoAndOnlyThere) {
  std::vector<StoredWindow> in = Windows(kDay0, 3);
  const std::string v1 = EncodeWindowBlock(in);
  EXPECT_EQ(v1[0], 1);
  in[1].guest_utility = 61.25;
  in[2].guest_utility = std::nan("");  // missing, as a NaN is
  const std::string v2 = EncodeWindowBlock(in);
  EXPECT_EQ(v2[0], 2);
  EXPECT_EQ(v2.size(), v1.size() + 3 + 8);  // a mask byte a window, one value
  std::vector<StoredWindow> out;
  ASSERT_TRUE(DecodeWindowBlock(v2, [&](const StoredWindow& w) {
                out.push_back(w);
                return true;
              }).ok());
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FALSE(out[0].guest_utility);
  EXPECT_EQ(out[1].guest_utility, 61.25);
  EXPECT_FALSE(out[2].guest_utility);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].guest_util, in[i].guest_util) << i;
    EXPECT_EQ(out[i].host_cov, in[i].host_cov) << i;
  }
  auto none = [](const StoredWindow&) { return true; };
  for (size_t cut = 2; cut <= 24; ++cut)  // inside the first window: its times, masks and vCPUs
    EXPECT_TRUE(DecodeWindowBlock(v2.substr(0, cut), none).IsParseError()) << cut;
  EXPECT_TRUE(DecodeWindowBlock(v2.substr(0, v2.size() - 1), none).IsParseError());
  std::string unknown = v2;
  unknown[1 + 16 + 1] = 2;  // the first window's second mask: a field this vrecon has not
  EXPECT_TRUE(DecodeWindowBlock(unknown, none).IsParseError());
}

TEST(WindowBlocksTest, TruncatedOrUnknownBlocksAreErrors) {
  const std::string block = EncodeWindowBlock(Windows(kDay0, 3));
  auto none = [](const StoredWindow&) { return true; };
  for (size_t cut : {size_t{0}, size_t{5}, block.size() - 1})
    EXPECT_TRUE(DecodeWindowBlock(block.substr(0, cut), none).IsParseError()) << cut;
  std::string future = block;
  future[0] = 9;
  EXPECT_TRUE(DecodeWindowBlock(future, none).IsParseError());
}

TEST(WindowBlocksTest, ReplacingARangeKeepsTheWindowsAroundIt) {
  auto store = Store::Open(":memory:");
  const int64_t vm = AddVm(store->get(), "WEB01");
  const int64_t other = AddVm(store->get(), "DB01");
  // Three days, 288 windows each.
  ASSERT_TRUE(ReplaceCorrWindows(store->get(), vm, kMinT, kMaxT, Windows(kDay0, 3 * 288)).ok());
  ASSERT_TRUE(ReplaceCorrWindows(store->get(), other, kMinT, kMaxT, Windows(kDay0, 10, 1000)).ok());
  EXPECT_EQ(CountCorrWindows(store->get()).value(), 3 * 288 + 10);

  // Replace day 1 10:30 to day 2 02:20 (190 windows; both ends inside an hour block) with
  // windows covering only its first hour.
  const TimeNs from = kDay0 + 86400 * kS + 10 * 3600 * kS + 1800 * kS;
  const TimeNs to = kDay0 + 2 * 86400 * kS + 2 * 3600 * kS + 1200 * kS;
  ASSERT_TRUE(ReplaceCorrWindows(store->get(), vm, from, to, Windows(from, 12, 500)).ok());
  const auto all = Read(store->get(), vm);
  ASSERT_EQ(all.size(), static_cast<size_t>(3 * 288 - 190 + 12));
  for (size_t i = 1; i < all.size(); ++i) ASSERT_LT(all[i - 1].start, all[i].start);
  for (const StoredWindow& w : all) {
    if (w.start >= from && w.start < to) {
      EXPECT_GE(*w.guest_util, 500);  // new
      EXPECT_LT(w.start, from + 3600 * kS);
    } else {
      const int64_t window_index = (w.start - kDay0) / (300 * kS);
      EXPECT_EQ(*w.guest_util, static_cast<double>(window_index));  // kept
    }
  }
  EXPECT_EQ(Read(store->get(), other).size(), 10u);  // another VM untouched
  EXPECT_EQ(CountCorrWindows(store->get()).value(), static_cast<int64_t>(all.size()) + 10);

  // Reading a range gives the windows overlapping it, across blocks and days, in order.
  const auto part = Read(store->get(), vm, kDay0 + 86400 * kS - 1, kDay0 + 86400 * kS + 600 * kS);
  ASSERT_EQ(part.size(), 3u);
  EXPECT_EQ(part[0].start, kDay0 + 86400 * kS - 300 * kS);
  EXPECT_EQ(part[2].start, kDay0 + 86400 * kS + 300 * kS);

  // Replacing everything with nothing empties the VM; a stop request ends the stream.
  ASSERT_TRUE(ReplaceCorrWindows(store->get(), other, kMinT, kMaxT, {}).ok());
  EXPECT_TRUE(Read(store->get(), other).empty());
  int seen = 0;
  ASSERT_TRUE(ForEachCorrWindow(store->get(), vm, kMinT, kMaxT, [&](const StoredWindow&) { return ++seen < 5; }).ok());
  EXPECT_EQ(seen, 5);
}

TEST(WindowBlocksTest, SameStartTwiceKeepsTheLastGiven) {
  auto store = Store::Open(":memory:");
  const int64_t vm = AddVm(store->get(), "WEB01");
  std::vector<StoredWindow> in = {Window(kDay0, 1), Window(kDay0, 2), Window(kDay0 + 300 * kS, 3)};
  ASSERT_TRUE(ReplaceCorrWindows(store->get(), vm, kMinT, kMaxT, in).ok());
  const auto out = Read(store->get(), vm);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(*out[0].guest_util, 2.0);
}

TEST(WindowBlocksTest, ACorruptBlockNamesTheVmHourAndStore) {
  TempDir dir;
  auto store = Store::Open(dir.File("s.db"));
  Database* db = (*store)->db();
  const int64_t vm = AddVm(store->get(), "WEB01");
  ASSERT_TRUE(ReplaceCorrWindows(store->get(), vm, kMinT, kMaxT, Windows(kDay0, 4)).ok());
  ASSERT_TRUE(db->Exec("UPDATE corr_window_block SET data = substr(data, 1, 20)").ok());
  Status st = ForEachCorrWindow(store->get(), vm, kMinT, kMaxT, [](const StoredWindow&) { return true; });
  ASSERT_TRUE(st.IsParseError());
  EXPECT_NE(st.message().find("2026-11-05T00:00:00Z"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find(dir.File("s.db")), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("--recompute"), std::string::npos) << st.message();
}

// A version-4 store (windows one row each) opened by this vrecon: migration 5 moves the rows into
// day blocks, missing values stay missing, and the old table is gone.
// Migration 5's data step on version-4 rows. Migration 6 drops stored corrections (they were
// keyed by name), so a store of version 4 opened today keeps none: the step is run directly.
TEST(WindowBlocksTest, MigrationFiveMovesVersionFourRows) {
  TempDir dir;
  auto store = Store::Open(dir.File("v4.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  Database* db = (*store)->db();
  const int64_t vm = AddVm(store->get(), "WEB01");
  ASSERT_TRUE(db->Exec(R"sql(
CREATE TABLE corr_window(
  vm_id INTEGER NOT NULL REFERENCES corr_vm(id), start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  vcpus INTEGER, guest_util REAL, host_util REAL, w REAL, steal REAL, ready REAL, costop REAL,
  clock_offset_s REAL, guest_cov REAL NOT NULL, host_cov REAL NOT NULL, flags TEXT NOT NULL,
  PRIMARY KEY(vm_id, start_ns)) WITHOUT ROWID;
)sql")
                  .ok());
  {
    auto ins =
        db->Prepare("INSERT INTO corr_window VALUES(?1, ?2, ?3, ?4, ?5, NULL, NULL, 3.5, NULL, NULL, NULL, 1, 0, ?6)");
    ASSERT_TRUE(ins.ok());
    // 290 windows over 25 UTC hours and two days.
    for (int i = 0; i < 290; ++i) {
      const TimeNs start = kDay0 + i * 300 * kS;
      ins->Bind(1, vm).Bind(2, static_cast<int64_t>(start)).Bind(3, static_cast<int64_t>(start + 300 * kS));
      ins->Bind(4, int64_t{4}).Bind(5, static_cast<double>(i));
      ins->Bind(6, i == 289 ? std::string_view("warning\tgap\tno data\n") : std::string_view(""));
      ASSERT_TRUE(ins->Run().ok());
    }
  }
  ASSERT_TRUE(MoveCorrWindowsIntoBlocks(db).ok());
  auto vms = ListCorrVms(store->get());
  ASSERT_EQ(vms->size(), 1u);
  const auto all = Read(store->get(), (*vms)[0].id);
  ASSERT_EQ(all.size(), 290u);
  EXPECT_EQ(*all[289].guest_util, 289.0);
  EXPECT_EQ(all[289].vcpus, 4);
  EXPECT_EQ(all[289].steal, 3.5);
  EXPECT_FALSE(all[289].host_util);
  ASSERT_EQ(all[289].flags.size(), 1u);
  EXPECT_EQ(all[289].flags[0].code, "gap");
  auto blocks = db->Prepare("SELECT count(*), sum(windows) FROM corr_window_block");
  ASSERT_TRUE(blocks->Step().value());
  EXPECT_EQ(blocks->ColumnInt(0), 25);
  EXPECT_EQ(blocks->ColumnInt(1), 290);
  auto old = db->Prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'corr_window'");
  ASSERT_TRUE(old->Step().value());
  EXPECT_EQ(old->ColumnInt(0), 0);
}

}  // namespace
}  // namespace vrecon
