#include "src/core/quantile_sketch.h"

#include <algorithm>
#include <cmath>

namespace vrecon {
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

}  // namespace vrecon
