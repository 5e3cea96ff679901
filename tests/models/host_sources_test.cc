// One VM, two host-side sources (models/host_sources.h): each window takes the finer source's
// figure (then the one counting time), falls back to the other where the finer misses the
// window, lists both, and says when they disagree.
#include "models/host_sources.h"

#include <gtest/gtest.h>

namespace vrecon::models {
namespace {

constexpr TimeNs kW = 300 * kNsPerSec;

WindowResult Window(int i, HostSource source, const std::string& counter, std::optional<double> host,
                    double coverage = 1) {
  WindowResult r;
  r.start = i * kW;
  r.end = (i + 1) * kW;
  r.host = source;
  r.host_counter = counter;
  r.host_util_pct = host;
  r.host_coverage = host ? coverage : 0;
  r.guest_util_pct = 40;
  if (host) r.w = *host / 40;
  return r;
}

HostSourceWindows Source(HostSource source, const std::string& counter, double interval_s,
                         const std::vector<std::optional<double>>& values) {
  HostSourceWindows s{{}, interval_s, counter};
  for (size_t i = 0; i < values.size(); ++i)
    s.windows.push_back(Window(static_cast<int>(i), source, counter, values[i]));
  return s;
}

bool HasSourceFlag(const WindowResult& r, const std::string& code) {
  for (const Flag& f : r.flags)
    if (f.code == code) return true;
  return false;
}

TEST(HostSourcesTest, TheFinerIntervalFirstThenTheCounterThatCountsTime) {
  const HostSourceWindows vsphere = Source(HostSource::kVsphere, "cpu.usage.average", 20, {});
  const HostSourceWindows esxtop = Source(HostSource::kEsxtop, "% Used", 5, {});
  EXPECT_EQ(HostPreference({vsphere, esxtop}), (std::vector<size_t>{1, 0}));
  const HostSourceWindows run = Source(HostSource::kVsphere, "cpu.run.summation", 20.5, {});
  const HostSourceWindows used = Source(HostSource::kEsxtop, "% Used", 20, {});
  EXPECT_EQ(HostPreference({used, run}), (std::vector<size_t>{1, 0}));  // within 5%: time first
  EXPECT_TRUE(IsTimeCounter("% Run"));
  EXPECT_TRUE(IsTimeCounter("% Total Run Time"));
  EXPECT_FALSE(IsTimeCounter("cpu.usage.average"));
}

TEST(HostSourcesTest, EachWindowTakesThePreferredSourceAndListsBoth) {
  std::vector<WindowResult> out =
      JoinHostSources({Source(HostSource::kVsphere, "cpu.usage.average", 20, {41, 30, std::nullopt}),
                       Source(HostSource::kEsxtop, "% Used", 5, {40, std::nullopt, 50})},
                      CorrectionConfig{});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].host, HostSource::kEsxtop);
  EXPECT_EQ(*out[0].host_util_pct, 40);
  ASSERT_EQ(out[0].host_sources.size(), 2u);
  EXPECT_EQ(out[0].host_sources[0].source, HostSource::kEsxtop);
  EXPECT_EQ(out[0].host_sources[1].counter, "cpu.usage.average");
  EXPECT_EQ(out[0].host_sources[1].pct, 41);
  EXPECT_FALSE(HasSourceFlag(out[0], "host-sources-disagree"));
  // esxtop has no figure in the second window: vSphere's stands in.
  EXPECT_EQ(out[1].host, HostSource::kVsphere);
  EXPECT_EQ(*out[1].w, 30.0 / 40);
  EXPECT_EQ(out[1].host_sources.size(), 1u);
  EXPECT_EQ(out[2].host, HostSource::kEsxtop);
}

TEST(HostSourcesTest, ASourceCoveringTooLittleOfTheWindowGivesWayToOneThatCovers) {
  HostSourceWindows esxtop = Source(HostSource::kEsxtop, "% Used", 5, {40});
  esxtop.windows[0].host_coverage = 0.3;
  std::vector<WindowResult> out =
      JoinHostSources({esxtop, Source(HostSource::kVsphere, "cpu.usage.average", 20, {42})}, CorrectionConfig{});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].host, HostSource::kVsphere);
  EXPECT_EQ(out[0].host_sources.size(), 2u);
  EXPECT_FALSE(HasSourceFlag(out[0], "host-sources-disagree"));  // one of them covers too little to compare
}

TEST(HostSourcesTest, FiguresApartBeyondTheirToleranceAreFlaggedWithBothValues) {
  std::vector<WindowResult> out =
      JoinHostSources({Source(HostSource::kEsxtop, "% Used", 5, {40, 60, 10}),
                       Source(HostSource::kVsphere, "cpu.usage.average", 20, {30, 56, 11.9})},
                      CorrectionConfig{});
  ASSERT_EQ(out.size(), 3u);
  ASSERT_TRUE(HasSourceFlag(out[0], "host-sources-disagree"));
  const Flag& f = out[0].flags.back();
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_NE(f.message.find("esxtop % Used reads 40.0%"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("vsphere cpu.usage.average 30.0%"), std::string::npos) << f.message;
  EXPECT_FALSE(HasSourceFlag(out[1], "host-sources-disagree"));  // 4 points: within 10%
  EXPECT_FALSE(HasSourceFlag(out[2], "host-sources-disagree"));  // 1.9 points: within 2
  EXPECT_TRUE(HostFiguresDisagree(10, 12.1));
}

TEST(HostSourcesTest, ADisagreementBetweenTimeAndClockScaledCountersSaysSo) {
  std::vector<WindowResult> out = JoinHostSources(
      {Source(HostSource::kEsxtop, "% Run", 5, {40}), Source(HostSource::kVsphere, "cpu.usage.average", 20, {52})},
      CorrectionConfig{});
  ASSERT_TRUE(HasSourceFlag(out[0], "host-sources-disagree"));
  EXPECT_NE(out[0].flags.back().message.find("one counts time"), std::string::npos) << out[0].flags.back().message;
}

}  // namespace
}  // namespace vrecon::models
