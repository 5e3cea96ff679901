#include "src/engine/ready_digest_codec.h"

#include <array>
#include <cstdint>

#include "src/engine/sketch_codec.h"
#include "src/store/blob_codec.h"

namespace vrecon {
namespace {

constexpr uint8_t kVersion = 1;
constexpr uint8_t kVersionWithReach = 2;  // a day's digest that records how far its samples reach

using blob::PutVarint;
using blob::TakeVarint;

// Counts are never negative in a stored digest; a negative one is written as 0 would be wrong,
// so they go as they are (two's complement through the varint).
void PutCount(std::string* out, int64_t v) { PutVarint(out, static_cast<uint64_t>(v)); }
bool TakeCount(std::string_view* in, int64_t* v) {
  uint64_t u = 0;
  if (!TakeVarint(in, &u)) return false;
  *v = static_cast<int64_t>(u);
  return true;
}

void PutValues(std::string* out, const models::ValueDigest& v) {
  PutCount(out, v.n);
  blob::Put(out, v.sum);
  PutVarint(out, v.above.size());
  for (int64_t a : v.above) PutCount(out, a);
  PutSketch(out, v.sketch);
}

bool TakeValues(std::string_view* in, models::ValueDigest* v) {
  uint64_t thresholds = 0;
  if (!TakeCount(in, &v->n) || !blob::Take(in, &v->sum) || !TakeVarint(in, &thresholds) || thresholds > 16)
    return false;
  v->above.resize(thresholds);
  for (int64_t& a : v->above)
    if (!TakeCount(in, &a)) return false;
  return TakeSketch(in, &v->sketch);
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
