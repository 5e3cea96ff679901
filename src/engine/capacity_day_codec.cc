#include "src/engine/capacity_day_codec.h"

#include <cstdint>
#include <vector>

#include "src/store/blob_codec.h"

namespace vrecon {
namespace {

constexpr uint8_t kVersion = 1;

// Ascending values: their count, the first, then each one's step from the one before.
void PutAscending(std::string* out, const std::vector<int32_t>& v) {
  blob::PutVarint(out, v.size());
  int32_t prev = 0;
  for (int32_t x : v) {
    blob::PutVarint(out, static_cast<uint64_t>(static_cast<int64_t>(x) - prev));
    prev = x;
  }
}

bool TakeAscending(std::string_view* in, std::vector<int32_t>* v) {
  uint64_t n = 0;
  if (!blob::TakeVarint(in, &n) || n > in->size()) return false;
  v->reserve(n);
  int64_t at = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t step = 0;
    if (!blob::TakeVarint(in, &step) || step > INT32_MAX) return false;
    at += static_cast<int64_t>(step);
    if (at > INT32_MAX) return false;
    v->push_back(static_cast<int32_t>(at));
  }
  return true;
}

}  // namespace

std::string EncodeDemandDay(const models::DemandDay& d) {
  std::string out;
  out.push_back(static_cast<char>(kVersion));
  PutAscending(&out, d.closed);
  blob::Put(&out, d.closed_sum);
  blob::Put(&out, d.closed_max);
  blob::Put(&out, static_cast<int64_t>(d.closed_end));
  blob::Put(&out, static_cast<int64_t>(d.open_from));
  blob::PutVarint(&out, d.open.size());
  for (const models::DemandBin& b : d.open) {
    blob::Put(&out, static_cast<int64_t>(b.start));
    blob::Put(&out, b.cores);
  }
  for (double v : {d.closed_costop_pct_s, d.closed_costop_s, d.open_costop_pct_s, d.open_costop_s}) blob::Put(&out, v);
  blob::Put(&out, static_cast<int64_t>(d.reach));
  blob::Put(&out, d.block_seen);
  return out;
}

StatusOr<models::DemandDay> DecodeDemandDay(std::string_view in, TimeNs day) {
  models::DemandDay d;
  d.day = day;
  if (in.empty() || static_cast<uint8_t>(in.front()) != kVersion)
    return Status::ParseError("stored capacity day digest: unknown version");
  in.remove_prefix(1);
  int64_t closed_end = 0, open_from = 0, reach = 0;
  uint64_t open = 0;
  bool ok = TakeAscending(&in, &d.closed) && blob::Take(&in, &d.closed_sum) && blob::Take(&in, &d.closed_max) &&
            blob::Take(&in, &closed_end) && blob::Take(&in, &open_from) && blob::TakeVarint(&in, &open) &&
            open <= in.size() / 16;
  for (uint64_t k = 0; ok && k < open; ++k) {
    int64_t start = 0;
    double cores = 0;
    ok = blob::Take(&in, &start) && blob::Take(&in, &cores);
    d.open.push_back({start, cores});
  }
  for (double* v : {&d.closed_costop_pct_s, &d.closed_costop_s, &d.open_costop_pct_s, &d.open_costop_s})
    ok = ok && blob::Take(&in, v);
  ok = ok && blob::Take(&in, &reach) && blob::Take(&in, &d.block_seen);
  if (!ok || !in.empty()) return Status::ParseError("stored capacity day digest is truncated or corrupt");
  d.closed_end = closed_end;
  d.open_from = open_from;
  d.reach = reach;
  return d;
}

}  // namespace vrecon
