// /metrics' capacity answers (src/serve/capacity_cache.h): what each entity's metrics are, and
// how often they are computed.
#include "src/serve/capacity_cache.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/cli_runner.h"

namespace vrecon::serve {
namespace {

TEST(CapacityCacheTest, AForecastThatCrossesNothingIsInfiniteAndNoForecastIsAbsent) {
  CapacityEntity crosses, never, short_history, no_capacity;
  for (CapacityEntity* e : {&crosses, &never, &short_history, &no_capacity}) {
    e->scope = "vm";
    e->demand_p95_cores = 1.5;
  }
  crosses.usable_cores = never.usable_cores = short_history.usable_cores = 1.8;
  crosses.forecast = never.forecast = no_capacity.forecast = {{20400, 1, 1.5, 2}};
  crosses.time_remaining_days = 12;
  const std::vector<CapacityMetric> m = CapacityMetricsOf({crosses, never, short_history, no_capacity});
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].time_remaining_days, 12);
  EXPECT_TRUE(m[1].time_remaining_days && std::isinf(*m[1].time_remaining_days));
  EXPECT_FALSE(m[2].time_remaining_days) << "no forecast: too little history";
  EXPECT_FALSE(m[3].time_remaining_days) << "no capacity to cross";
  EXPECT_FALSE(m[3].usable_cores);
  EXPECT_EQ(m[3].demand_p95_cores, 1.5);
}

TEST(CapacityCacheTest, ComputedOnceWithinItsAgeAndAgainAfter) {
  testing::TempDir dir;
  auto store = Store::Open(dir.File("store.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  CapacityCache cache(std::chrono::minutes(15));
  const CapacityCache::Clock::time_point t0{};
  auto first = cache.Get(store->get(), t0);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_TRUE((*first)->empty()) << "an empty store has nothing to answer";
  auto again = cache.Get(store->get(), t0 + std::chrono::minutes(14));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), first->get()) << "the same answers, not computed again";
  auto later = cache.Get(store->get(), t0 + std::chrono::minutes(16));
  ASSERT_TRUE(later.ok());
  EXPECT_NE(later->get(), first->get()) << "computed again once stale";
}

}  // namespace
}  // namespace vrecon::serve
