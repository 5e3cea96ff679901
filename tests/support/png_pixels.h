// Decodes a PNG screenshot (8-bit RGB or RGBA, not interlaced: what Chromium writes) into pixels,
// so a browser test can look at what was drawn, not only at the DOM.
#ifndef VRECON_TESTS_SUPPORT_PNG_PIXELS_H_
#define VRECON_TESTS_SUPPORT_PNG_PIXELS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace vrecon::testing {

struct Pixels {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // width * height * 3
  const uint8_t* at(int x, int y) const { return &rgb[(static_cast<size_t>(y) * width + x) * 3]; }
};

// Empty `error` on success.
Pixels DecodePng(const std::string& png, std::string* error);

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_PNG_PIXELS_H_
