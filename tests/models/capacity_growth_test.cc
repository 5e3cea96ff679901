// Growth drivers (models/capacity_growth.h): the processes whose corrected demand grows, the
// fastest first, with their recent level and their growth per 30 days.
#include "models/capacity_growth.h"

#include <gtest/gtest.h>

namespace vrecon::models {
namespace {

std::vector<ProcessDay> Days(int n, double first, double per_day, int64_t from = 20'000) {
  std::vector<ProcessDay> out;
  for (int i = 0; i < n; ++i) out.push_back({from + i, first + per_day * i});
  return out;
}

TEST(CapacityGrowthTest, GrowingProcessesFastestFirstWithTheirLevelAndGrowth) {
  std::map<std::string, std::vector<ProcessDay>> p;
  p["app"] = Days(40, 0.2, 0.01);    // +0.3 cores per 30 days
  p["batch"] = Days(40, 1.0, 0.02);  // +0.6
  p["svc"] = Days(40, 0.1, 0);       // flat: not a driver
  p["old"] = Days(40, 2.0, -0.01);   // shrinking: not a driver
  p["new"] = Days(10, 0.1, 0.05);    // too few days to tell
  const std::vector<ProcessGrowth> g = GrowthDrivers(p);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].process, "batch");
  EXPECT_NEAR(g[0].cores_per_30d, 0.6, 1e-9);
  EXPECT_NEAR(g[0].cores_now, 1.0 + 0.02 * 36, 1e-9);  // the mean of days 33..39
  EXPECT_EQ(g[1].process, "app");
  EXPECT_NEAR(g[1].cores_per_30d, 0.3, 1e-9);
  EXPECT_EQ(GrowthDrivers(p, 1).size(), 1u);
}

TEST(CapacityGrowthTest, MissingDaysAreLeftOutNotZero) {
  std::vector<ProcessDay> days = Days(30, 0.5, 0.01);
  days.erase(days.begin() + 5, days.begin() + 15);  // ten days without data
  days.push_back({20'050, std::nan("")});
  const std::vector<ProcessGrowth> g = GrowthDrivers({{"app", days}});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_NEAR(g[0].cores_per_30d, 0.3, 1e-9);
}

}  // namespace
}  // namespace vrecon::models
