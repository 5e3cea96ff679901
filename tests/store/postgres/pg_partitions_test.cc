// The month arithmetic of PostgreSQL's monthly value_block partitions
// (src/store/postgres/pg_partitions.h) at the ends of what a TimeNs holds.
#include "src/store/postgres/pg_partitions.h"

#include <gtest/gtest.h>

#include <limits>

#include "src/core/time_util.h"

namespace vrecon {
namespace {

TimeNs At(const char* iso) { return ParseIso(iso).value(); }

TEST(PgSampleMonthTest, MonthsAndTheirBounds) {
  const SampleMonth m = SampleMonthOf(At("2026-11-25T06:00:00Z"));
  EXPECT_EQ(m.name, "value_block_202611");
  EXPECT_EQ(m.from_sql, std::to_string(At("2026-11-01T00:00:00Z")));
  EXPECT_EQ(m.to, At("2026-12-01T00:00:00Z"));
  // The last instant of a month is in it; the next is not.
  EXPECT_EQ(SampleMonthOf(At("2026-12-01T00:00:00Z") - 1).name, "value_block_202611");
  EXPECT_EQ(SampleMonthOf(At("2026-12-01T00:00:00Z")).name, "value_block_202612");
  EXPECT_EQ(SampleMonthOf(-1).name, "value_block_196912");
  // The first and last months a TimeNs reaches have open ends.
  const SampleMonth first = SampleMonthOf(std::numeric_limits<TimeNs>::min());
  EXPECT_EQ(first.name, "value_block_167709");
  EXPECT_EQ(first.from_sql, "MINVALUE");
  const SampleMonth last = SampleMonthOf(std::numeric_limits<TimeNs>::max());
  EXPECT_EQ(last.name, "value_block_226204");
  EXPECT_EQ(last.to_sql, "MAXVALUE");
  EXPECT_EQ(last.to, std::numeric_limits<TimeNs>::max());
}

}  // namespace
}  // namespace vrecon
