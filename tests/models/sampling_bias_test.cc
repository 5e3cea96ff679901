// The bias of Perfmon's tick sampling per process (models/sampling_bias.h), on windows written by
// hand: the ratio of the precise figure to the sampled one where a window holds both, its
// interval, the windows it takes, and what it does to samples-only windows.
#include "models/sampling_bias.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace vrecon::models {
namespace {

// An events-basis window in which the trace's "app:10" is Perfmon's "app".
WindowResult Both(double sampled, double precise, const std::string& name = "app") {
  WindowResult w;
  w.basis = Basis::kEvents;
  ProcessResult p;
  p.name = name + ":10";
  p.basis = Basis::kEvents;
  p.guest_pct = precise;
  p.sampled_pct = sampled;
  p.sampled_name = name;
  w.processes.push_back(p);
  return w;
}

// A samples-basis window: Perfmon's "app" at `guest` % of one CPU, corrected by w = 1.5 with an
// interval of +-3.
WindowResult SamplesOnly(double guest, const std::string& name = "app") {
  WindowResult w;
  w.basis = Basis::kSamples;
  ProcessResult p;
  p.name = name;
  p.guest_pct = guest;
  p.corrected_pct = guest * 1.5;
  p.ci_lo = guest * 1.5 - 3;
  p.ci_hi = guest * 1.5 + 3;
  w.processes.push_back(p);
  return w;
}

bool Flagged(const WindowResult& w) {
  for (const Flag& f : w.flags)
    if (f.code == "sampling-bias") return true;
  return false;
}

TEST(SamplingBiasTest, RatioOfSumsWithAnIntervalFromTheWindowsScatter) {
  std::vector<WindowResult> ws;
  for (double e : {22.0, 24.0, 26.0, 23.0, 25.0, 24.0}) ws.push_back(Both(40, e));
  const SamplingBias bias = EstimateSamplingBias(ws, SamplingBiasConfig{});
  ASSERT_EQ(bias.processes.count("app"), 1u);
  const ProcessBias& b = bias.processes.at("app");
  EXPECT_EQ(b.windows, 6);
  EXPECT_DOUBLE_EQ(b.ratio, 0.6);
  EXPECT_DOUBLE_EQ(b.sampled_mean_pct, 40);
  EXPECT_DOUBLE_EQ(b.precise_mean_pct, 24);
  // sd of the events 1.414, its mean's standard error 0.577, t(5) 2.571: +-1.48 points of 40.
  EXPECT_NEAR(b.hi - b.ratio, 2.5706 * std::sqrt(10.0 / 5 / 6) / 40, 1e-3);
  EXPECT_NEAR(b.ratio - b.lo, b.hi - b.ratio, 1e-12);
}

TEST(SamplingBiasTest, FewerThanSixWindowsOrLittleSampledCpuSayNothing) {
  std::vector<WindowResult> ws;
  for (int i = 0; i < 5; ++i) ws.push_back(Both(40, 24));
  for (int i = 0; i < 4; ++i) ws.push_back(Both(0.5, 2, "tiny"));  // under 1% sampled: not counted
  for (int i = 0; i < 3; ++i) ws.push_back(Both(0.9, 2, "tiny"));
  EXPECT_TRUE(EstimateSamplingBias(ws, SamplingBiasConfig{}).processes.empty());
  ws.push_back(SamplesOnly(40));
  ApplySamplingBias(SamplingBiasConfig{}, &ws);
  EXPECT_FALSE(Flagged(ws.back()));
}

TEST(SamplingBiasTest, SamplesOnlyWindowsAreFlaggedOutsideNinetyToHundredTenPercent) {
  std::vector<WindowResult> ws;
  for (int i = 0; i < 6; ++i) ws.push_back(Both(40, 24));
  for (int i = 0; i < 6; ++i) ws.push_back(Both(40, 42, "calm"));  // 1.05: within
  WindowResult mixed = SamplesOnly(40);
  mixed.processes.push_back(SamplesOnly(40, "calm").processes[0]);
  ws.push_back(mixed);
  ws.push_back(SamplesOnly(10, "other"));
  ApplySamplingBias(SamplingBiasConfig{}, &ws);
  for (size_t i = 0; i < 12; ++i) EXPECT_FALSE(Flagged(ws[i])) << "a window with a trace is measured, not biased";
  ASSERT_TRUE(Flagged(ws[12]));
  const Flag& f = ws[12].flags.back();
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_NE(f.message.find("app: ETW context switches measured 0.60x Perfmon's figure (95% interval 0.60-0.60, 6 "
                           "windows with both: Perfmon 40.0%, events 24.0% of one CPU on average)"),
            std::string::npos)
      << f.message;
  EXPECT_EQ(f.message.find("calm"), std::string::npos) << f.message;
  EXPECT_DOUBLE_EQ(*ws[12].processes[0].corrected_pct, 60) << "flagged, not changed, without calibration";
  EXPECT_FALSE(Flagged(ws[13]));
}

TEST(SamplingBiasTest, CalibrationScalesTheFigureAndWidensTheInterval) {
  std::vector<WindowResult> ws;
  for (double e : {22.0, 24.0, 26.0, 23.0, 25.0, 24.0}) ws.push_back(Both(40, e));
  ws.push_back(SamplesOnly(40));
  SamplingBiasConfig config;
  config.calibrate = true;
  const ProcessBias b = EstimateSamplingBias(ws, config).processes.at("app");
  ApplySamplingBias(config, &ws);
  const ProcessResult& p = ws.back().processes[0];
  ASSERT_TRUE(p.corrected_pct && p.ci_lo && p.ci_hi && p.bias_ratio);
  EXPECT_DOUBLE_EQ(*p.bias_ratio, 0.6);
  EXPECT_DOUBLE_EQ(*p.corrected_pct, 36);
  EXPECT_DOUBLE_EQ(*p.guest_pct, 40) << "what Perfmon said stays";
  const double rel = std::hypot(3.0 / 60, (b.hi - b.lo) / 2 / 0.6);
  EXPECT_NEAR(*p.ci_hi - 36, 36 * rel, 1e-9);
  EXPECT_NEAR(36 - *p.ci_lo, 36 * rel, 1e-9);
  EXPECT_EQ(ws.back().flags.back().severity, Severity::kInfo);
}

// A tick-locked "ticker" read at 100% of one CPU by Perfmon and 50% by the trace, on 2 vCPUs whose
// total Perfmon reads 80% and the trace 70% (idle 20% against 30%: ratio 1.5). In a window Perfmon
// alone covers, with its total at 80% and the host at 70% (w 0.875): calibrated, the total is
// 100 - 20 x 1.5 = 70, w is 1.0, the ticker 50, and every process follows the new w.
TEST(SamplingBiasTest, CalibrationTakesTheGuestTotalFromIdlesRatio) {
  std::vector<WindowResult> ws;
  for (int i = 0; i < 6; ++i) {
    WindowResult w = Both(100, 50, "ticker");
    w.processes.push_back(Both(30, 30, "other").processes[0]);
    w.sampled_guest_util_pct = 80;
    w.guest_util_pct = 70;
    ws.push_back(w);
  }
  EXPECT_DOUBLE_EQ(EstimateSamplingBias(ws, SamplingBiasConfig{}).idle->ratio, 1.5);
  WindowResult only;
  only.basis = Basis::kSamples;
  only.vcpus = 2;
  only.guest_util_pct = 80;
  only.w = 70.0 / 80;
  for (const auto& [name, guest] : {std::pair<std::string, double>{"ticker", 100}, {"other", 30}}) {
    ProcessResult p;
    p.name = name;
    p.guest_pct = guest;
    p.corrected_pct = guest * 70 / 80;
    p.ci_lo = *p.corrected_pct - 1;
    p.ci_hi = *p.corrected_pct + 1;
    only.processes.push_back(p);
  }
  ws.push_back(only);
  SamplingBiasConfig config;
  config.calibrate = true;
  ApplySamplingBias(config, &ws);
  const WindowResult& c = ws.back();
  ASSERT_TRUE(c.w);
  EXPECT_DOUBLE_EQ(*c.w, 1.0);
  EXPECT_DOUBLE_EQ(*c.processes[0].corrected_pct, 50);
  EXPECT_DOUBLE_EQ(*c.processes[0].bias_ratio, 0.5 * 80 / 70);
  EXPECT_DOUBLE_EQ(*c.processes[1].corrected_pct, 30);  // not flagged: Perfmon's 30 x the new w
  EXPECT_DOUBLE_EQ(*c.processes[1].bias_ratio, 80.0 / 70);
  EXPECT_DOUBLE_EQ(*c.guest_util_pct, 80) << "what Perfmon said stays";
  EXPECT_NE(c.flags.back().message.find("100 less Perfmon's idle x 1.500"), std::string::npos)
      << c.flags.back().message;
}

}  // namespace
}  // namespace vrecon::models
