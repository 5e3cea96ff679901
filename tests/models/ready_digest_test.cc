// Mergeable Ready-Time digests (models/ready_digest.h): a VM's summary from the sum of its days'
// digests is the summary AnalyzeVm gives from all its samples (counts, shares, hints exactly,
// means to rounding, p95s within 1%); taking a day out undoes adding it; the stored form reads
// back whole and refuses a damaged blob.
#include "models/ready_digest.h"

#include <gtest/gtest.h>

#include <random>

#include "src/engine/ready_digest_codec.h"

namespace vrecon::models {
namespace {

constexpr TimeNs kDay = 86400 * kNsPerSec;
constexpr TimeNs kStep = 20 * kNsPerSec;

// `days` days of 20 s samples of a 4-vCPU VM: ready and co-stop summed over vCPUs, run, usage,
// and the host's load, values from a seed.
ReadyInput Vm(int days, unsigned seed, TimeNs start = 1795478400 * kNsPerSec) {
  std::mt19937 rng(seed);
  std::gamma_distribution<double> ready(2.0, 6.0);
  std::uniform_real_distribution<double> u(0, 1);
  ReadyInput in;
  in.vm = "WEB01";
  in.source = "vsphere";
  in.host = "esx01";
  in.vcpus = 4;
  for (TimeNs t = start; t < start + days * kDay; t += kStep) {
    const double r = ready(rng);
    in.ready.push_back({t, t + kStep, r});
    in.costop.push_back({t, t + kStep, u(rng) < 0.2 ? 4 * r * u(rng) : 0.0});
    in.run.push_back({t, t + kStep, 100 + 200 * u(rng)});
    in.usage.push_back({t, t + kStep, 30 + 40 * u(rng)});
    in.host_load.push_back({t, t + kStep, 70});  // constant: its p95 is exactly 70
  }
  return in;
}

ReadyDigest DigestOfDays(const ReadyInput& in) {
  ReadyDigest total;
  for (const auto& [day, part] : SplitByDay(in)) total.Merge(DigestReady(part));
  return total;
}

void ExpectNear1Pct(const std::optional<double>& got, const std::optional<double>& want, const char* what) {
  ASSERT_EQ(got.has_value(), want.has_value()) << what;
  if (want) {
    EXPECT_NEAR(*got, *want, 0.01 * std::fabs(*want) + 1e-12) << what;
  }
}

TEST(ReadyDigestTest, SumOfDaysGivesTheSummaryOfAllSamples) {
  const ReadyInput in = Vm(5, 1);
  const VmReadySummary want = AnalyzeVm(in);
  const VmReadySummary got = SummarizeDigest(DigestOfDays(in), in);
  EXPECT_EQ(got.samples, want.samples);
  EXPECT_EQ(got.ready.samples, want.ready.samples);
  EXPECT_NEAR(*got.ready.mean, *want.ready.mean, 1e-9);
  EXPECT_EQ(got.ready.share_above, want.ready.share_above);
  EXPECT_EQ(got.costop.share_above, want.costop.share_above);
  EXPECT_NEAR(*got.costop.mean, *want.costop.mean, 1e-9);
  EXPECT_NEAR(*got.run_mean, *want.run_mean, 1e-9);
  EXPECT_NEAR(*got.usage_mean, *want.usage_mean, 1e-9);
  EXPECT_FALSE(got.wait_mean.has_value());
  ExpectNear1Pct(got.ready.p95, want.ready.p95, "ready p95");
  ExpectNear1Pct(got.costop.p95, want.costop.p95, "costop p95");
  EXPECT_EQ(*got.host_load->p95, 70.0);
  ASSERT_EQ(got.hints.size(), want.hints.size());
  for (size_t i = 0; i < want.hints.size(); ++i) EXPECT_EQ(got.hints[i].code, want.hints[i].code);
}

TEST(ReadyDigestTest, QuantilesStayWithinOnePercentOnSeveralShapes) {
  std::mt19937 rng(7);
  std::lognormal_distribution<double> wide(0, 2);
  std::uniform_real_distribution<double> narrow(99, 101);
  std::exponential_distribution<double> exp(0.3);
  for (int shape = 0; shape < 3; ++shape) {
    std::vector<double> v;
    QuantileSketch s;
    for (int i = 0; i < 20000; ++i) {
      const double x = shape == 0 ? wide(rng) : shape == 1 ? narrow(rng) : (i % 3 == 0 ? 0.0 : exp(rng));
      v.push_back(x);
      s.Add(x);
    }
    for (double p : {0.5, 0.9, 0.95, 0.99})
      ExpectNear1Pct(s.Quantile(p), Percentile(v, p), ("shape " + std::to_string(shape)).c_str());
  }
  EXPECT_FALSE(QuantileSketch().Quantile(0.95).has_value());
}

TEST(ReadyDigestTest, TakingADayOutUndoesAddingIt) {
  const ReadyInput in = Vm(3, 2);
  const auto days = SplitByDay(in);
  ASSERT_EQ(days.size(), 3u);
  ReadyDigest two;
  for (auto it = days.begin(); std::next(it) != days.end(); ++it) two.Merge(DigestReady(it->second));
  ReadyDigest all = two;
  const ReadyDigest last = DigestReady(days.rbegin()->second);
  all.Merge(last);
  all.Merge(last, -1);
  EXPECT_EQ(EncodeReadyDigest(all).size(), EncodeReadyDigest(two).size());
  const VmReadySummary a = SummarizeDigest(all, in), b = SummarizeDigest(two, in);
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.ready.p95, b.ready.p95);
  EXPECT_EQ(a.ready.share_above, b.ready.share_above);
  EXPECT_NEAR(*a.ready.mean, *b.ready.mean, 1e-9);
  // Everything out: nothing left, not a rounding residue.
  all.Merge(two, -1);
  EXPECT_EQ(all.ready.n, 0);
  EXPECT_EQ(all.ready.sum, 0);
  EXPECT_FALSE(SummarizeDigest(all, in).ready.p95.has_value());
}

TEST(ReadyDigestTest, SplitsByTheUtcDayEachSampleStartsIn) {
  ReadyInput in;
  const TimeNs midnight = 1795478400 * kNsPerSec;  // 2026-11-24T00:00:00Z
  in.ready = {{midnight - kStep, midnight, 1}, {midnight, midnight + kStep, 2}, {midnight - 1, midnight + 1, 3}};
  in.host_load = {{midnight + kDay, midnight + kDay + kStep, 50}};
  const auto days = SplitByDay(in);
  ASSERT_EQ(days.size(), 3u);
  EXPECT_EQ(days.at(midnight - kDay).ready.size(), 2u);
  EXPECT_EQ(days.at(midnight).ready.size(), 1u);
  EXPECT_EQ(days.at(midnight + kDay).host_load.size(), 1u);
}

TEST(ReadyDigestCodecTest, ReadsBackWholeAndRefusesDamage) {
  const ReadyInput in = Vm(1, 3);
  ReadyInput hyperv;
  hyperv.wait_per_dispatch_ns = {{0, kStep, 45000}, {kStep, 2 * kStep, -3}, {2 * kStep, 3 * kStep, 0}};
  for (const ReadyDigest& d : {DigestReady(in), DigestReady(hyperv)}) {
    const std::string blob = EncodeReadyDigest(d);
    auto back = DecodeReadyDigest(blob);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(EncodeReadyDigest(*back), blob);
    EXPECT_EQ(SummarizeDigest(*back, in).ready.p95, SummarizeDigest(d, in).ready.p95);
    EXPECT_FALSE(DecodeReadyDigest(blob.substr(0, blob.size() - 1)).ok());
    EXPECT_FALSE(DecodeReadyDigest(blob + "x").ok());
    EXPECT_FALSE(DecodeReadyDigest("").ok());
  }
  // A day of 20 s samples takes a few kilobytes (docs/ready.md).
  EXPECT_LT(EncodeReadyDigest(DigestReady(in)).size(), 16000u);
}

}  // namespace
}  // namespace vrecon::models
