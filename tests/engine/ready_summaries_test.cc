// Stored Ready-Time summaries kept a day at a time (src/engine/ready_summaries.h), on both
// backends: storing the corrections of a new day updates that day only, and gives the summary a
// store holding every day from the start gives; the days before are left as stored.
#include "src/engine/ready_summaries.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>
#include <tuple>

#include "src/engine/ready_digest_codec.h"
#include "src/engine/refresh_corrections.h"
#include "src/engine/stored_corrections.h"
#include "src/ingest/ingest_file.h"
#include "src/store/ready_tables.h"
#include "src/store/retention.h"
#include "tests/support/cli_runner.h"
#include "tests/support/sample_file.h"
#include "tests/support/test_store.h"

namespace vrecon::testing {
namespace {

// An esxtop batch capture of two VMs and the host's load (unless `host_load` is false): 20 s rows
// from `from_s` (01:00) to `to_s` (04:00) seconds into 2026-11-0<day> UTC, values from a seed.
std::string EsxtopDay(int day, unsigned seed, int from_s = 3600, int to_s = 4 * 3600, bool host_load = true) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* vm : {"101:WEB02", "102:DB02"})
    for (const char* c : {"% Used", "% Run", "% Ready", "% CoStop", "% Wait"})
      s += std::string(",\"\\\\esx01.example.com\\Group Cpu(") + vm + ")\\" + c + "\"";
  if (host_load) s += ",\"\\\\esx01.example.com\\Physical Cpu(_Total)\\% Util Time\"";
  s += "\n";
  char b[64];
  for (int t = from_s; t < to_s; t += 20) {
    std::snprintf(b, sizeof b, "\"11/%02d/2026 %02d:%02d:%02d.000\"", day, t / 3600, t / 60 % 60, t % 60);
    s += b;
    for (int vm = 0; vm < 2; ++vm) {
      const double ready = 30 * u(rng) * u(rng);
      for (double v : {60 + 40 * u(rng), 70 + 30 * u(rng), ready, u(rng) < 0.3 ? 10 * u(rng) : 0.0, 100 * u(rng)}) {
        std::snprintf(b, sizeof b, ",\"%.3f\"", v);
        s += b;
      }
    }
    std::snprintf(b, sizeof b, ",\"%.2f\"", 50 + 40 * u(rng));
    if (host_load) s += b;
    s += "\n";
  }
  return s;
}

class ReadySummariesTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override {
    VRECON_NEED_BACKEND(GetParam());
    for (int day = 1; day <= 3; ++day) WriteText(Day(day), EsxtopDay(day, 10 + day));
    // The guests' Processor(n) instances give the VMs' vCPU counts (esxtop does not).
    std::string guests = "\"(PDH-CSV 4.0) (UTC)(0)\"";
    for (const char* vm : {"WEB02", "DB02"})
      for (const char* cpu : {"0", "1"})
        guests += std::string(",\"\\\\") + vm + "\\Processor(" + cpu + ")\\% Processor Time\"";
    WriteText(dir_.File("guests.csv"), guests + "\n\"11/01/2026 01:00:00.000\",\"5\",\"5\",\"5\",\"5\"\n");
  }
  std::string Day(int day) const { return dir_.File("esxtop-day" + std::to_string(day) + ".csv"); }
  // As `vrecon ingest --db db files...` does, in this process: the files, then the stored
  // corrections refreshed over their new rows.
  void Ingest(const std::string& db, const std::vector<std::string>& files) {
    auto store = Store::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().message();
    std::optional<TimeNs> first, last;
    for (const std::string& f : files) {
      StatusOr<IngestResult> r = IngestFile(store->get(), f, {});
      ASSERT_TRUE(r.ok()) << f << ": " << r.status().message();
      const ReadSummary& sum = r->summary;
      if (sum.rows == 0 || !sum.first_end || !sum.last_end) continue;
      first = first ? std::min(*first, *sum.first_end) : *sum.first_end;
      last = last ? std::max(*last, *sum.last_end) : *sum.last_end;
    }
    if (!first) return;
    ASSERT_TRUE(RefreshStoredCorrections(store->get(), *first, *last).ok());
  }
  TempDir dir_;
};

std::map<TimeNs, std::string> StoredReadyDays(Store* store, int64_t vm_id) {
  auto days = LoadReadyDays(store, vm_id, "esxtop", std::numeric_limits<TimeNs>::min());
  EXPECT_TRUE(days.ok()) << days.status().message();
  return days.ok() ? *days : std::map<TimeNs, std::string>{};
}

TEST_P(ReadySummariesTest, ANewDayUpdatesItselfAndGivesTheWholeSummary) {
  const std::string inc = NewStore(GetParam(), dir_.path(), "ready_incremental.db");
  const std::string full = NewStore(GetParam(), dir_.path(), "ready_full.db");
  Ingest(inc, {dir_.File("guests.csv"), Day(1), Day(2)});
  Ingest(full, {dir_.File("guests.csv"), Day(1), Day(2), Day(3)});
  auto a = Store::Open(inc);
  auto b = Store::Open(full);
  ASSERT_TRUE(a.ok() && b.ok());
  CorrectionRequest all;
  ASSERT_TRUE(StoreCorrections(a->get(), all).ok());
  ASSERT_TRUE(StoreCorrections(b->get(), all).ok());
  auto vms = ListCorrVms(a->get());
  ASSERT_TRUE(vms.ok());
  ASSERT_EQ(vms->size(), 2u);
  const std::map<TimeNs, std::string> before = StoredReadyDays(a->get(), vms->front().id);
  ASSERT_EQ(before.size(), 2u);

  // Day 3 arrives; the corrections are stored from it on, as a fleet round does.
  a->reset();
  Ingest(inc, {Day(3)});
  a = Store::Open(inc);
  ASSERT_TRUE(a.ok());
  CorrectionRequest from_day3;
  from_day3.from = *ParseIso("2026-11-03T00:55:00Z");
  ASSERT_TRUE(StoreCorrections(a->get(), from_day3).ok());

  const std::map<TimeNs, std::string> after = StoredReadyDays(a->get(), vms->front().id);
  ASSERT_EQ(after.size(), 3u);
  for (const auto& [day, blob] : before) EXPECT_EQ(after.at(day), blob) << "day " << day << " was rewritten";

  for (const CorrVm& vm : *vms) {
    auto got = LoadReady(a->get(), vm.id);
    auto fb = ListCorrVms(b->get());
    ASSERT_TRUE(got.ok() && fb.ok());
    int64_t full_id = 0;
    for (const CorrVm& v : *fb) full_id = v.vm_key == vm.vm_key ? v.id : full_id;
    auto want = LoadReady(b->get(), full_id);
    ASSERT_TRUE(want.ok());
    ASSERT_EQ(got->size(), 1u);
    ASSERT_EQ(want->size(), 1u);
    const StoredReady& g = got->front();
    const StoredReady& w = want->front();
    EXPECT_EQ(g.samples, w.samples) << vm.vm;
    EXPECT_EQ(g.samples, 3 * 3 * 180) << vm.vm;
    EXPECT_EQ(g.ready_above_5, w.ready_above_5) << vm.vm;
    EXPECT_EQ(g.costop_above_3, w.costop_above_3) << vm.vm;
    for (auto [name, x, y] : {std::tuple{"ready_mean", g.ready_mean, w.ready_mean},
                              {"ready_p95", g.ready_p95, w.ready_p95},
                              {"costop_p95", g.costop_p95, w.costop_p95},
                              {"run_mean", g.run_mean, w.run_mean},
                              {"host_load_p95", g.host_load_p95, w.host_load_p95}}) {
      ASSERT_TRUE(x && y) << vm.vm << " " << name << ": " << x.has_value() << " " << y.has_value();
      EXPECT_NEAR(*x, *y, 1e-9 * std::fabs(*y)) << vm.vm << " " << name;
    }
    ASSERT_EQ(g.hints.size(), w.hints.size()) << vm.vm;
  }
}

// Retention: the summary keeps what pruned samples and pruned days added, through a recompute.
TEST_P(ReadySummariesTest, PrunedSamplesAndDaysLiveOnInTheSummary) {
  const std::string db = NewStore(GetParam(), dir_.path(), "ready_pruned.db");
  Ingest(db, {dir_.File("guests.csv"), Day(1), Day(2), Day(3)});
  auto store = Store::Open(db);
  ASSERT_TRUE(store.ok());
  CorrectionRequest all;
  ASSERT_TRUE(StoreCorrections(store->get(), all).ok());
  auto vms = ListCorrVms(store->get());
  ASSERT_TRUE(vms.ok() && !vms->empty());
  auto before = LoadReady(store->get(), vms->front().id);
  ASSERT_TRUE(before.ok() && before->size() == 1u);

  for (bool samples_too : {false, true}) {
    PruneRequest prune;
    prune.corrections_before = *ParseIso("2026-11-03T00:00:00Z");
    if (samples_too) prune.samples_before = prune.corrections_before;
    prune.now = NowNs();
    ASSERT_TRUE(Prune(store->get(), prune).ok());
    EXPECT_EQ(StoredReadyDays(store->get(), vms->front().id).size(), 1u) << "days 1 and 2 went with the corrections";
    ASSERT_TRUE(StoreCorrections(store->get(), all).ok());  // `report --recompute`
    auto after = LoadReady(store->get(), vms->front().id);
    ASSERT_TRUE(after.ok() && after->size() == 1u);
    EXPECT_EQ(after->front().samples, before->front().samples) << samples_too;
    EXPECT_EQ(after->front().ready_above_5, before->front().ready_above_5) << samples_too;
    EXPECT_NEAR(*after->front().ready_mean, *before->front().ready_mean, 1e-9) << samples_too;
    EXPECT_NEAR(*after->front().ready_p95, *before->front().ready_p95, 1e-9) << samples_too;
  }
}

// A day that arrives in two parts, as a fleet's rounds bring it: the second part's ingest stores
// the corrections with its new samples' earliest end (RefreshStoredCorrections), and the day's
// digest, which reaches to the first part's end, takes the second part's samples alone. To show
// that the first part's samples are not read again, they are deleted from the store before the
// second part arrives: the summary still counts them, as the store that had both parts at once
// does. Stored again without that earliest end, the day is read again whole and they are gone.
TEST_P(ReadySummariesTest, ALaterPartOfADayIsAddedWithoutReadingTheDayAgain) {
  WriteText(dir_.File("part1.csv"), EsxtopDay(3, 21, 3600, 2 * 3600));
  WriteText(dir_.File("part2.csv"), EsxtopDay(3, 22, 2 * 3600, 4 * 3600));
  const std::string full = NewStore(GetParam(), dir_.path(), "ready_parts_full.db");
  Ingest(full, {dir_.File("guests.csv"), Day(1), dir_.File("part1.csv"), dir_.File("part2.csv")});
  auto b = Store::Open(full);
  ASSERT_TRUE(b.ok());
  CorrectionRequest all;
  ASSERT_TRUE(StoreCorrections(b->get(), all).ok());
  auto want = ListCorrVms(b->get());
  ASSERT_TRUE(want.ok() && !want->empty());
  auto want_ready = LoadReady(b->get(), want->front().id);
  ASSERT_TRUE(want_ready.ok() && want_ready->size() == 1u);
  ASSERT_EQ(want_ready->front().samples, 540 + 180 + 360);  // day 1, then day 3 in two parts

  const std::string db = NewStore(GetParam(), dir_.path(), "ready_parts.db");
  Ingest(db, {dir_.File("guests.csv"), Day(1), dir_.File("part1.csv")});
  auto a = Store::Open(db);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(StoreCorrections(a->get(), all).ok());
  ASSERT_TRUE((*a)->db()
                  ->Exec("DELETE FROM value_block WHERE block_id IN (SELECT t.id FROM time_block t JOIN source_file "
                         "f ON f.id = t.file_id WHERE f.path LIKE '%part1.csv')")
                  .ok());
  a->reset();
  Ingest(db, {dir_.File("part2.csv")});
  a = Store::Open(db);
  ASSERT_TRUE(a.ok());
  auto vms = ListCorrVms(a->get());
  ASSERT_TRUE(vms.ok() && !vms->empty());
  int64_t id = 0;
  for (const CorrVm& v : *vms) id = v.vm_key == want->front().vm_key ? v.id : id;
  ASSERT_NE(id, 0);
  auto got = LoadReady(a->get(), id);
  ASSERT_TRUE(got.ok() && got->size() == 1u);
  EXPECT_EQ(got->front().samples, want_ready->front().samples);
  EXPECT_EQ(got->front().ready_above_5, want_ready->front().ready_above_5);
  EXPECT_NEAR(*got->front().ready_mean, *want_ready->front().ready_mean, 1e-9);
  EXPECT_NEAR(*got->front().ready_p95, *want_ready->front().ready_p95, 1e-9);
  EXPECT_NEAR(*got->front().host_load_p95, *want_ready->front().host_load_p95, 1e-9);

  CorrectionRequest again;
  again.from = *ParseIso("2026-11-03T01:55:00Z");
  ASSERT_TRUE(StoreCorrections(a->get(), again).ok());
  got = LoadReady(a->get(), id);
  ASSERT_TRUE(got.ok() && got->size() == 1u);
  EXPECT_EQ(got->front().samples, 540 + 360) << "day 3 read again: its first part is gone";
}

// A round's new sample that began the day before the newest stored day (the host's load, at a
// 60 s interval where the VMs' counters have 20 s): the digests take it by folding, and the day
// it began in is the first one written again. The newest day took nothing new and stays as it
// was, as the store that had every sample at once has it.
TEST_P(ReadySummariesTest, AFoldedSampleBegunTheDayBeforeKeepsTheDaysAfter) {
  // Day 3 from 23:00 with the host's load to 23:59:40; the VMs' counters to 00:00:20 on day 4.
  WriteText(dir_.File("late3.csv"), EsxtopDay(3, 41, 23 * 3600, 24 * 3600));
  WriteText(dir_.File("early4.csv"), EsxtopDay(4, 42, 0, 40, /*host_load=*/false));
  const SeriesKey host_load{SourceKind::kEsxtop,
                            "esx01.example.com",
                            "Physical Cpu",
                            "_Total",
                            "% Util Time",
                            "percent",
                            "\\\\esx01.example.com\\Physical Cpu(_Total)\\% Util Time",
                            ""};
  const TimeNs day4 = *ParseIso("2026-11-04T00:00:00Z");
  const TimeNs late_from = day4 - 20 * kNsPerSec, late_to = day4 + 40 * kNsPerSec;  // 23:59:40 to 00:00:40

  const std::string full = NewStore(GetParam(), dir_.path(), "ready_fold_full.db");
  Ingest(full, {dir_.File("guests.csv"), dir_.File("late3.csv"), dir_.File("early4.csv")});
  auto b = Store::Open(full);
  ASSERT_TRUE(b.ok());
  WriteSampleFile(b->get(), "late-host-load", {host_load}, late_from, late_to, 60 * kNsPerSec, 70);
  ASSERT_TRUE(StoreCorrections(b->get(), CorrectionRequest{}).ok());

  const std::string db = NewStore(GetParam(), dir_.path(), "ready_fold.db");
  Ingest(db, {dir_.File("guests.csv"), dir_.File("late3.csv"), dir_.File("early4.csv")});
  auto a = Store::Open(db);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(StoreCorrections(a->get(), CorrectionRequest{}).ok());
  WriteSampleFile(a->get(), "late-host-load", {host_load}, late_from, late_to, 60 * kNsPerSec, 70);
  CorrectionRequest round;  // as a fleet round that stored the sample asks
  round.from = FloorTo(late_to, 300 * kNsPerSec) - 300 * kNsPerSec;
  round.new_samples_from = late_to;
  ASSERT_TRUE(StoreCorrections(a->get(), round).ok());

  auto vms = ListCorrVms(a->get());
  auto want_vms = ListCorrVms(b->get());
  ASSERT_TRUE(vms.ok() && want_vms.ok());
  ASSERT_EQ(vms->size(), 2u);
  for (const CorrVm& vm : *vms) {
    int64_t want_id = 0;
    for (const CorrVm& v : *want_vms) want_id = v.vm_key == vm.vm_key ? v.id : want_id;
    const std::map<TimeNs, std::string> got = StoredReadyDays(a->get(), vm.id),
                                        want = StoredReadyDays(b->get(), want_id);
    ASSERT_EQ(got.size(), 2u) << vm.vm << ": days 3 and 4";
    ASSERT_EQ(want.size(), 2u) << vm.vm;
    for (const auto& [day, blob] : want) {
      ASSERT_TRUE(got.contains(day)) << vm.vm << ": day " << day << " is gone";
      std::optional<TimeNs> got_reach, want_reach;
      auto g = DecodeReadyDigest(got.at(day), &got_reach);
      auto w = DecodeReadyDigest(blob, &want_reach);
      ASSERT_TRUE(g.ok() && w.ok());
      EXPECT_EQ(got_reach, want_reach) << vm.vm << " day " << day;
      EXPECT_EQ(g->ready.n, w->ready.n) << vm.vm << " day " << day;
      EXPECT_EQ(g->host_load.n, w->host_load.n) << vm.vm << " day " << day;
      EXPECT_NEAR(g->host_load.sum, w->host_load.sum, 1e-9 * std::fabs(w->host_load.sum)) << vm.vm << " day " << day;
    }
    auto g = LoadReady(a->get(), vm.id);
    auto w = LoadReady(b->get(), want_id);
    ASSERT_TRUE(g.ok() && w.ok() && g->size() == 1u && w->size() == 1u);
    EXPECT_EQ(g->front().samples, w->front().samples) << vm.vm;
    ASSERT_TRUE(g->front().host_load_p95 && w->front().host_load_p95);
    EXPECT_NEAR(*g->front().host_load_p95, *w->front().host_load_p95, 1e-9) << vm.vm;
  }
}

// A figure that is not a number is stored as missing, not as NaN (PostgreSQL would keep a NaN and
// hand it back as a value), and a missing vCPU count as NULL.
TEST_P(ReadySummariesTest, ANonFiniteFigureIsStoredAsMissing) {
  auto store = Store::Open(NewStore(GetParam(), dir_.path(), "ready_nan.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto tx = (*store)->BeginTransaction();
  ASSERT_TRUE(tx.ok());
  auto id =
      UpsertCorrVm(store->get(), CorrVm{0, "WEB02", "WEB02", "esxtop", std::nullopt, "esxtop:WEB02", "esx01", ""});
  ASSERT_TRUE(id.ok()) << id.status().message();
  StoredReady r;
  r.source = "esxtop";
  r.host = "esx01";
  r.samples = 3;
  r.ready_mean = std::numeric_limits<double>::quiet_NaN();
  r.ready_p95 = 4.5;
  ASSERT_TRUE(UpsertReady(store->get(), *id, r).ok());
  ASSERT_TRUE(tx->Commit().ok());
  auto got = LoadReady(store->get(), *id);
  ASSERT_TRUE(got.ok() && got->size() == 1u);
  EXPECT_FALSE(got->front().ready_mean.has_value());
  EXPECT_EQ(got->front().ready_p95, 4.5);
  EXPECT_FALSE(got->front().vcpus.has_value());
}

INSTANTIATE_TEST_SUITE_P(Backends, ReadySummariesTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         BackendParamName);

}  // namespace
}  // namespace vrecon::testing
