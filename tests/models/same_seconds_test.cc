#include "models/same_seconds.h"

#include <gtest/gtest.h>

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kS;

std::vector<TimedValue> Every(int step_s, int from_s, int to_s, double value) {
  std::vector<TimedValue> out;
  for (int t = from_s; t < to_s; t += step_s) out.push_back({t * kS, (t + step_s) * kS, value});
  return out;
}

TEST(SameSecondsTest, HostIsAveragedOverTheGuestsSecondsOnlyWhereTheGuestIsPartial) {
  const WindowGrid g{0, 300 * kS, 2};
  std::vector<TimedValue> guest = Every(15, 0, 120, 73);                   // window 0: 40% covered
  for (const TimedValue& x : Every(15, 300, 600, 73)) guest.push_back(x);  // window 1: all of it
  std::vector<TimedValue> host = Every(20, 0, 120, 88);
  for (const TimedValue& x : Every(20, 120, 600, 100)) host.push_back(x);
  const auto h = HostOverGuestSeconds(g, guest, host);
  ASSERT_EQ(h.size(), 2u);
  ASSERT_TRUE(h[0]);
  EXPECT_DOUBLE_EQ(*h[0], 88);
  EXPECT_FALSE(h[1]);  // fully covered: the whole-window mean is the same-seconds one
}

TEST(SameSecondsTest, HostSamplesStraddlingTheGuestsEdgeCountByOverlap) {
  const WindowGrid g{0, 300 * kS, 1};
  const auto h = HostOverGuestSeconds(g, Every(30, 0, 90, 50), {{0, 60 * kS, 40}, {60 * kS, 300 * kS, 100}});
  ASSERT_TRUE(h[0]);
  EXPECT_DOUBLE_EQ(*h[0], (40 * 60 + 100 * 30) / 90.0);
  EXPECT_FALSE(HostOverGuestSeconds(g, {}, {{0, 300 * kS, 50}})[0]);  // no guest data
}

}  // namespace
}  // namespace vrecon::models
