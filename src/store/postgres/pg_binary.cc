#include "src/store/postgres/pg_binary.h"

#include <bit>
#include <charconv>
#include <cstdlib>
#include <cstring>

namespace vrecon::pg {
namespace {

uint64_t BigEndian(const char* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

bool IsText(TypeOid t) { return t == kText || t == kVarchar || t == kName || t == kBpchar; }

}  // namespace

bool BinaryReadable(TypeOid t) {
  return t == kBool || t == kBytea || t == kInt8 || t == kInt2 || t == kInt4 || t == kFloat4 || t == kFloat8 ||
         IsText(t);
}

int64_t BinaryInt(TypeOid t, const char* c, int n) {
  switch (t) {
    case kInt8: return static_cast<int64_t>(BigEndian(c, 8));
    case kInt4: return static_cast<int32_t>(BigEndian(c, 4));
    case kInt2: return static_cast<int16_t>(BigEndian(c, 2));
    case kBool: return n > 0 && c[0] ? 1 : 0;
    case kFloat4:
    case kFloat8: return static_cast<int64_t>(BinaryDouble(t, c, n));
    default: {
      int64_t v = 0;
      std::from_chars(c, c + n, v);
      return v;
    }
  }
}

double BinaryDouble(TypeOid t, const char* c, int n) {
  if (t == kFloat8) return std::bit_cast<double>(BigEndian(c, 8));
  if (t == kFloat4) return std::bit_cast<float>(static_cast<uint32_t>(BigEndian(c, 4)));
  if (IsText(t)) return std::strtod(std::string(c, n).c_str(), nullptr);
  return static_cast<double>(BinaryInt(t, c, n));
}

std::string BinaryText(TypeOid t, const char* c, int n) {
  if (t == kBool) return n > 0 && c[0] ? "t" : "f";
  if (t == kInt8 || t == kInt4 || t == kInt2) return std::to_string(BinaryInt(t, c, n));
  if (t == kFloat8 || t == kFloat4) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, BinaryDouble(t, c, n));
    return std::string(buf, r.ptr);
  }
  return std::string(c, n);
}

}  // namespace vrecon::pg
