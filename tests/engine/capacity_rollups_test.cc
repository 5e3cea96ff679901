// A VM's history of rollups (a vCenter backfill, a PowerCLI export of the 2-hour interval) read
// by the capacity answers (docs/capacity.md, "Backfill"), on both backends: each day remembers
// its longest sample; a rollup day's p95 and values are scaled by the ratio the VM's own 5-minute
// days show, so a flat load stays flat; with no 5-minute day it is read as it is, and said so.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>

#include "src/engine/capacity_job.h"
#include "src/ingest/ingest_file.h"
#include "src/store/capacity_tables.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon::testing {
namespace {

constexpr TimeNs kNov1 = 20'393 * kNsPerDay;  // 2025-11-01T00:00:00Z

// DB01's 5-minute demand: in each half hour, five values of 1 core and one of 4 (p95: 4 cores;
// the mean of any whole half hour, and so of 2 hours: 1.5 cores).
double FineCores(int bin_of_day) { return bin_of_day % 6 == 5 ? 4 : 1; }

// A PowerCLI Get-Stat export of DB01's cpu.run.summation: `rollup_days` days of 2-hour rollups
// from kNov1, then `fine_days` days of 5-minute samples. A row's time is its interval's end.
std::string PowerCliExport(int rollup_days, int fine_days) {
  std::string s = "\"Entity\";\"MetricId\";\"Instance\";\"Timestamp\";\"Value\";\"Unit\";\"IntervalSecs\"\n";
  auto row = [&s](TimeNs end, double cores, int interval_s) {
    const CivilTime c = CivilFromNs(end);
    char b[200];
    std::snprintf(b, sizeof b,
                  "\"DB01\";\"cpu.run.summation\";\"\";\"%04d-%02d-%02dT%02d:%02d:%02d.0000000+00:00\";\"%.0f\";"
                  "\"millisecond\";\"%d\"\n",
                  c.year, c.month, c.day, c.hour, c.minute, c.second, cores * interval_s * 1000, interval_s);
    s += b;
  };
  for (int d = 0; d < rollup_days; ++d)
    for (int i = 1; i <= 12; ++i) row(kNov1 + d * kNsPerDay + i * 7200 * kNsPerSec, 1.5, 7200);
  for (int d = rollup_days; d < rollup_days + fine_days; ++d)
    for (int i = 0; i < 288; ++i) row(kNov1 + d * kNsPerDay + (i + 1) * 300 * kNsPerSec, FineCores(i), 300);
  return s;
}

class CapacityRollupsTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(GetParam()); }

  // DB01's capacity answer from a store fed `PowerCliExport(rollup_days, fine_days)`.
  CapacityEntity Answer(const std::string& name, int rollup_days, int fine_days) {
    auto store = Store::Open(NewStore(GetParam(), dir_.path(), name));
    EXPECT_TRUE(store.ok()) << store.status().message();
    if (!store.ok()) return {};
    const std::string f = dir_.File(name + ".csv");
    WriteText(f, PowerCliExport(rollup_days, fine_days));
    StatusOr<IngestResult> r = IngestFile(store->get(), f, {});
    EXPECT_TRUE(r.ok()) << r.status().message();
    StatusOr<std::vector<CapacityEntity>> answers = RunCapacity(store->get(), CapacityRequest{});
    EXPECT_TRUE(answers.ok()) << answers.status().message();
    if (!answers.ok() || answers->size() != 1) return {};
    auto days = LoadCapacityDays(store->get(), answers->front().key, answers->front().source,
                                 std::numeric_limits<TimeNs>::min(), false);
    EXPECT_TRUE(days.ok());
    for (const StoredCapacityDay& d : *days) sample_s_[d.day] = d.sample_s;
    return answers->front();
  }
  const models::Flag* FlagOf(const CapacityEntity& e, const std::string& code) {
    for (const models::Flag& f : e.flags)
      if (f.code == code) return &f;
    return nullptr;
  }
  TempDir dir_;
  std::map<TimeNs, int64_t> sample_s_;
};

TEST_P(CapacityRollupsTest, RollupDaysAreScaledByTheRatioTheFiveMinuteDaysShow) {
  const CapacityEntity e = Answer("scaled.db", 40, 2);
  EXPECT_EQ(sample_s_.at(kNov1), 7200);
  EXPECT_EQ(sample_s_.at(kNov1 + 41 * kNsPerDay), 300);
  EXPECT_EQ(e.history_days, 42);
  const models::Flag* f = FlagOf(e, "rollup-days-scaled");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("40 day(s)"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("2-hour x2.67"), std::string::npos) << f->message;  // 4 / 1.5
  EXPECT_EQ(FlagOf(e, "rollup-days-unscaled"), nullptr);
  // The last 30 days' p95 as the 5-minute days have it, not the rollups' 1.5 cores.
  ASSERT_TRUE(e.demand_p95_cores);
  EXPECT_NEAR(*e.demand_p95_cores, 4.0, 0.01);
  // Flat: the forecast stays at 4 cores, where unscaled rollups would rise into the 5-minute days.
  ASSERT_FALSE(e.forecast.empty());
  EXPECT_NEAR(e.forecast.front().mid, 4.0, 0.1);
  EXPECT_NEAR(e.forecast.back().mid, 4.0, 0.2);
}

TEST_P(CapacityRollupsTest, WithoutAFiveMinuteDayTheRollupsAreReadAsTheyAreAndSaidSo) {
  const CapacityEntity e = Answer("unscaled.db", 40, 0);
  EXPECT_EQ(FlagOf(e, "rollup-days-scaled"), nullptr);
  const models::Flag* f = FlagOf(e, "rollup-days-unscaled");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  ASSERT_TRUE(e.demand_p95_cores);
  EXPECT_NEAR(*e.demand_p95_cores, 1.5, 0.01);
}

TEST_P(CapacityRollupsTest, FiveMinuteDaysAloneAreNotFlagged) {
  const CapacityEntity e = Answer("fine.db", 0, 3);
  EXPECT_EQ(FlagOf(e, "rollup-days-scaled"), nullptr);
  EXPECT_EQ(FlagOf(e, "rollup-days-unscaled"), nullptr);
  for (const auto& [day, s] : sample_s_) EXPECT_EQ(s, 300);
}

INSTANTIATE_TEST_SUITE_P(Backends, CapacityRollupsTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         BackendParamName);

}  // namespace
}  // namespace vrecon::testing
