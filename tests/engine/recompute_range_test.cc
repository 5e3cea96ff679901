// A correction over a range that starts late in the history (a fleet round's recompute, `correct
// --from`) reads only the blocks near the range, yet gives the windows the whole history gives.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "src/engine/correction_job.h"
#include "src/store/sample_reader.h"
#include "tests/support/cli_runner.h"
#include "tests/support/sample_file.h"
#include "tests/support/test_store.h"
#include "tests/support/time_units.h"

namespace vrecon {
namespace {

using vrecon::testing::TestBackend;
using vrecon::testing::WriteSampleFile;

const TimeNs kDay0 = NsFromCivil(CivilTime{2026, 3, 2});
using vrecon::testing::kMin;

SeriesKey Guest(const std::string& object, const std::string& instance) {
  return SeriesKey{SourceKind::kGuest, "APP01", object, instance, "% Processor Time", "percent", "", ""};
}

// Guest and host in 20-minute files over two stretches three hours apart (the windows between
// are listed), a third stretch 26 hours later (not listed: longer than a day), and last of all a
// file of an earlier hour with a process of its own: stored after, so its block ids are the
// newest while its samples are among the oldest.
void WriteHistory(Store* store) {
  const std::vector<SeriesKey> guest = {Guest("Processor", "_Total"), Guest("Process", "sqlservr")};
  const std::vector<SeriesKey> host = {
      SeriesKey{SourceKind::kVsphere, "APP01", "cpu", "", "cpu.usage.average", "percent", "", ""}};
  auto stretch = [&](TimeNs from, TimeNs to) {
    for (TimeNs t = from; t < to; t += 20 * kMin) {
      const std::string at = std::to_string(t / kNsPerSec);
      WriteSampleFile(store, "guest-" + at, guest, t, t + 20 * kMin, 15 * kNsPerSec, 30);
      WriteSampleFile(store, "host-" + at, host, t, t + 20 * kMin, 20 * kNsPerSec, 40);
    }
  };
  stretch(kDay0, kDay0 + 120 * kMin);
  stretch(kDay0 + 300 * kMin, kDay0 + 360 * kMin);
  stretch(kDay0 + 32 * 60 * kMin, kDay0 + 33 * 60 * kMin);
  WriteSampleFile(store, "guest-late", {Guest("Process", "backup")}, kDay0 + 30 * kMin, kDay0 + 60 * kMin,
                  15 * kNsPerSec, 5);
}

std::string Describe(const models::WindowResult& w) {
  std::string s = FormatIso(w.start, false) + " guest=" + std::to_string(w.guest_util_pct.value_or(-1)) +
                  " host=" + std::to_string(w.host_util_pct.value_or(-1)) + " w=" + std::to_string(w.w.value_or(-1));
  for (const auto& p : w.processes)
    s += " " + p.name + "=" + std::to_string(p.guest_pct.value_or(-1)) + "/" +
         std::to_string(p.corrected_pct.value_or(-1));
  for (const auto& f : w.flags) s += " [" + f.code + "]";
  return s;
}

class RecomputeRangeTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(GetParam()); }
  testing::TempDir dir_;
};

TEST_P(RecomputeRangeTest, LateStartGivesTheWindowsOfTheWholeHistory) {
  auto store = Store::Open(testing::NewStore(GetParam(), dir_.path(), "recompute_range.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  WriteHistory(store->get());

  CorrectionRequest whole;
  whole.align = false;  // a window's figures then depend only on the samples inside it
  auto all = RunCorrection(store->get(), whole);
  ASSERT_TRUE(all.ok()) << all.status().message();
  // 0:00-2:00, 5:00-6:00 and 32:00-33:00 (the windows of the gaps have no samples: none listed).
  ASSERT_EQ(all->size(), 24u + 12u + 12u);

  struct Case {
    const char* what;
    TimeNs from;
  };
  for (const Case& c :
       {Case{"before every sample", kDay0 - 60 * kMin}, Case{"inside a stretch", kDay0 + 45 * kMin},
        Case{"inside the listed gap", kDay0 + 180 * kMin}, Case{"where the second stretch starts", kDay0 + 300 * kMin},
        Case{"inside the gap of a day and more", kDay0 + 20 * 60 * kMin},
        Case{"after every sample", kDay0 + 40 * 60 * kMin}}) {
    SCOPED_TRACE(c.what);
    CorrectionRequest part = whole;
    part.from = c.from;
    auto got = RunCorrection(store->get(), part);
    ASSERT_TRUE(got.ok()) << got.status().message();
    // What a range's edge gives: a window after a gap that the range does not reach back over
    // has no flag for that gap (the guest timeline's "gap", the windows' "data-gap"), as before
    // the reads were bounded. The other windows and figures are the whole history's.
    auto edge = [](std::string d) {
      for (const std::string flag : {" [gap]", " [data-gap]"})
        if (const size_t f = d.find(flag); f != std::string::npos) d.erase(f, flag.size());
      return d;
    };
    std::vector<std::string> want, have;
    for (const auto& w : *all)
      if (w.start >= c.from) want.push_back(want.empty() ? edge(Describe(w)) : Describe(w));
    for (const auto& w : *got) have.push_back(have.empty() ? edge(Describe(w)) : Describe(w));
    EXPECT_EQ(have, want);
  }
}

// The reader's own bound: Span() from a time lists only the blocks ending at or after it (not the
// late file's older blocks, though their ids are newer), and the series stream just those.
TEST_P(RecomputeRangeTest, SpanFromATimeListsAndStreamsOnlyTheBlocksEndingAfterIt) {
  auto store = Store::Open(testing::NewStore(GetParam(), dir_.path(), "recompute_span.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  WriteHistory(store->get());
  auto series = FindSeries(store->get(), SeriesFilter{});
  ASSERT_TRUE(series.ok());
  std::vector<int64_t> ids;
  for (const StoredSeries& s : *series) ids.push_back(s.id);
  const TimeNs from = kDay0 + 110 * kMin;  // inside the first stretch's last file (1:40-2:00)
  BlockReader reader(store->get());
  auto span = reader.Span(ids, from);
  ASSERT_TRUE(span.ok()) << span.status().message();
  ASSERT_TRUE(span->has_value());
  EXPECT_EQ((*span)->from, kDay0 + 100 * kMin);  // the first block ending after `from` starts at 1:40
  EXPECT_EQ((*span)->to, kDay0 + 33 * 60 * kMin);
  auto pieces = reader.Occupied(ids, 24 * 60 * kMin);
  ASSERT_TRUE(pieces.ok());
  ASSERT_EQ(pieces->size(), 2u);
  EXPECT_EQ((*pieces)[0].from, kDay0 + 100 * kMin);
  EXPECT_EQ((*pieces)[0].to, kDay0 + 360 * kMin);
  for (const StoredSeries& s : *series) {
    int64_t n = 0;
    TimeNs first = 0;
    ASSERT_TRUE(reader
                    .ForEach(s.id, TimeRange{from, kDay0 + 34 * 60 * kMin},
                             [&](const SampleBlock& b) {
                               if (n == 0) first = b.starts.front();
                               n += static_cast<int64_t>(b.starts.size());
                             })
                    .ok());
    if (s.key.instance == "backup") {
      EXPECT_EQ(n, 0);  // the late file's samples all end before `from`
      continue;
    }
    const int64_t per_hour = s.key.source == SourceKind::kGuest ? 240 : 180;
    EXPECT_EQ(n, per_hour / 6 + per_hour + per_hour) << s.key.instance;  // 1:50-2:00, 5:00-6:00, 32:00-33:00
    EXPECT_EQ(first, from);
  }
  // Read ahead (PostgreSQL: two queries for every series; SQLite: nothing changes): the same span
  // and the same samples, and a read from before the prefetch's start still gets its earlier ones.
  // With a limit the blocks pass (PostgreSQL), nothing is kept and the reads go as before.
  for (const size_t limit : {BlockReader::kPrefetchValues, size_t{100}}) {
    BlockReader ahead(store->get());
    ahead.set_prefetch_values(limit);
    ASSERT_TRUE(ahead.Prefetch(ids, from).ok());
    EXPECT_EQ(ahead.prefetching(), GetParam() == TestBackend::kPostgres && limit > 100) << limit;
    auto span2 = ahead.Span(ids, from);
    ASSERT_TRUE(span2.ok()) << span2.status().message();
    ASSERT_TRUE(span2->has_value());
    EXPECT_EQ((*span2)->from, (*span)->from);
    EXPECT_EQ((*span2)->to, (*span)->to);
    for (const StoredSeries& s : *series) {
      for (const TimeRange& r : {TimeRange{from, kDay0 + 34 * 60 * kMin}, TimeRange{kDay0, kDay0 + 34 * 60 * kMin}}) {
        std::vector<TimeNs> a, b;
        BlockReader plain(store->get());
        ASSERT_TRUE(
            plain.ForEach(s.id, r, [&](const SampleBlock& x) { a.insert(a.end(), x.ends.begin(), x.ends.end()); })
                .ok());
        ASSERT_TRUE(
            ahead.ForEach(s.id, r, [&](const SampleBlock& x) { b.insert(b.end(), x.ends.begin(), x.ends.end()); })
                .ok());
        EXPECT_EQ(a, b) << s.key.instance << " limit " << limit;
      }
    }
    ahead.EndPrefetch();
  }

  // Nothing ends after the last sample: no span, and nothing to read.
  BlockReader after(store->get());
  auto none = after.Span(ids, kDay0 + 34 * 60 * kMin);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

INSTANTIATE_TEST_SUITE_P(Backends, RecomputeRangeTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         testing::BackendParamName);

}  // namespace
}  // namespace vrecon
