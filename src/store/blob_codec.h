// Values in the store's own blobs (stored corrections: process aggregates, window blocks; the
// Ready-Time and capacity digests): fixed-size ones little-endian, written and read with memcpy
// (little-endian hosts only: x86-64, arm64), and LEB128 varints.
#ifndef VRECON_SRC_STORE_BLOB_CODEC_H_
#define VRECON_SRC_STORE_BLOB_CODEC_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace vrecon::blob {

template <typename T>
void Put(std::string* out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out->append(b, sizeof(T));
}

// Reads one value from the front of `in`; false when `in` is too short.
template <typename T>
bool Take(std::string_view* in, T* v) {
  if (in->size() < sizeof(T)) return false;
  std::memcpy(v, in->data(), sizeof(T));
  in->remove_prefix(sizeof(T));
  return true;
}

// The next n bytes of `in`; false when `in` is too short.
inline bool TakeBytes(std::string_view* in, size_t n, std::string_view* out) {
  if (in->size() < n) return false;
  *out = in->substr(0, n);
  in->remove_prefix(n);
  return true;
}

inline void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// false when `in` ends inside the varint or it is longer than 64 bits' worth.
inline bool TakeVarint(std::string_view* in, uint64_t* v) {
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

// Signed values near zero in few bytes (bucket index deltas).
inline void PutZigzag(std::string* out, int64_t v) {
  PutVarint(out, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
}
inline bool TakeZigzag(std::string_view* in, int64_t* v) {
  uint64_t u = 0;
  if (!TakeVarint(in, &u)) return false;
  *v = static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
  return true;
}

}  // namespace vrecon::blob

#endif  // VRECON_SRC_STORE_BLOB_CODEC_H_
