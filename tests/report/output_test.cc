// JSON numbers as the writers append them (src/report/output.h): the same bytes as to_chars'
// shortest form, whichever way a value is written.
#include "src/report/output.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace vrecon {
namespace {

std::string ToChars(double v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

std::string Appended(double v) {
  std::string out = "x";  // appended, not replaced
  AppendJsonNumber(&out, v);
  return out.substr(1);
}

TEST(OutputTest, TenThousandthsAreWrittenAsToCharsWritesThem) {
  // Every ten-thousandth up to 30 cores, as a forecast rounds them, and their negatives.
  for (int64_t n = 0; n <= 300'000; ++n) {
    const double v = std::round(static_cast<double>(n) / 1e4 * 1e4) / 1e4;
    ASSERT_EQ(Appended(v), ToChars(v)) << n;
    ASSERT_EQ(Appended(-v), ToChars(-v)) << n;
  }
  // Up to and past the edge of the short form (10^5), at random.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> n(0, 20'000'000'000);
  for (int i = 0; i < 200'000; ++i) {
    const double v = static_cast<double>(n(rng)) / 1e4;
    ASSERT_EQ(Appended(v), ToChars(v)) << v;
  }
}

TEST(OutputTest, OtherValuesAreToCharsOrNull) {
  const double values[] = {0.0, -0.0,   0.1 + 0.2, 1e-5,   0.0001, 0.0009,  0.001,  99999.9999, 1e5,
                           1e6, 120000, 1e300,     5e-324, -1e-7,  1.0 / 3, 2.5e-4, 12345.67891};
  for (double v : values) EXPECT_EQ(Appended(v), ToChars(v)) << v;
  EXPECT_EQ(Appended(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(Appended(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(Appended(0.0001), "1e-04");  // to_chars' exponent form, kept
  EXPECT_EQ(Appended(12.5), "12.5");
}

}  // namespace
}  // namespace vrecon
