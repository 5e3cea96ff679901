#include "src/engine/capacity_day_codec.h"

#include <cstdint>
#include <vector>

#include "src/store/blob_codec.h"

namespace vrecon {
namespace {

constexpr uint8_t kDayCodecVersion = 1;

// Runs of consecutive indexes: (first, length).
std::vector<std::pair<int, int>> Runs(const std::vector<models::DayBin>& bins) {
  std::vector<std::pair<int, int>> runs;
  for (const models::DayBin& b : bins) {
    if (!runs.empty() && runs.back().first + runs.back().second == b.index) ++runs.back().second;
    else runs.emplace_back(b.index, 1);
  }
  return runs;
}

// The value's steps from the one before, zigzag-varint.
template <typename Get>
void PutSteps(std::string* out, const std::vector<models::DayBin>& bins, Get get) {
  int64_t prev = 0;
  for (const models::DayBin& b : bins) {
    blob::PutZigzag(out, get(b) - prev);
    prev = get(b);
  }
}

template <typename Set>
bool TakeSteps(std::string_view* in, std::vector<models::DayBin>* bins, Set set) {
  int64_t at = 0;
  for (models::DayBin& b : *bins) {
    int64_t step = 0;
    if (!blob::TakeZigzag(in, &step) || step < INT32_MIN * 2LL || step > INT32_MAX * 2LL) return false;
    at += step;
    if (at < -1 || at > INT32_MAX) return false;
    set(&b, static_cast<int32_t>(at));
  }
  return true;
}

bool TakeRuns(std::string_view* in, std::vector<models::DayBin>* bins) {
  uint64_t runs = 0;
  if (!blob::TakeVarint(in, &runs) || runs > static_cast<uint64_t>(models::kBinsPerDay)) return false;
  uint64_t next = 0;
  for (uint64_t r = 0; r < runs; ++r) {
    uint64_t gap = 0, length = 0;
    if (!blob::TakeVarint(in, &gap) || !blob::TakeVarint(in, &length) || length == 0) return false;
    next += gap;
    if (next + length > static_cast<uint64_t>(models::kBinsPerDay)) return false;
    for (uint64_t i = 0; i < length; ++i) bins->push_back({static_cast<int>(next + i), 0, -1});
    next += length;
  }
  return true;
}

}  // namespace

std::string EncodeDemandDay(const models::DemandDay& d) {
  std::string out;
  out.push_back(static_cast<char>(kDayCodecVersion));
  bool costop = false;
  for (const models::DayBin& b : d.bins) costop = costop || b.costop >= 0;
  out.push_back(costop ? 1 : 0);
  const std::vector<std::pair<int, int>> runs = Runs(d.bins);
  blob::PutVarint(&out, runs.size());
  int end = 0;
  for (const auto& [first, length] : runs) {
    blob::PutVarint(&out, static_cast<uint64_t>(first - end));
    blob::PutVarint(&out, static_cast<uint64_t>(length));
    end = first + length;
  }
  PutSteps(&out, d.bins, [](const models::DayBin& b) { return static_cast<int64_t>(b.milli); });
  if (costop) PutSteps(&out, d.bins, [](const models::DayBin& b) { return static_cast<int64_t>(b.costop) + 1; });
  blob::Put(&out, static_cast<int64_t>(d.reach));
  blob::Put(&out, d.block_seen);
  return out;
}

StatusOr<models::DemandDay> DecodeDemandDay(std::string_view in, TimeNs day) {
  models::DemandDay d;
  d.day = day;
  if (in.size() < 2 || static_cast<uint8_t>(in[0]) != kDayCodecVersion || static_cast<uint8_t>(in[1]) > 1)
    return Status::ParseError("stored capacity day digest: unknown version");
  const bool costop = in[1] == 1;
  in.remove_prefix(2);
  int64_t reach = 0;
  bool ok = TakeRuns(&in, &d.bins) && TakeSteps(&in, &d.bins, [](models::DayBin* b, int32_t v) { b->milli = v; }) &&
            (!costop || TakeSteps(&in, &d.bins, [](models::DayBin* b, int32_t v) { b->costop = v - 1; })) &&
            blob::Take(&in, &reach) && blob::Take(&in, &d.block_seen);
  for (const models::DayBin& b : d.bins) ok = ok && b.milli >= 0 && b.costop >= -1;
  if (!ok || !in.empty()) return Status::ParseError("stored capacity day digest is truncated or corrupt");
  d.reach = reach;
  return d;
}

namespace {

// AppendDayValues' reading of a blob's steps: a pointer walk, the one-byte varint (most steps of
// smooth demand) taken without a loop. The same checks as TakeZigzag and TakeSteps.
struct StepReader {
  const uint8_t* p;
  const uint8_t* end;

  // The next value of a run of zigzag steps from `*at`; false at a step or value out of range.
  bool Next(int64_t* at) {
    uint64_t u = 0;
    if (p < end && *p < 0x80) {
      u = *p++;
    } else {
      int shift = 0;
      for (;; shift += 7) {
        if (p == end || shift >= 64) return false;
        const uint8_t b = *p++;
        u |= static_cast<uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) break;
      }
    }
    const int64_t step = static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
    if (step < INT32_MIN * 2LL || step > INT32_MAX * 2LL) return false;
    *at += step;
    return *at >= 0 && *at <= INT32_MAX;
  }
};

}  // namespace

Status AppendDayValues(std::string_view in, std::vector<int32_t>* milli, std::pair<int64_t, int64_t>* costop) {
  if (in.size() < 2 || static_cast<uint8_t>(in[0]) != kDayCodecVersion || static_cast<uint8_t>(in[1]) > 1)
    return Status::ParseError("stored capacity day digest: unknown version");
  const bool with_costop = in[1] == 1;
  in.remove_prefix(2);
  uint64_t runs = 0, n = 0;
  bool ok = blob::TakeVarint(&in, &runs) && runs <= static_cast<uint64_t>(models::kBinsPerDay);
  for (uint64_t r = 0; ok && r < runs; ++r) {
    uint64_t gap = 0, length = 0;
    ok = blob::TakeVarint(&in, &gap) && blob::TakeVarint(&in, &length);
    n += length;
  }
  ok = ok && n <= static_cast<uint64_t>(models::kBinsPerDay);
  const size_t first = milli->size();
  StepReader steps{reinterpret_cast<const uint8_t*>(in.data()),
                   reinterpret_cast<const uint8_t*>(in.data()) + in.size()};
  if (ok) {
    milli->resize(first + n);
    int32_t* out = milli->data() + first;
    int64_t at = 0;
    for (uint64_t i = 0; ok && i < n; ++i) {
      ok = steps.Next(&at);
      out[i] = static_cast<int32_t>(at);
    }
  }
  int64_t at = 0;
  for (uint64_t i = 0; ok && with_costop && i < n; ++i) {
    ok = steps.Next(&at);
    if (ok && at > 0) {
      costop->first += at - 1;
      ++costop->second;
    }
  }
  if (!ok || steps.end - steps.p != 16) {
    milli->resize(first);
    return Status::ParseError("stored capacity day digest is truncated or corrupt");
  }
  return Status::Ok();
}

}  // namespace vrecon
