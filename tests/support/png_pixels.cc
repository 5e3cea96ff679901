#include "tests/support/png_pixels.h"

#include <zlib.h>

#include <cstdlib>

namespace vrecon::testing {
namespace {

uint32_t Be32(const std::string& s, size_t o) {
  return (static_cast<uint32_t>(static_cast<uint8_t>(s[o])) << 24) | (static_cast<uint8_t>(s[o + 1]) << 16) |
         (static_cast<uint8_t>(s[o + 2]) << 8) | static_cast<uint8_t>(s[o + 3]);
}

int Paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

}  // namespace

Pixels DecodePng(const std::string& png, std::string* error) {
  Pixels out;
  error->clear();
  if (png.size() < 33 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
    *error = "not a PNG file";
    return out;
  }
  std::string idat;
  int depth = 0, color = 0, interlace = 0;
  for (size_t o = 8; o + 12 <= png.size();) {
    const uint32_t len = Be32(png, o);
    const std::string type = png.substr(o + 4, 4);
    if (o + 12 + len > png.size()) break;
    if (type == "IHDR") {
      out.width = static_cast<int>(Be32(png, o + 8));
      out.height = static_cast<int>(Be32(png, o + 12));
      depth = static_cast<uint8_t>(png[o + 16]);
      color = static_cast<uint8_t>(png[o + 17]);
      interlace = static_cast<uint8_t>(png[o + 20]);
    } else if (type == "IDAT") {
      idat.append(png, o + 8, len);
    }
    o += 12 + len;
  }
  if (depth != 8 || (color != 2 && color != 6) || interlace != 0) {
    *error = "only 8-bit RGB/RGBA non-interlaced PNGs are decoded";
    return out;
  }
  const size_t bpp = color == 6 ? 4 : 3, stride = static_cast<size_t>(out.width) * bpp;
  std::vector<uint8_t> raw((stride + 1) * static_cast<size_t>(out.height));
  uLongf raw_len = raw.size();
  if (uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK ||
      raw_len != raw.size()) {
    *error = "corrupt image data";
    return out;
  }
  std::vector<uint8_t> prev(stride, 0), cur(stride);
  out.rgb.resize(static_cast<size_t>(out.width) * out.height * 3);
  for (int y = 0; y < out.height; ++y) {
    const uint8_t* line = &raw[static_cast<size_t>(y) * (stride + 1)];
    const int filter = line[0];
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      int v = line[1 + i];
      switch (filter) {
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) / 2; break;
        case 4: v += Paeth(a, b, c); break;
        default: break;
      }
      cur[i] = static_cast<uint8_t>(v);
    }
    for (int x = 0; x < out.width; ++x)
      for (int k = 0; k < 3; ++k) out.rgb[(static_cast<size_t>(y) * out.width + x) * 3 + k] = cur[x * bpp + k];
    prev.swap(cur);
  }
  return out;
}

}  // namespace vrecon::testing
