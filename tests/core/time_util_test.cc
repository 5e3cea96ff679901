#include "src/core/time_util.h"

#include <gtest/gtest.h>

namespace vrecon {
namespace {

TEST(TimeUtilTest, RoundTripsCivilTime) {
  const TimeNs t = NsFromCivil(CivilTime{2024, 2, 29, 23, 59, 58, 125});
  EXPECT_EQ(FormatIso(t, true), "2024-02-29T23:59:58.125Z");
  EXPECT_EQ(FormatIso(t, false), "2024-02-29T23:59:58Z");
  EXPECT_EQ(FormatIso(0, false), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatIso(-kNsPerSec, false), "1969-12-31T23:59:59Z");
}

TEST(TimeUtilTest, FormatsADayNumberAsItsDate) {
  EXPECT_EQ(FormatDay(0), "1970-01-01");
  EXPECT_EQ(FormatDay(-1), "1969-12-31");
  EXPECT_EQ(FormatDay(DaysFromCivil(2024, 2, 29)), "2024-02-29");
}

TEST(TimeUtilTest, ParsesIsoWithAndWithoutOffset) {
  EXPECT_EQ(ParseIso("2026-11-01"), NsFromCivil(CivilTime{2026, 11, 1}));
  EXPECT_EQ(ParseIso("2026-11-01T10:00:00Z"), NsFromCivil(CivilTime{2026, 11, 1, 10}));
  EXPECT_EQ(ParseIso("2026-11-01T10:00"), NsFromCivil(CivilTime{2026, 11, 1, 10}));
  EXPECT_EQ(ParseIso("2026-11-01T10:00:00+02:00"), NsFromCivil(CivilTime{2026, 11, 1, 8}));
  EXPECT_EQ(ParseIso("2026-11-01T10:00:00.5-05:00"), NsFromCivil(CivilTime{2026, 11, 1, 15, 0, 0, 500}));
  EXPECT_FALSE(ParseIso("yesterday"));
  EXPECT_FALSE(ParseIso("2026-13-01"));
  EXPECT_FALSE(ParseIso("2026-11-01T25:00"));
}

}  // namespace
TEST(TimeUtilTest, DaysThatAreNotInTheirMonthAreNoDate) {
  EXPECT_FALSE(ParseIso("2026-02-30"));
  EXPECT_FALSE(ParseIso("2026-02-29T10:00:00Z"));
  EXPECT_FALSE(ParseIso("2100-02-29"));  // not a leap year
  EXPECT_FALSE(ParseIso("2026-04-31"));
  EXPECT_TRUE(ParseIso("2024-02-29"));
  EXPECT_TRUE(ParseIso("2000-02-29"));
  EXPECT_TRUE(ParseIso("2026-12-31T23:59:59Z"));
}

// Found by the timestamps fuzzer: "1900-01-01+05" read as 1899-12-31T19:00:00Z, which FormatIso
// wrote and ParseIso then refused. The years bound the UTC instant.
TEST(TimeUtilTest, TheYearsBoundTheInstantNotTheLocalDate) {
  EXPECT_FALSE(ParseIso("1900-01-01+05"));
  EXPECT_EQ(ParseIso("1900-01-01-05"), NsFromCivil(CivilTime{1900, 1, 1, 5}));
  EXPECT_EQ(ParseIso("1900-01-01T00:00:00Z"), NsFromCivil(CivilTime{1900, 1, 1}));
  EXPECT_FALSE(ParseIso("2189-12-31T23:00-05:00"));
  EXPECT_EQ(ParseIso("2189-12-31T23:00+05:00"), NsFromCivil(CivilTime{2189, 12, 31, 18}));
  for (const char* s : {"1900-01-01-05", "2189-12-31T23:00+05:00", "2189-12-31T23:59:59.999Z"}) {
    const auto t = ParseIso(s);
    ASSERT_TRUE(t) << s;
    EXPECT_EQ(ParseIso(FormatIso(*t, true)), t) << s;
  }
  EXPECT_FALSE(ParseIso("2026-11-01T10:00+24:00"));
  EXPECT_FALSE(ParseIso("2026-11-01T10:00+05:60"));
  EXPECT_EQ(ParseIso("2026-11-01T10:00+14:00"), NsFromCivil(CivilTime{2026, 10, 31, 20}));
}

}  // namespace vrecon
