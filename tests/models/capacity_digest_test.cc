// Capacity day digests (models/capacity_digest.h): a day built in parts, its open bins folded in
// as later samples arrive, is the day built at once; the p95 is the bins' nearest rank, to the
// thousandth of a core the bins are kept to.
#include "models/capacity_digest.h"

#include <gtest/gtest.h>

#include <random>

namespace vrecon::models {
namespace {

constexpr TimeNs kDay = 20'000 * kNsPerDay;  // a UTC midnight

std::vector<DemandBin> Bins(int n, unsigned seed, TimeNs from = kDay) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.2, 3.0);
  std::vector<DemandBin> out;
  for (int i = 0; i < n; ++i) out.push_back({from + i * kDemandBinNs, u(rng)});
  return out;
}

void ExpectSameDay(const DemandDay& a, const DemandDay& b) {
  EXPECT_EQ(a.Bins(), b.Bins());
  EXPECT_NEAR(a.Sum(), b.Sum(), 1e-9);
  EXPECT_DOUBLE_EQ(a.Max(), b.Max());
  EXPECT_NEAR(*a.P95(), *b.P95(), 1e-9);
  EXPECT_EQ(a.End(), b.End());
  EXPECT_NEAR(a.CostopPct().value_or(-1), b.CostopPct().value_or(-1), 1e-9);
}

TEST(CapacityDigestTest, ABinBeforeOpenFromIsClosedAndOneFromItOpen) {
  const std::vector<DemandBin> bins = Bins(10, 1);
  const TimeNs open_from = kDay + 7 * kDemandBinNs;
  const auto days = DigestDays(bins, {}, open_from);
  ASSERT_EQ(days.size(), 1u);
  const DemandDay& d = days.at(kDay);
  EXPECT_EQ(d.closed.size(), 7u);
  ASSERT_EQ(d.open.size(), 3u);
  EXPECT_EQ(d.open.front().start, open_from);
  EXPECT_EQ(d.End(), kDay + 10 * kDemandBinNs);
  EXPECT_EQ(d.Bins(), 10);
}

TEST(CapacityDigestTest, DaysBeforeTheOpenBinsAreClosedWholeAndDaysAfterOpen) {
  std::vector<DemandBin> bins = Bins(300, 2);  // a day and an hour
  const auto days = DigestDays(bins, {}, kDay + 290 * kDemandBinNs);
  ASSERT_EQ(days.size(), 2u);
  EXPECT_EQ(days.at(kDay).closed.size(), 288u);
  EXPECT_TRUE(days.at(kDay).open.empty());
  EXPECT_EQ(days.at(kDay + kNsPerDay).closed.size(), 2u);
  EXPECT_EQ(days.at(kDay + kNsPerDay).open.size(), 10u);
}

// Rounds of a collector: each folds what ends after the day's open bins into the stored day. The
// last round's day equals the day digested from every bin at once.
TEST(CapacityDigestTest, FoldingRoundsGivesTheDayDigestedAtOnce) {
  const std::vector<DemandBin> all = Bins(288, 3);
  std::vector<Interval> costop;
  for (int i = 0; i < 288 * 15; ++i)  // 20 s samples
    costop.push_back({kDay + i * 20 * kNsPerSec, kDay + (i + 1) * 20 * kNsPerSec, (i % 7) * 1.5});
  const DemandDay whole = DigestDays(all, costop, kDay + kNsPerDay).at(kDay);
  DemandDay stored;
  bool first = true;
  for (int upto = 13; upto <= 288; upto += 37) {
    // What the samples up to bin `upto` (the last of them partly covered) give.
    const TimeNs from = first ? kDay : stored.open_from;
    const TimeNs reach = kDay + upto * kDemandBinNs - 100 * kNsPerSec;
    std::vector<DemandBin> fresh_bins;
    for (const DemandBin& b : all)
      if (b.start >= from && b.start < reach) fresh_bins.push_back(b);
    std::vector<Interval> fresh_costop;
    for (const Interval& v : costop)
      if (v.start >= from && v.end <= reach) fresh_costop.push_back(v);
    const auto fresh = DigestDays(fresh_bins, fresh_costop, OpenFrom(reach));
    if (first) stored = fresh.at(kDay);
    else FoldDay(fresh.at(kDay), &stored);
    first = false;
  }
  // The rest of the day, as the last round reads it.
  std::vector<DemandBin> rest;
  for (const DemandBin& b : all)
    if (b.start >= stored.open_from) rest.push_back(b);
  std::vector<Interval> rest_costop;
  for (const Interval& v : costop)
    if (v.start >= stored.open_from) rest_costop.push_back(v);
  FoldDay(DigestDays(rest, rest_costop, kDay + kNsPerDay).at(kDay), &stored);
  ExpectSameDay(stored, whole);
}

TEST(CapacityDigestTest, P95IsTheNearestRankToATenthOfAPercentOfACore) {
  const std::vector<DemandBin> bins = Bins(288, 4);
  const DemandDay d = DigestDays(bins, {}, kDay + 200 * kDemandBinNs).at(kDay);  // some open
  const std::vector<DailyDemand> exact = DailyP95(bins);
  ASSERT_EQ(exact.size(), 1u);
  EXPECT_NEAR(*d.P95(), exact[0].cores, 0.0005);
  std::vector<DemandBin> flat = bins;
  for (DemandBin& b : flat) b.cores = 1.6;
  EXPECT_EQ(*DigestDays(flat, {}, kDay + kNsPerDay).at(kDay).P95(), 1.6);
  std::vector<int32_t> none;
  EXPECT_FALSE(NearestRankCores(&none, 0.95));
  std::vector<int32_t> ten{10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
  EXPECT_EQ(*NearestRankCores(&ten, 0.95), 0.010);  // the 10th of 10
  EXPECT_EQ(*NearestRankCores(&ten, 0.5), 0.005);
}

TEST(CapacityDigestTest, DemandIsKeptInThousandthsOfACoreAndNegativeIsZero) {
  EXPECT_EQ(ToMilliCores(0.8), 800);
  EXPECT_EQ(ToMilliCores(1.2345), 1235);  // rounded
  EXPECT_EQ(ToMilliCores(-0.2), 0);
  EXPECT_EQ(ToMilliCores(std::nan("")), 0);
  EXPECT_EQ(FromMilliCores(800), 0.8);
}

TEST(CapacityDigestTest, NoCostopSamplesIsMissingNotZero) {
  const DemandDay d = DigestDays(Bins(5, 5), {}, kDay).at(kDay);
  EXPECT_FALSE(d.CostopPct());
}

}  // namespace
}  // namespace vrecon::models
