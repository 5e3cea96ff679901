#include "src/engine/sketch_codec.h"

#include <cstdint>

#include "src/store/blob_codec.h"

namespace vrecon {
namespace {

using Sketch = QuantileSketch;

// Counts are never negative in a stored sketch; a negative one (a digest taken out of another
// wrongly) goes as it is, two's complement through the varint, rather than as 0.
void PutBucket(std::string* out, const Sketch::Bucket& b) {
  blob::PutVarint(out, static_cast<uint64_t>(b.count));
  blob::Put(out, b.sum);
}

bool TakeBucket(std::string_view* in, Sketch::Bucket* b) {
  uint64_t count = 0;
  if (!blob::TakeVarint(in, &count)) return false;
  b->count = static_cast<int64_t>(count);
  return blob::Take(in, &b->sum);
}

void PutBuckets(std::string* out, const Sketch::Buckets& buckets) {
  blob::PutVarint(out, buckets.size());
  int64_t prev = 0;
  for (const auto& [k, b] : buckets) {
    blob::PutZigzag(out, k - prev);
    PutBucket(out, b);
    prev = k;
  }
}

bool TakeBuckets(std::string_view* in, Sketch::Buckets* buckets) {
  uint64_t n = 0;
  if (!blob::TakeVarint(in, &n) || n > in->size()) return false;
  int64_t prev = 0;
  for (uint64_t i = 0; i < n; ++i) {
    int64_t delta = 0;
    Sketch::Bucket b;
    if (!blob::TakeZigzag(in, &delta) || !TakeBucket(in, &b) || delta < INT32_MIN * 2LL || delta > INT32_MAX * 2LL)
      return false;
    prev += delta;
    if (prev < INT32_MIN || prev > INT32_MAX) return false;
    (*buckets)[static_cast<int32_t>(prev)] = b;
  }
  return true;
}

}  // namespace

void PutSketch(std::string* out, const QuantileSketch& s) {
  PutBucket(out, s.zeros());
  PutBuckets(out, s.positive());
  PutBuckets(out, s.negative());
}

bool TakeSketch(std::string_view* in, QuantileSketch* s) {
  Sketch::Bucket zeros;
  Sketch::Buckets pos, neg;
  if (!TakeBucket(in, &zeros) || !TakeBuckets(in, &pos) || !TakeBuckets(in, &neg)) return false;
  s->Set(std::move(pos), std::move(neg), zeros);
  return true;
}

}  // namespace vrecon
