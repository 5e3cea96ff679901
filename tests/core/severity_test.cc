#include "src/core/severity.h"

#include <gtest/gtest.h>

namespace vrecon {
namespace {

// The names are part of the store, CSV, JSON and report formats: they must not change.
TEST(SeverityTest, NamesRoundTripAndAreTheFileFormatsWords) {
  EXPECT_EQ(SeverityName(Severity::kInfo), "info");
  EXPECT_EQ(SeverityName(Severity::kWarning), "warning");
  EXPECT_EQ(SeverityName(Severity::kError), "error");
  for (Severity s : {Severity::kInfo, Severity::kWarning, Severity::kError})
    EXPECT_EQ(ParseSeverity(SeverityName(s)), s);
}

TEST(SeverityTest, ParsesOnlyTheExactNames) {
  EXPECT_FALSE(ParseSeverity(""));
  EXPECT_FALSE(ParseSeverity("Warning"));
  EXPECT_FALSE(ParseSeverity("warn"));
  EXPECT_FALSE(ParseSeverity("error "));
}

}  // namespace
}  // namespace vrecon
