// Retention (issue 16): `vrecon prune --samples D --corrections D` on both backends. Samples and
// stored corrections older than what is kept go (on PostgreSQL whole monthly partitions are
// dropped); the file rows stay, so a pruned file is not ingested again; a report over the
// pruned range shows the corrections stored before the prune and says so, and recomputing never
// replaces them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "src/core/time_util.h"
#include "src/store/store.h"
#include "tests/sim/simulator.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon::testing {
namespace {

constexpr TimeNs kDay = 86400 * kNsPerSec;

int64_t Count(const std::string& db, const std::string& sql) {
  auto store = Store::Open(db);
  EXPECT_TRUE(store.ok()) << store.status().message();
  if (!store.ok()) return -1;
  auto q = (*store)->db()->Prepare(sql);
  EXPECT_TRUE(q.ok()) << q.status().message();
  if (!q.ok()) return -1;
  auto row = q->Step();
  EXPECT_TRUE(row.ok() && *row) << sql;
  return row.ok() && *row ? q->ColumnInt(0) : -1;
}

// Each line of `csv` through `keep`, which may change it or drop it (false).
template <typename Keep>
std::string FilterLines(const std::string& csv, Keep keep) {
  std::string out;
  for (size_t at = 0; at < csv.size();) {
    const size_t nl = std::min(csv.find('\n', at), csv.size());
    std::string line = csv.substr(at, nl - at);
    at = nl + 1;
    if (keep(&line)) out += line + "\n";
  }
  return out;
}

// The report's CSV without the fleet-wide record, whose message carries the notes.
std::string WithoutFleetRows(const std::string& csv) {
  return FilterLines(csv, [](std::string* line) { return line->rfind("fleet,", 0) != 0; });
}

// Without the data-gap flags: their rows, and the code in a window's flags.
std::string WithoutGapFlags(const std::string& csv) {
  return FilterLines(csv, [](std::string* line) {
    if (line->rfind("flag,", 0) == 0 && line->find(",data-gap,") != std::string::npos) return false;
    if (const size_t f = line->find(",data-gap,"); f != std::string::npos) line->replace(f, 10, ",,");
    return true;
  });
}

class RetentionTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override {
    VRECON_NEED_BACKEND(GetParam());
    db_ = NewStore(GetParam(), dir_.path(), "retention.db");
    // Two hours of one VM 90 days ago (another month than 30 days ago, whatever today is) and
    // two hours 2 days ago.
    const TimeNs now = NowNs();
    old_start_ = FloorTo(now - 90 * kDay, 300 * kNsPerSec);
    new_start_ = FloorTo(now - 2 * kDay, 300 * kNsPerSec);
    for (auto [name, start] : {std::pair{"old", old_start_}, std::pair{"new", new_start_}}) {
      sim::Scenario sc = sim::MakeScenario("calm", 7);
      sc.start = start;
      sc.hours = 2;
      const sim::SimOutput s = sim::Simulate(sc);
      WriteText(dir_.File(std::string(name) + "-guest.csv"), s.guest_csv);
      WriteText(dir_.File(std::string(name) + "-host.csv"), s.host_csv);
    }
    CliResult r = RunVrecon({"ingest", "--db", db_, dir_.File("old-guest.csv"), dir_.File("old-host.csv"),
                             dir_.File("new-guest.csv"), dir_.File("new-host.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  CliResult Vrecon(std::vector<std::string> args) {
    args.insert(args.begin() + 1, {"--db", db_});
    return RunVrecon(args);
  }

  TempDir dir_;
  std::string db_;
  TimeNs old_start_ = 0, new_start_ = 0;
};

TEST_P(RetentionTest, PruneRemovesOldSamplesAndReportsKeepTheirCorrections) {
  CliResult before = Vrecon({"report", "--format", "csv", "--out", "-"});
  ASSERT_EQ(before.exit_code, 0) << before.err;
  const int64_t blocks = Count(db_, "SELECT count(*) FROM time_block");
  const int64_t old_blocks =
      Count(db_, "SELECT count(*) FROM time_block WHERE last_end_ns < " + std::to_string(old_start_ + kDay));
  ASSERT_GT(old_blocks, 0);
  ASSERT_GT(blocks, old_blocks);

  const int64_t partitions =
      GetParam() == TestBackend::kPostgres
          ? Count(db_, "SELECT count(*) FROM pg_inherits WHERE inhparent = to_regclass('value_block')")
          : 0;
  if (GetParam() == TestBackend::kPostgres) {
    ASSERT_GE(partitions, 2);
  }

  // A dry run counts and changes nothing.
  CliResult dry = Vrecon({"prune", "--samples", "30d", "--dry-run", "--format", "json"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("\"dry_run\": true"), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("\"time_blocks\": " + std::to_string(old_blocks)), std::string::npos) << dry.out;
  EXPECT_EQ(Count(db_, "SELECT count(*) FROM time_block"), blocks);

  CliResult pruned = Vrecon({"prune", "--samples", "30d", "--format", "json"});
  ASSERT_EQ(pruned.exit_code, 0) << pruned.err;
  EXPECT_NE(pruned.out.find("\"time_blocks\": " + std::to_string(old_blocks)), std::string::npos) << pruned.out;
  EXPECT_NE(pruned.out.find("\"corrections\": null"), std::string::npos) << pruned.out;
  EXPECT_EQ(Count(db_, "SELECT count(*) FROM time_block"), blocks - old_blocks);
  EXPECT_EQ(Count(db_,
                  "SELECT count(*) FROM value_block v WHERE NOT EXISTS "
                  "(SELECT 1 FROM time_block t WHERE t.id = v.block_id)"),
            0);
  EXPECT_EQ(Count(db_, "SELECT count(*) FROM source_file"), 4);  // the files stay recorded
  if (GetParam() == TestBackend::kPostgres) {
    // The old month's partition went whole; the new month's stays.
    EXPECT_NE(pruned.out.find("\"partitions_dropped\": 1"), std::string::npos) << pruned.out;
    EXPECT_EQ(Count(db_, "SELECT count(*) FROM pg_inherits WHERE inhparent = to_regclass('value_block')"),
              partitions - 1);
  }

  // The report shows the old windows from the stored corrections and says so.
  CliResult after = Vrecon({"report", "--format", "csv", "--out", "-"});
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(WithoutFleetRows(after.out), WithoutFleetRows(before.out));
  EXPECT_NE(after.out.find("were pruned on"), std::string::npos) << after.out;
  EXPECT_NE(after.err.find("the windows before then are the corrections stored before the prune"), std::string::npos)
      << after.err;
  // Recomputing replaces only what the samples still cover, with the same figures. The first
  // window after the pruned samples no longer has the data-gap flag that told how long before it
  // the VM had its previous sample: those samples are gone.
  CliResult recomputed = Vrecon({"report", "--recompute", "--format", "csv", "--out", "-"});
  ASSERT_EQ(recomputed.exit_code, 0) << recomputed.err;
  EXPECT_EQ(WithoutFleetRows(recomputed.out), WithoutGapFlags(WithoutFleetRows(before.out)));

  // The pruned file is known: ingesting it again adds nothing.
  CliResult again = Vrecon({"ingest", dir_.File("old-guest.csv")});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(Count(db_, "SELECT count(*) FROM time_block"), blocks - old_blocks);

  // Pruning the corrections too: the old windows leave the report, which says so.
  CliResult corr = Vrecon({"prune", "--corrections", "30d", "--format", "csv"});
  ASSERT_EQ(corr.exit_code, 0) << corr.err;
  EXPECT_NE(corr.out.find("corrections,"), std::string::npos) << corr.out;
  CliResult last = Vrecon({"report", "--format", "csv", "--out", "-"});
  ASSERT_EQ(last.exit_code, 0) << last.err;
  EXPECT_EQ(last.out.find(FormatIso(old_start_, false).substr(0, 10)), std::string::npos)
      << "no window of the old day is left:\n"
      << last.out;
  EXPECT_NE(last.out.find(FormatIso(new_start_, false).substr(0, 10)), std::string::npos) << last.out;
  EXPECT_NE(last.err.find("stored corrections before"), std::string::npos) << last.err;
}

TEST_P(RetentionTest, UsageErrorsAndNothingToPrune) {
  EXPECT_EQ(Vrecon({"prune"}).exit_code, 2);
  CliResult shorter = Vrecon({"prune", "--samples", "30d", "--corrections", "10d"});
  EXPECT_EQ(shorter.exit_code, 2);
  EXPECT_NE(shorter.err.find("keep them at least as long"), std::string::npos) << shorter.err;
  CliResult bad = Vrecon({"prune", "--samples", "a month"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--samples \"a month\" is not a duration"), std::string::npos) << bad.err;
  // Keeping more than the store holds removes nothing.
  CliResult none = Vrecon({"prune", "--samples", "400d", "--corrections", "400d", "--format", "json"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("\"time_blocks\": 0"), std::string::npos) << none.out;
}

// The fleet file's retain_samples: each round prunes after storing its corrections.
TEST_P(RetentionTest, AFleetRoundAppliesRetainSamples) {
  const std::string db = NewStore(GetParam(), dir_.path(), "retention_fleet.db");
  std::filesystem::create_directory(dir_.File("drop"));
  for (const char* f : {"old-guest.csv", "old-host.csv", "new-guest.csv", "new-host.csv"})
    std::filesystem::copy_file(dir_.File(f), dir_.File(std::string("drop/") + f));
  WriteText(dir_.File("fleet.toml"), "db = \"" + db +
                                         "\"\nsettle = \"0.01s\"\nretain_samples = \"30d\"\nretain_corrections = "
                                         "\"400d\"\n[[drop_folder]]\npath = \"drop\"\n");
  CliResult r = RunVrecon({"collect", "--config", dir_.File("fleet.toml"), "--once", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("\"retention_error\": null"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"pruned_rows\": 0,"), std::string::npos) << "the old files' rows go: " << r.out;
  EXPECT_NE(r.err.find("retention: removed"), std::string::npos) << r.err;
  EXPECT_EQ(Count(db, "SELECT count(*) FROM time_block WHERE last_end_ns < " + std::to_string(old_start_ + kDay)), 0);
  EXPECT_GT(Count(db, "SELECT count(*) FROM time_block"), 0);
  EXPECT_GT(Count(db, "SELECT count(*) FROM capacity_day WHERE day_ns < " + std::to_string(old_start_ + kDay)), 0)
      << "the capacity days of the pruned samples were digested first and stay";
  // The old windows were stored before the prune and stay.
  CliResult report = RunVrecon({"report", "--db", db, "--format", "csv", "--out", "-"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find(FormatIso(old_start_, false).substr(0, 10)), std::string::npos) << report.out;
  // The next round finds nothing more to remove, and the pruned files are not ingested again.
  CliResult again = RunVrecon({"collect", "--config", dir_.File("fleet.toml"), "--once", "--format", "json"});
  ASSERT_EQ(again.exit_code, 0) << again.err << again.out;
  EXPECT_NE(again.out.find("\"pruned_rows\": 0,"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("\"rows\": 0,"), std::string::npos) << again.out;
}

TEST(RetentionCliTest, AStoreThatDoesNotExistIsOneError) {
  TempDir dir;
  CliResult r = RunVrecon({"prune", "--db", dir.File("none.db"), "--samples", "30d"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Backends, RetentionTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         BackendParamName);

}  // namespace
}  // namespace vrecon::testing
