// Capacity day digests kept in the store (src/engine/capacity_days.h), on both backends: a store
// fed a log in pieces, its digests brought up to date after each as a collector's rounds would,
// holds the days a store fed everything at once holds; a log of earlier days ingested late builds
// its days whole; the days outlive the samples retention removes.
#include "src/engine/capacity_days.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <random>

#include "src/engine/capacity_day_codec.h"
#include "src/engine/capacity_job.h"
#include "src/ingest/ingest_file.h"
#include "src/store/retention.h"
#include "tests/support/cli_runner.h"
#include "tests/support/sample_file.h"
#include "tests/support/test_store.h"

namespace vrecon::testing {
namespace {

constexpr TimeNs kStart = 20'393 * kNsPerDay;  // 2025-11-01T00:00:00Z
constexpr int kRowSeconds = 20;

// esxtop rows every 20 s from `from_s` to `to_s` seconds after kStart: WEB02's run, ready and
// co-stop, and the host's four PCPUs, values from the row's own seed (a row is the same in any piece).
std::string EsxtopPiece(int from_s, int to_s) {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* c : {"% Run", "% Ready", "% CoStop"})
    s += std::string(",\"\\\\esx01.example.com\\Group Cpu(101:WEB02)\\") + c + "\"";
  for (const char* pcpu : {"_Total", "0", "1", "2", "3"})
    s += std::string(",\"\\\\esx01.example.com\\Physical Cpu(") + pcpu + ")\\% Util Time\"";
  s += "\n";
  char b[160];
  for (int t = from_s; t < to_s; t += kRowSeconds) {
    std::mt19937 rng(static_cast<unsigned>(t));
    std::uniform_real_distribution<double> u(0, 1);
    const CivilTime c = CivilFromNs(kStart + static_cast<TimeNs>(t) * kNsPerSec);
    std::snprintf(b, sizeof b, "\"%02d/%02d/%04d %02d:%02d:%02d.000\"", c.month, c.day, c.year, c.hour, c.minute,
                  c.second);
    s += b;
    for (double v : {80 + 60 * u(rng), 10 * u(rng), 4 * u(rng), 30 + 40 * u(rng), 35.0, 35.0, 35.0, 35.0}) {
      std::snprintf(b, sizeof b, ",\"%.3f\"", v);
      s += b;
    }
    s += "\n";
  }
  return s;
}

using Days = std::map<std::pair<std::string, TimeNs>, StoredCapacityDay>;  // (entity, day)

class CapacityDaysTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(GetParam()); }

  std::unique_ptr<Store> NewStoreNamed(const std::string& name) {
    auto store = Store::Open(NewStore(GetParam(), dir_.path(), name));
    EXPECT_TRUE(store.ok()) << store.status().message();
    return store.ok() ? std::move(*store) : nullptr;
  }
  void Ingest(Store* store, int from_s, int to_s) {
    const std::string f = dir_.File("esxtop-" + std::to_string(from_s) + "-" + std::to_string(to_s) + ".csv");
    WriteText(f, EsxtopPiece(from_s, to_s));
    StatusOr<IngestResult> r = IngestFile(store, f, {});
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  std::vector<CapacityEntity> Capacity(Store* store) {
    StatusOr<std::vector<CapacityEntity>> r = RunCapacity(store, CapacityRequest{});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : std::vector<CapacityEntity>{};
  }
  Days StoredDays(Store* store, const std::vector<CapacityEntity>& entities) {
    Days out;
    for (const CapacityEntity& e : entities) {
      auto days = LoadCapacityDays(store, e.key, e.source, std::numeric_limits<TimeNs>::min(), true);
      EXPECT_TRUE(days.ok()) << days.status().message();
      for (StoredCapacityDay& d : *days) out[{e.key, d.day}] = std::move(d);
    }
    return out;
  }
  TempDir dir_;
};

void ExpectSameDays(const Days& got, const Days& want) {
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [key, w] : want) {
    SCOPED_TRACE(key.first + " day " + std::to_string(key.second / kNsPerDay));
    ASSERT_TRUE(got.contains(key));
    const StoredCapacityDay& g = got.at(key);
    EXPECT_EQ(g.counter, w.counter);
    EXPECT_EQ(g.bins, w.bins);
    EXPECT_NEAR(g.sum_cores, w.sum_cores, 1e-9);
    EXPECT_DOUBLE_EQ(g.max_cores, w.max_cores);
    ASSERT_TRUE(g.p95_cores && w.p95_cores);
    EXPECT_NEAR(*g.p95_cores, *w.p95_cores, 1e-9);
    EXPECT_EQ(g.end, w.end);
    EXPECT_NEAR(g.costop_pct.value_or(-1), w.costop_pct.value_or(-1), 1e-9);
  }
}

// Pieces of 47 min 20 s (not a whole number of 5-minute values), one across midnight: each round
// computes again the values from the one its new samples start in (the last round's last value,
// partly filled) and keeps those before. Both stores get the same files (a file's first row has
// no interval of its own).
TEST_P(CapacityDaysTest, DigestsUpdatedRoundByRoundAreTheDigestsOfEverything) {
  constexpr int kEnd = 30 * 3600, kPiece = 2840;
  auto rounds = NewStoreNamed("rounds.db"), once = NewStoreNamed("once.db");
  ASSERT_TRUE(rounds && once);
  for (int from = 0; from < kEnd; from += kPiece) {
    Ingest(rounds.get(), from, std::min(from + kPiece, kEnd));
    Capacity(rounds.get());
    Ingest(once.get(), from, std::min(from + kPiece, kEnd));
  }
  const std::vector<CapacityEntity> entities = Capacity(once.get());
  ASSERT_EQ(entities.size(), 2u) << "the host and WEB02";
  const Days want = StoredDays(once.get(), entities);
  ASSERT_EQ(want.size(), 4u) << "two days each";
  EXPECT_EQ(want.begin()->second.bins, 288);
  ExpectSameDays(StoredDays(rounds.get(), entities), want);
  const std::vector<CapacityEntity> again = Capacity(rounds.get());
  ASSERT_EQ(again.size(), entities.size());
  for (size_t i = 0; i < again.size(); ++i) {
    EXPECT_EQ(again[i].key, entities[i].key);
    EXPECT_NEAR(again[i].demand_p95_cores.value_or(-1), entities[i].demand_p95_cores.value_or(-2), 1e-9);
    EXPECT_EQ(again[i].as_of, entities[i].as_of);
  }
}

// Rounds that fetch again the 5 minutes before their new ones (a collector's marks moved back):
// each computes again the values from its first sample's, not the day.
TEST_P(CapacityDaysTest, RoundsThatOverlapTheLastAreReadFromTheirFirstSample) {
  constexpr int kEnd = 10 * 3600, kPiece = 1800, kOverlap = 300;
  auto rounds = NewStoreNamed("rounds.db"), once = NewStoreNamed("once.db");
  ASSERT_TRUE(rounds && once);
  for (int from = 0; from < kEnd; from += kPiece) {
    const int start = std::max(0, from - kOverlap);
    Ingest(rounds.get(), start, from + kPiece);
    Capacity(rounds.get());
    Ingest(once.get(), start, from + kPiece);
  }
  const std::vector<CapacityEntity> entities = Capacity(once.get());
  ASSERT_EQ(entities.size(), 2u);
  ExpectSameDays(StoredDays(rounds.get(), entities), StoredDays(once.get(), entities));
}

// A log of the day before, ingested after the later day's digests were made: its samples start
// a day back, so the values from its first on are computed again.
TEST_P(CapacityDaysTest, ALateLogOfEarlierDaysBuildsTheirDaysAgain) {
  auto late = NewStoreNamed("late.db"), once = NewStoreNamed("once.db");
  ASSERT_TRUE(late && once);
  Ingest(late.get(), 86400, 2 * 86400);
  Capacity(late.get());
  Ingest(late.get(), 12 * 3600, 86400);
  Capacity(late.get());
  Ingest(once.get(), 86400, 2 * 86400);
  Ingest(once.get(), 12 * 3600, 86400);
  const std::vector<CapacityEntity> entities = Capacity(once.get());
  ASSERT_EQ(entities.size(), 2u);
  ExpectSameDays(StoredDays(late.get(), entities), StoredDays(once.get(), entities));
}

// Retention removes the samples of the first days; their digests stay and the answers with them.
TEST_P(CapacityDaysTest, DaysOutliveTheSamplesRetentionRemoves) {
  auto store = NewStoreNamed("kept.db");
  ASSERT_TRUE(store);
  Ingest(store.get(), 0, 3 * 86400);
  ASSERT_TRUE(RefreshCapacityDigests(store.get()).ok());
  PruneRequest prune;
  prune.samples_before = kStart + 2 * kNsPerDay;
  prune.now = kStart + 3 * kNsPerDay;
  StatusOr<PruneResult> pruned = Prune(store.get(), prune);
  ASSERT_TRUE(pruned.ok()) << pruned.status().message();
  ASSERT_GT(pruned->time_blocks, 0);
  const std::vector<CapacityEntity> after = Capacity(store.get());
  ASSERT_EQ(after.size(), 2u);
  for (const CapacityEntity& e : after) {
    EXPECT_EQ(e.history_days, 3) << e.key;
    EXPECT_EQ(e.as_of, kStart + 3 * kNsPerDay) << e.key;
  }
  // A store that never had the first days' digests: retention took their samples for good.
  auto bare = NewStoreNamed("bare.db");
  ASSERT_TRUE(bare);
  Ingest(bare.get(), 0, 3 * 86400);
  ASSERT_TRUE(Prune(bare.get(), prune).ok());
  for (const CapacityEntity& e : Capacity(bare.get())) EXPECT_LT(e.history_days, 3) << e.key;
}

INSTANTIATE_TEST_SUITE_P(Backends, CapacityDaysTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         BackendParamName);

std::vector<models::DemandBin> Bins(int n, TimeNs from = kStart) {
  std::vector<models::DemandBin> out;
  for (int i = 0; i < n; ++i) out.push_back({from + i * models::kDemandBinNs, 0.5 + 0.1 * (i % 9)});
  return out;
}

TEST(CapacityDayCodecTest, ADayReadsBackAsWritten) {
  std::vector<models::DemandBin> bins = Bins(288);
  bins.erase(bins.begin() + 100, bins.begin() + 150);  // two runs
  bins.back().cores = 250;                             // a large host's step
  const std::vector<models::DemandBin> costop{{kStart, 0.04}, {kStart + 9 * models::kDemandBinNs, 0.02}};
  for (const bool with_costop : {true, false}) {
    models::DemandDay d = models::DigestDays(bins, with_costop ? costop : std::vector<models::DemandBin>{}).at(kStart);
    d.reach = kStart + 11 * models::kDemandBinNs + 40 * kNsPerSec;
    d.block_seen = 1234;
    const std::string blob = EncodeDemandDay(d);
    StatusOr<models::DemandDay> back = DecodeDemandDay(blob, kStart);
    ASSERT_TRUE(back.ok()) << back.status().message();
    ASSERT_EQ(back->Bins(), d.Bins());
    for (size_t i = 0; i < d.bins.size(); ++i) {
      EXPECT_EQ(back->bins[i].index, d.bins[i].index);
      EXPECT_EQ(back->bins[i].milli, d.bins[i].milli);
      EXPECT_EQ(back->bins[i].costop, d.bins[i].costop);
    }
    EXPECT_EQ(back->reach, d.reach);
    EXPECT_EQ(back->block_seen, 1234);
    EXPECT_LE(blob.size(), (with_costop ? 4 : 2) * bins.size() + 32) << "a byte or two a value and figure";
    // What a right size reads of it, without the whole decode.
    std::vector<int32_t> values{7};
    std::pair<int64_t, int64_t> costop{1, 1};
    ASSERT_TRUE(AppendDayValues(blob, &values, &costop).ok());
    std::vector<int32_t> want{7};
    for (const int32_t v : d.Values()) want.push_back(v);
    EXPECT_EQ(values, want);
    EXPECT_EQ(costop, (std::pair<int64_t, int64_t>{1 + d.CostopSum().first, 1 + d.CostopSum().second}));
  }
}

TEST(CapacityDayCodecTest, ATruncatedOrForeignBlobIsAnError) {
  const std::string blob = EncodeDemandDay(models::DigestDays(Bins(12), {}).at(kStart));
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, blob.size() / 2, blob.size() - 1}) {
    StatusOr<models::DemandDay> d = DecodeDemandDay(blob.substr(0, n), kStart);
    EXPECT_FALSE(d.ok()) << n;
    std::vector<int32_t> values;
    std::pair<int64_t, int64_t> costop;
    EXPECT_FALSE(AppendDayValues(blob.substr(0, n), &values, &costop).ok()) << n;
  }
  EXPECT_FALSE(DecodeDemandDay(blob + "x", kStart).ok());
  std::string other = blob;
  other[0] = 9;
  EXPECT_FALSE(DecodeDemandDay(other, kStart).ok());
  // A run of 12 values from the 280th: past the day's 288.
  std::string past_the_day("\x01\x00\x01\x98\x02\x0c", 6);
  past_the_day += std::string(12 + 16, '\0');
  EXPECT_FALSE(DecodeDemandDay(past_the_day, kStart).ok());
  past_the_day[4] = 0x01;  // from the 152nd (0x18 + 128): in the day, reads back
  EXPECT_TRUE(DecodeDemandDay(past_the_day, kStart).ok());
}

// A collector every 5 minutes brings each VM's digests up to date once an hour, about a twelfth of
// them a round; one that runs every minute also once an hour each; all of them after a restart
// whose previous round is unknown or over an hour ago.
TEST(CapacityDigestsDueTest, EachVmOnceAnHourSpreadOverTheRounds) {
  std::set<std::string> keys;
  for (int i = 0; i < 1200; ++i) keys.insert("vsphere:vc-1/vm-" + std::to_string(i));
  const TimeNs t0 = DaysFromCivil(2026, 11, 2) * kNsPerDay + 7 * 60 * kNsPerSec;  // off the hour
  for (const TimeNs step : {5 * 60 * kNsPerSec, 60 * kNsPerSec}) {
    std::map<std::string, int> times;
    size_t most = 0;
    for (TimeNs t = t0 + step; t <= t0 + kNsPerHour; t += step) {
      const std::set<std::string> due = CapacityDigestsDue(keys, t, t - step);
      most = std::max(most, due.size());
      for (const std::string& k : due) ++times[k];
    }
    EXPECT_EQ(times.size(), keys.size()) << "every VM within the hour";
    for (const auto& [k, n] : times) EXPECT_EQ(n, 1) << k;
    const size_t rounds = static_cast<size_t>(kNsPerHour / step);
    EXPECT_LT(most, 2 * keys.size() / rounds) << "spread over the rounds, not all in one";
  }
  EXPECT_EQ(CapacityDigestsDue(keys, t0, std::nullopt), keys) << "no round before";
  EXPECT_EQ(CapacityDigestsDue(keys, t0, t0 - 2 * kNsPerHour), keys) << "the last round two hours ago";
  EXPECT_EQ(CapacityDigestsDue(keys, t0, t0 + 60 * kNsPerSec), keys) << "a clock set back";
}

}  // namespace
}  // namespace vrecon::testing
