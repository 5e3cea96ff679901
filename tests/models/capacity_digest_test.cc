// Capacity day digests (models/capacity_digest.h): a day keeps each 5-minute value by its place,
// to the thousandth of a core; a day whose values from any boundary on are replaced by what a
// later read of the samples gives is the day digested at once; the p95 is the values' nearest rank.
#include "models/capacity_digest.h"

#include <gtest/gtest.h>

#include <random>

namespace vrecon::models {
namespace {

constexpr TimeNs kMidnight = 20'000 * kNsPerDay;  // a UTC midnight

std::vector<DemandBin> Bins(int n, unsigned seed, TimeNs from = kMidnight) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.2, 3.0);
  std::vector<DemandBin> out;
  for (int i = 0; i < n; ++i) out.push_back({from + i * kDemandBinNs, u(rng)});
  return out;
}

void ExpectSameDay(const DemandDay& a, const DemandDay& b) {
  ASSERT_EQ(a.Bins(), b.Bins());
  for (size_t i = 0; i < a.bins.size(); ++i) {
    EXPECT_EQ(a.bins[i].index, b.bins[i].index);
    EXPECT_EQ(a.bins[i].milli, b.bins[i].milli);
    EXPECT_EQ(a.bins[i].costop, b.bins[i].costop);
  }
  EXPECT_EQ(a.End(), b.End());
}

TEST(CapacityDigestTest, ADaysValuesAreKeptByTheirPlaceInTheDay) {
  std::vector<DemandBin> bins = Bins(300, 2);                                  // a day and an hour
  bins.erase(bins.begin() + 10);                                               // a value missing
  const std::vector<DemandBin> costop{{kMidnight + 3 * kDemandBinNs, 0.025}};  // 2.5%
  const auto days = DigestDays(bins, costop);
  ASSERT_EQ(days.size(), 2u);
  const DemandDay& d = days.at(kMidnight);
  EXPECT_EQ(d.Bins(), 287);
  EXPECT_EQ(d.bins[10].index, 11);
  EXPECT_EQ(d.bins[3].costop, 250);
  EXPECT_EQ(d.bins[4].costop, -1);
  EXPECT_EQ(*d.CostopPct(), 2.5);
  EXPECT_EQ(d.End(), kMidnight + kNsPerDay);
  EXPECT_EQ(days.at(kMidnight + kNsPerDay).Bins(), 12);
  EXPECT_FALSE(days.at(kMidnight + kNsPerDay).CostopPct()) << "missing, not zero";
}

// Reads of the samples from any boundary on, as updates make them (a round continuing the day, a
// read overlapping what the day holds), replace the values from there: the day ends as the day
// digested at once.
TEST(CapacityDigestTest, ValuesReplacedFromAnyBoundaryGiveTheDayDigestedAtOnce) {
  const std::vector<DemandBin> all = Bins(288, 3);
  std::vector<DemandBin> costop;
  for (int i = 0; i < 288; i += 3) costop.push_back({kMidnight + i * kDemandBinNs, 0.01 * (i % 7)});
  const DemandDay whole = DigestDays(all, costop).at(kMidnight);
  DemandDay stored{kMidnight, {}, 0, 0};
  for (const auto& [from_bin, to_bin] : {std::pair{0, 40}, {38, 90}, {90, 91}, {60, 200}, {199, 288}}) {
    std::vector<DemandBin> part;
    for (const DemandBin& b : all)
      if (b.start >= kMidnight + from_bin * kDemandBinNs && b.start < kMidnight + to_bin * kDemandBinNs)
        part.push_back(b);
    ReplaceFrom(kMidnight + from_bin * kDemandBinNs, DigestDays(part, costop).at(kMidnight), &stored);
  }
  ExpectSameDay(stored, whole);
  EXPECT_EQ(stored.CostopPct(), whole.CostopPct());
}

// A day's longest sample: its bins' longest; a replacement of every value takes the fresh day's,
// of some values the longer of the two.
TEST(CapacityDigestTest, ADayKeepsItsLongestSample) {
  std::vector<DemandBin> bins = Bins(10, 3);
  for (DemandBin& b : bins) b.sample_s = 300;
  bins[4].sample_s = 1800;
  DemandDay day = DigestDays(bins, {}).at(kMidnight);
  EXPECT_EQ(day.sample_s, 1800);
  EXPECT_EQ(day.fine_from, 5) << "5-minute values from the one after the rollup's";
  DemandDay fresh = day;
  fresh.sample_s = 300;
  fresh.fine_from = 0;
  ReplaceFrom(kMidnight + 6 * kDemandBinNs, fresh, &day);
  EXPECT_EQ(day.sample_s, 1800);
  EXPECT_EQ(day.fine_from, 5);
  ReplaceFrom(kMidnight + 3 * kDemandBinNs, fresh, &day);
  EXPECT_EQ(day.fine_from, 3) << "the rollup's value replaced: what is kept before may be a rollup";
  fresh.fine_from = 8;  // a rollup among the fresh values
  ReplaceFrom(kMidnight + 3 * kDemandBinNs, fresh, &day);
  EXPECT_EQ(day.fine_from, 8);
  fresh.fine_from = 0;
  ReplaceFrom(kMidnight, fresh, &day);
  EXPECT_EQ(day.sample_s, 300);
  EXPECT_EQ(day.fine_from, 0);
}

TEST(CapacityDigestTest, P95IsTheNearestRankToAThousandthOfACore) {
  const std::vector<DemandBin> bins = Bins(288, 4);
  const DemandDay d = DigestDays(bins, {}).at(kMidnight);
  const std::vector<DailyDemand> exact = DailyP95(bins);
  ASSERT_EQ(exact.size(), 1u);
  EXPECT_NEAR(*d.P95(), exact[0].cores, 0.0005);
  std::vector<DemandBin> flat = bins;
  for (DemandBin& b : flat) b.cores = 1.6;
  EXPECT_EQ(*DigestDays(flat, {}).at(kMidnight).P95(), 1.6);
  EXPECT_EQ(DigestDays(flat, {}).at(kMidnight).Sum(), 1.6 * 288);
  std::vector<int32_t> none;
  EXPECT_FALSE(NearestRankCores(&none, 0.95));
  std::vector<int32_t> ten{10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
  EXPECT_EQ(*NearestRankCores(&ten, 0.95), 0.010);  // the 10th of 10
  EXPECT_EQ(*NearestRankCores(&ten, 0.5), 0.005);
}

// The selection by value ranges gives what sorting gives: any size, spread, ties and rank.
TEST(CapacityDigestTest, NearestRankIsThatOfTheSortedValues) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 10000);
    const int32_t spread = trial % 3 == 0 ? 3 : trial % 3 == 1 ? 5000 : 2'000'000'000;
    std::vector<int32_t> v(static_cast<size_t>(n));
    for (int32_t& x : v) x = static_cast<int32_t>(rng() % static_cast<uint32_t>(spread));
    std::vector<int32_t> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    for (const double p : {0.0, 0.5, 0.95, 1.0}) {
      std::vector<int32_t> work = v;
      const auto rank = std::clamp<size_t>(static_cast<size_t>(std::ceil(p * n)), 1, static_cast<size_t>(n));
      ASSERT_EQ(*NearestRankCores(&work, p), FromMilliCores(sorted[rank - 1])) << n << " values, p " << p;
    }
  }
}

TEST(CapacityDigestTest, DemandIsKeptInThousandthsOfACoreAndNegativeIsZero) {
  EXPECT_EQ(ToMilliCores(0.8), 800);
  EXPECT_EQ(ToMilliCores(1.2345), 1235);  // rounded
  EXPECT_EQ(ToMilliCores(-0.2), 0);
  EXPECT_EQ(ToMilliCores(std::nan("")), 0);
  EXPECT_EQ(FromMilliCores(800), 0.8);
}

}  // namespace
}  // namespace vrecon::models
