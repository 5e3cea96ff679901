#include "src/engine/ready_digest_codec.h"

#include <array>
#include <cstdint>

#include "src/store/blob_codec.h"

namespace vrecon {
namespace {

constexpr uint8_t kVersion = 1;
constexpr uint8_t kVersionWithReach = 2;  // a day's digest that records how far its samples reach

void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool TakeVarint(std::string_view* in, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in->empty()) return false;
    const auto b = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    *v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

// Counts are never negative in a stored digest; a negative one is written as 0 would be wrong,
// so they go as they are (two's complement through the varint).
void PutCount(std::string* out, int64_t v) { PutVarint(out, static_cast<uint64_t>(v)); }
bool TakeCount(std::string_view* in, int64_t* v) {
  uint64_t u = 0;
  if (!TakeVarint(in, &u)) return false;
  *v = static_cast<int64_t>(u);
  return true;
}

using Sketch = QuantileSketch;

void PutBucket(std::string* out, const Sketch::Bucket& b) {
  PutCount(out, b.count);
  blob::Put(out, b.sum);
}

bool TakeBucket(std::string_view* in, Sketch::Bucket* b) { return TakeCount(in, &b->count) && blob::Take(in, &b->sum); }

void PutBuckets(std::string* out, const Sketch::Buckets& buckets) {
  PutVarint(out, buckets.size());
  int64_t prev = 0;
  for (const auto& [k, b] : buckets) {
    const int64_t delta = k - prev;
    PutVarint(out, (static_cast<uint64_t>(delta) << 1) ^ static_cast<uint64_t>(delta >> 63));  // zigzag
    PutBucket(out, b);
    prev = k;
  }
}

bool TakeBuckets(std::string_view* in, Sketch::Buckets* buckets) {
  uint64_t n = 0;
  if (!TakeVarint(in, &n) || n > in->size()) return false;
  int64_t prev = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t z = 0;
    Sketch::Bucket b;
    if (!TakeVarint(in, &z) || !TakeBucket(in, &b)) return false;
    prev += static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1);
    if (prev < INT32_MIN || prev > INT32_MAX) return false;
    (*buckets)[static_cast<int32_t>(prev)] = b;
  }
  return true;
}

void PutValues(std::string* out, const models::ValueDigest& v) {
  PutCount(out, v.n);
  blob::Put(out, v.sum);
  PutVarint(out, v.above.size());
  for (int64_t a : v.above) PutCount(out, a);
  PutBucket(out, v.sketch.zeros());
  PutBuckets(out, v.sketch.positive());
  PutBuckets(out, v.sketch.negative());
}

bool TakeValues(std::string_view* in, models::ValueDigest* v) {
  uint64_t thresholds = 0;
  if (!TakeCount(in, &v->n) || !blob::Take(in, &v->sum) || !TakeVarint(in, &thresholds) || thresholds > 16)
    return false;
  v->above.resize(thresholds);
  for (int64_t& a : v->above)
    if (!TakeCount(in, &a)) return false;
  Sketch::Bucket zeros;
  Sketch::Buckets pos, neg;
  if (!TakeBucket(in, &zeros) || !TakeBuckets(in, &pos) || !TakeBuckets(in, &neg)) return false;
  v->sketch.Set(std::move(pos), std::move(neg), zeros);
  return true;
}

template <typename D>
auto Fields(D& d) {
  return std::array{&d.ready, &d.costop, &d.run, &d.wait, &d.usage, &d.wait_per_dispatch_us, &d.host_load};
}

}  // namespace

std::string EncodeReadyDigest(const models::ReadyDigest& d, std::optional<TimeNs> reach) {
  std::string out;
  out.push_back(static_cast<char>(reach ? kVersionWithReach : kVersion));
  if (reach) blob::Put(&out, static_cast<int64_t>(*reach));
  PutCount(&out, d.states);
  for (const models::ValueDigest* v : Fields(d)) PutValues(&out, *v);
  return out;
}

StatusOr<models::ReadyDigest> DecodeReadyDigest(std::string_view in, std::optional<TimeNs>* reach) {
  models::ReadyDigest d;
  const uint8_t version = in.empty() ? 0 : static_cast<uint8_t>(in.front());
  if (version != kVersion && version != kVersionWithReach)
    return Status::ParseError("stored Ready-Time digest: unknown version");
  in.remove_prefix(1);
  bool ok = true;
  std::optional<TimeNs> r;
  if (version == kVersionWithReach) {
    int64_t t = 0;
    ok = blob::Take(&in, &t);
    r = t;
  }
  if (reach) *reach = r;
  ok = ok && TakeCount(&in, &d.states);
  for (models::ValueDigest* v : Fields(d)) ok = ok && TakeValues(&in, v);
  if (!ok || !in.empty()) return Status::ParseError("stored Ready-Time digest is truncated or corrupt");
  return d;
}

}  // namespace vrecon
