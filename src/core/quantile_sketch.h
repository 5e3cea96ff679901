// Quantiles of a stream of values in bounded memory, mergeable: DDSketch's logarithmic buckets,
// each keeping the count and the sum of what fell in it, so a bucket's value is their mean: exact
// when they were all equal, else within 1% (2 x kRelativeError). The Ready-Time day digests
// (models/ready_digest) and the ETW readers' queue-time p95s (adapters/etw) keep theirs in one.
#ifndef VRECON_SRC_CORE_QUANTILE_SKETCH_H_
#define VRECON_SRC_CORE_QUANTILE_SKETCH_H_

#include <cstdint>
#include <map>
#include <optional>

namespace vrecon {

class QuantileSketch {
 public:
  static constexpr double kRelativeError = 0.005;

  // A bucket's values: how many and their sum. Its value is their mean: exact when they are all
  // equal (a constant load is summarised as itself), else within 1% of each.
  struct Bucket {
    int64_t count = 0;
    double sum = 0;
  };
  using Buckets = std::map<int32_t, Bucket>;

  void Add(double v);
  // sign -1 takes out a sketch added before (a day being replaced).
  void Merge(const QuantileSketch& o, int sign = 1);
  int64_t count() const { return count_; }
  // As Percentile (closest ranks, linear between them), on the buckets' values.
  std::optional<double> Quantile(double p) const;

  // Buckets of positive values by index, of negative ones by the index of -v, and the values
  // that are zero (below 1e-9 in magnitude): what a codec writes and reads back (Set).
  const Buckets& positive() const { return pos_; }
  const Buckets& negative() const { return neg_; }
  const Bucket& zeros() const { return zeros_; }
  void Set(Buckets pos, Buckets neg, Bucket zeros);

 private:
  double ValueAtRank(int64_t rank) const;  // 0-based, over the sorted values
  Buckets pos_, neg_;
  Bucket zeros_;
  int64_t count_ = 0;
};

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_QUANTILE_SKETCH_H_
