#include "src/core/text_util.h"

#include <gtest/gtest.h>

namespace vrecon {
namespace {

TEST(TextUtilTest, FoldsLatinAndCyrillic) {
  EXPECT_EQ(FoldCase("Prozessorzeit (%)"), "prozessorzeit (%)");
  EXPECT_EQ(FoldCase("Système"), "système");
  EXPECT_EQ(FoldCase("SYSTÈME"), "système");
  EXPECT_EQ(FoldCase("Процессор"), "процессор");
  EXPECT_EQ(FoldCase("ПРОЦЕСС"), "процесс");
}

TEST(TextUtilTest, ParsesHexU64AsHexU64WritesIt) {
  for (uint64_t v : {uint64_t{0}, uint64_t{0xcbf29ce484222325}, ~uint64_t{0}}) EXPECT_EQ(ParseHexU64(HexU64(v)), v);
  EXPECT_EQ(ParseHexU64("1A"), 0x1au);
  EXPECT_FALSE(ParseHexU64(""));
  EXPECT_FALSE(ParseHexU64("not-hex"));
  EXPECT_FALSE(ParseHexU64("0x1a"));
  EXPECT_FALSE(ParseHexU64(" 1a"));
  EXPECT_FALSE(ParseHexU64("-1"));
  EXPECT_FALSE(ParseHexU64("10000000000000000"));  // 17 digits: more than 64 bits
}

TEST(TextUtilTest, ParsesNumbersStrictly) {
  EXPECT_DOUBLE_EQ(ParseDouble("5.0045e-005").value(), 5.0045e-5);
  EXPECT_DOUBLE_EQ(ParseDouble(" 12.5 ").value(), 12.5);
  EXPECT_FALSE(ParseDouble(" "));
  EXPECT_FALSE(ParseDouble("12,5"));
  EXPECT_FALSE(ParseDouble("nan"));
  EXPECT_FALSE(ParseDouble("abc"));
}

TEST(TextUtilTest, GlobIsCaseInsensitive) {
  EXPECT_TRUE(GlobMatch("WEB*", "web01"));
  EXPECT_TRUE(GlobMatch("w?b01", "WEB01"));
  EXPECT_FALSE(GlobMatch("WEB*", "DB01"));
  EXPECT_TRUE(GlobMatch("% Processor Time", "% processor time"));
}

TEST(TextUtilTest, FormatsShortestRoundTrip) {
  EXPECT_EQ(FormatDouble(88), "88");
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatFixed(1.20548, 3), "1.205");
}

}  // namespace
}  // namespace vrecon
