// The PDH-CSV writer shared by the Windows agent, `collect procfs --out` and `report --format
// pdh-csv`: exact text; fuzz/pdh_roundtrip_fuzzer checks that the reader takes back what it writes.
#include "adapters/perfmon/pdh_csv_writer.h"

#include <gtest/gtest.h>

namespace vrecon::perfmon {
namespace {

TEST(PdhCsvWriterTest, HeaderRowsAndValues) {
  EXPECT_EQ(FormatHeader({"Eastern Daylight Time", 240}, {"\\\\WEB01\\Memory\\Available MBytes"}),
            "\"(PDH-CSV 4.0) (Eastern Daylight Time)(240)\",\"\\\\WEB01\\Memory\\Available MBytes\"\r\n");
  EXPECT_EQ(FormatHeader({"India Standard Time", -330}, {}), "\"(PDH-CSV 4.0) (India Standard Time)(-330)\"\r\n");
  LocalTime t{2026, 3, 7, 9, 5, 4, 12};
  EXPECT_EQ(FormatTimestamp(t), "03/07/2026 09:05:04.012");
  EXPECT_EQ(FormatRow(t, {73.0, std::nullopt, 180.25, 5.0045e-05}),
            "\"03/07/2026 09:05:04.012\",\"73\",\" \",\"180.25\",\"5.0045e-05\"\r\n");
  EXPECT_EQ(FormatValue(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(FormatHeader({"X", 0}, {"\\A(b\"c)\\D"}), "\"(PDH-CSV 4.0) (X)(0)\",\"\\A(b\"\"c)\\D\"\r\n");
}

}  // namespace
}  // namespace vrecon::perfmon
