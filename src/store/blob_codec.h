// Fixed-size values in the store's own blobs (stored corrections: process aggregates, window
// blocks): little-endian, written and read with memcpy (little-endian hosts only: x86-64, arm64).
#ifndef VRECON_SRC_STORE_BLOB_CODEC_H_
#define VRECON_SRC_STORE_BLOB_CODEC_H_

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

}  // namespace vrecon::blob

#endif  // VRECON_SRC_STORE_BLOB_CODEC_H_
