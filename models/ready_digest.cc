#include "models/ready_digest.h"

#include <cmath>

namespace vrecon::models {
namespace {

// Values closer to zero than this are counted as zero (percentages and microseconds).
constexpr double kMinPositive = 1e-9;
// DDSketch's buckets: bucket i holds (gamma^(i-1), gamma^i], so any value in it, and their mean,
// is within kRelativeError of 2 gamma^i / (gamma + 1), and two values in it within 2x that.
const double kGamma = (1 + QuantileSketch::kRelativeError) / (1 - QuantileSketch::kRelativeError);
const double kLogGamma = std::log(kGamma);

int32_t BucketOf(double magnitude) { return static_cast<int32_t>(std::ceil(std::log(magnitude) / kLogGamma)); }

void MergeBucket(QuantileSketch::Bucket* into, const QuantileSketch::Bucket& from, int sign) {
  into->count += sign * from.count;
  into->sum += sign * from.sum;
  if (into->count == 0) into->sum = 0;  // what a day taken out leaves is exactly nothing
}

void MergeBuckets(QuantileSketch::Buckets* into, const QuantileSketch::Buckets& from, int sign) {
  for (const auto& [k, b] : from) {
    QuantileSketch::Bucket& mine = (*into)[k];
    MergeBucket(&mine, b, sign);
    if (mine.count == 0) into->erase(k);
  }
}

double Mean(const QuantileSketch::Bucket& b) { return b.sum / static_cast<double>(b.count); }

}  // namespace

void QuantileSketch::Add(double v) {
  ++count_;
  Bucket& b = std::fabs(v) < kMinPositive ? zeros_ : v > 0 ? pos_[BucketOf(v)] : neg_[BucketOf(-v)];
  ++b.count;
  b.sum += v;
}

void QuantileSketch::Merge(const QuantileSketch& o, int sign) {
  MergeBuckets(&pos_, o.pos_, sign);
  MergeBuckets(&neg_, o.neg_, sign);
  MergeBucket(&zeros_, o.zeros_, sign);
  count_ += sign * o.count_;
}

void QuantileSketch::Set(Buckets pos, Buckets neg, Bucket zeros) {
  pos_ = std::move(pos);
  neg_ = std::move(neg);
  zeros_ = zeros;
  count_ = zeros.count;
  for (const auto& [k, b] : pos_) count_ += b.count;
  for (const auto& [k, b] : neg_) count_ += b.count;
}

double QuantileSketch::ValueAtRank(int64_t rank) const {
  // Ascending: negatives from the largest magnitude down, zeros, positives up.
  for (auto it = neg_.rbegin(); it != neg_.rend(); ++it) {
    if (rank < it->second.count) return Mean(it->second);
    rank -= it->second.count;
  }
  if (rank < zeros_.count) return 0;
  rank -= zeros_.count;
  for (const auto& [k, b] : pos_) {
    if (rank < b.count) return Mean(b);
    rank -= b.count;
  }
  return pos_.empty() ? 0 : Mean(pos_.rbegin()->second);
}

std::optional<double> QuantileSketch::Quantile(double p) const {
  if (count_ <= 0) return std::nullopt;
  const double h = static_cast<double>(count_ - 1) * p;
  const auto lo = static_cast<int64_t>(std::floor(h));
  const int64_t hi = std::min(lo + 1, count_ - 1);
  const double a = ValueAtRank(lo), b = ValueAtRank(hi);
  return a + (h - static_cast<double>(lo)) * (b - a);
}

void ValueDigest::Add(double v, const std::vector<double>& thresholds, bool quantiles) {
  ++n;
  sum += v;
  above.resize(thresholds.size());
  for (size_t i = 0; i < thresholds.size(); ++i) above[i] += v > thresholds[i] ? 1 : 0;
  if (quantiles) sketch.Add(v);
}

void ValueDigest::Merge(const ValueDigest& o, int sign) {
  n += sign * o.n;
  sum += sign * o.sum;
  if (above.size() < o.above.size()) above.resize(o.above.size());
  for (size_t i = 0; i < o.above.size(); ++i) above[i] += sign * o.above[i];
  sketch.Merge(o.sketch, sign);
  if (n == 0) sum = 0;
}

Summary ValueDigest::ToSummary() const {
  Summary s;
  s.samples = static_cast<int>(n);
  if (n > 0) s.mean = sum / static_cast<double>(n);
  s.p95 = sketch.Quantile(0.95);
  for (int64_t a : above) s.share_above.push_back(n > 0 ? static_cast<double>(a) / static_cast<double>(n) : NAN);
  return s;
}

void ReadyDigest::Merge(const ReadyDigest& o, int sign) {
  states += sign * o.states;
  for (auto [mine, theirs] : {std::pair{&ready, &o.ready},
                              {&costop, &o.costop},
                              {&run, &o.run},
                              {&wait, &o.wait},
                              {&usage, &o.usage},
                              {&wait_per_dispatch_us, &o.wait_per_dispatch_us},
                              {&host_load, &o.host_load}})
    mine->Merge(*theirs, sign);
}

ReadyDigest DigestReady(const ReadyInput& in, const ReadyThresholds& t) {
  ReadyDigest d;
  const std::vector<StateSample> states = PerVcpuStates(in);
  d.states = static_cast<int64_t>(states.size());
  const std::vector<double> ready_t = {t.ready_warn_pct, t.ready_crit_pct}, costop_t = {t.costop_pct}, none;
  for (const StateSample& s : states) {
    if (s.ready) d.ready.Add(*s.ready, ready_t);
    if (s.costop) d.costop.Add(*s.costop, costop_t);
    if (s.run) d.run.Add(*s.run, none, false);
    if (s.wait) d.wait.Add(*s.wait, none, false);
    if (s.usage) d.usage.Add(*s.usage, none, false);
  }
  for (const Interval& i : in.wait_per_dispatch_ns)
    if (!std::isnan(i.value))
      d.wait_per_dispatch_us.Add(i.value / 1000.0, {t.wait_dispatch_warn_us, t.wait_dispatch_crit_us});
  for (const Interval& i : in.host_load)
    if (!std::isnan(i.value)) d.host_load.Add(i.value, {t.host_load_warn_pct, t.host_load_crit_pct});
  return d;
}

std::map<TimeNs, ReadyInput> SplitByDay(const ReadyInput& in) {
  std::map<TimeNs, ReadyInput> days;
  auto split = [&](const std::vector<Interval>& from, std::vector<Interval> ReadyInput::*field) {
    for (const Interval& i : from) {
      ReadyInput& day = days[FloorTo(i.start, kNsPerDay)];
      (day.*field).push_back(i);
    }
  };
  for (auto field : {&ReadyInput::ready, &ReadyInput::costop, &ReadyInput::run, &ReadyInput::wait, &ReadyInput::used,
                     &ReadyInput::usage, &ReadyInput::wait_per_dispatch_ns, &ReadyInput::host_load})
    split(in.*field, field);
  for (auto& [day, d] : days) {
    d.vm = in.vm;
    d.source = in.source;
    d.vcpus = in.vcpus;
    d.host = in.host;
  }
  return days;
}

VmReadySummary SummarizeDigest(const ReadyDigest& d, const ReadyInput& meta, const ReadyThresholds& t) {
  VmReadySummary r;
  r.vm = meta.vm;
  r.source = meta.source;
  r.host = meta.host;
  r.vcpus = meta.vcpus;
  r.ready = d.ready.ToSummary();
  r.costop = d.costop.ToSummary();
  r.run_mean = d.run.ToSummary().mean;
  r.wait_mean = d.wait.ToSummary().mean;
  r.usage_mean = d.usage.ToSummary().mean;
  r.samples = static_cast<int>(std::max(d.states, d.wait_per_dispatch_us.n));
  if (d.wait_per_dispatch_us.n > 0) r.wait_per_dispatch_us = d.wait_per_dispatch_us.ToSummary();
  if (d.host_load.n > 0) r.host_load = d.host_load.ToSummary();
  AddReadyHints(&r, t);
  return r;
}

}  // namespace vrecon::models
