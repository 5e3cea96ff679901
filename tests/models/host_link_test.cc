// Whether an esxtop VM and a vSphere VM of one name are one VM by their series (models/host_link.h):
// the same load seen every 5 s and every 20 s agrees; another load, another level or too little
// time together does not.
#include "models/host_link.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace vrecon::models {
namespace {

constexpr TimeNs kLinkT0 = 1'793'440'800LL * kNsPerSec;

// Samples of `step_s` from 0 to `span_s`, each the mean of `f` (per second) over its interval.
std::vector<TimedValue> Sampled(int step_s, int span_s, const std::function<double(int)>& f, double scale = 1) {
  std::vector<TimedValue> out;
  for (int s = 0; s + step_s <= span_s; s += step_s) {
    double sum = 0;
    for (int t = s; t < s + step_s; ++t) sum += f(t);
    out.push_back(TimedValue{kLinkT0 + s * kNsPerSec, kLinkT0 + (s + step_s) * kNsPerSec, scale * sum / step_s});
  }
  return out;
}

// A VM of 4 vCPUs, each busy 30% plus a 20-point wave of 10 minutes (% of one vCPU).
double Load(int t) { return 30 + 20 * std::sin(t * 2 * M_PI / 600); }
double Other(int t) { return 30 + 20 * std::cos(t * 2 * M_PI / 420); }

HostSeriesPair Pair(const std::function<double(int)>& esx, const std::function<double(int)>& vs, int span_s = 3600) {
  HostSeriesPair p;
  p.esxtop = Sampled(5, span_s, esx, 4);  // % Used summed over 4 vCPUs
  p.vsphere = Sampled(20, span_s, vs);    // usage, % of capacity
  return p;
}

TEST(HostLinkTest, OneLoadSeenEveryFiveAndEveryTwentySecondsAgrees) {
  const SeriesAgreement a = CompareHostSeries(Pair(Load, Load));
  EXPECT_TRUE(a.agree) << a.why;
  EXPECT_EQ(a.points, 180);
  EXPECT_EQ(a.scale, 4);  // read from the levels: no inventory said
  ASSERT_TRUE(a.correlation);
  EXPECT_GT(*a.correlation, 0.99);
}

TEST(HostLinkTest, TheInventorysVcpuCountMustFitTheLevels) {
  HostSeriesPair p = Pair(Load, Load);
  p.vcpus = 2;  // esxtop's sum is four times vSphere's figure
  const SeriesAgreement a = CompareHostSeries(p);
  EXPECT_FALSE(a.agree);
  EXPECT_NE(a.why.find("levels differ"), std::string::npos) << a.why;
  p.vcpus = 4;
  EXPECT_TRUE(CompareHostSeries(p).agree);
}

TEST(HostLinkTest, AnotherLoadAtTheSameLevelDoesNotAgree) {
  const SeriesAgreement a = CompareHostSeries(Pair(Load, Other));
  EXPECT_FALSE(a.agree);
  EXPECT_NE(a.why.find("do not move together"), std::string::npos) << a.why;
}

TEST(HostLinkTest, RunSummedOverVcpusComparesWithoutScaling) {
  HostSeriesPair p = Pair(Load, Load);
  p.vsphere = Sampled(20, 3600, Load, 4);  // cpu.run.summation: summed over the vCPUs
  p.vsphere_per_vcpu = false;
  EXPECT_TRUE(CompareHostSeries(p).agree);
  p.vsphere = Sampled(20, 3600, Load, 3);
  EXPECT_FALSE(CompareHostSeries(p).agree);  // 25% low
}

TEST(HostLinkTest, UnlikeCountersAllowATurboFactor) {
  HostSeriesPair p = Pair(Load, Load);
  p.esxtop = Sampled(5, 3600, Load, 4 * 1.25);  // % Used with turbo against run time
  p.vsphere = Sampled(20, 3600, Load, 4);
  p.vsphere_per_vcpu = false;
  EXPECT_FALSE(CompareHostSeries(p).agree);
  p.like_counters = false;
  EXPECT_TRUE(CompareHostSeries(p).agree);
}

TEST(HostLinkTest, TooLittleTimeTogetherIsNoVerdict) {
  HostSeriesPair p = Pair(Load, Load, 100);  // five 20 s intervals
  const SeriesAgreement a = CompareHostSeries(p);
  EXPECT_FALSE(a.agree);
  EXPECT_EQ(a.points, 5);
  // Not at the same time at all.
  p = Pair(Load, Load);
  for (TimedValue& v : p.vsphere) v.start += 7200 * kNsPerSec, v.end += 7200 * kNsPerSec;
  EXPECT_EQ(CompareHostSeries(p).points, 0);
}

TEST(HostLinkTest, FlatSeriesAgreeByLevelAlone) {
  const SeriesAgreement a = CompareHostSeries(Pair([](int) { return 12.0; }, [](int) { return 12.2; }));
  EXPECT_TRUE(a.agree) << a.why;
  EXPECT_FALSE(a.correlation);
  EXPECT_FALSE(CompareHostSeries(Pair([](int) { return 12.0; }, [](int) { return 20.0; })).agree);
}

TEST(HostLinkTest, AnIdleVsphereFigureCannotTellTheVcpus) {
  const SeriesAgreement a = CompareHostSeries(Pair([](int) { return 0.5; }, [](int) { return 0.5; }));
  EXPECT_FALSE(a.agree);
  EXPECT_NE(a.why.find("too low"), std::string::npos) << a.why;
}

}  // namespace
}  // namespace vrecon::models
