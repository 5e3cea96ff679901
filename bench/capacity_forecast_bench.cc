// The capacity forecast's cost (issue 40's target: `vrecon capacity` over 10,000 VMs on 400 hosts
// with 365 days of digests in 5 s on one core): `vrecon_bench_capacity [ENTITIES] [DAYS]`
// forecasts ENTITIES daily series of DAYS days (defaults 10,400 x 365; growth, weekly profile,
// noise, a month-end peak and a level step in every fifth) and prints the wall time, the time per
// entity and what the forecasts found. The forecast alone: reading the days from the store is
// not in it. Run it pinned to one core: taskset -c 0 (bench/capacity_bench.sh).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "models/capacity.h"
#include "src/core/time_util.h"

namespace {

using vrecon::models::DailyDemand;

std::vector<DailyDemand> Series(int entity, int days, std::mt19937* rng) {
  std::normal_distribution<double> noise(0, 0.4);
  static constexpr double kWeekly[7] = {-1.5, 0.5, 0.5, 1.0, 0.5, 0.5, -1.5};
  const int64_t start = vrecon::DaysFromCivil(2025, 11, 1);
  std::vector<DailyDemand> out;
  out.reserve(static_cast<size_t>(days));
  for (int t = 0; t < days; ++t) {
    const int64_t day = start + t;
    const vrecon::CivilTime c = vrecon::CivilFromNs(day * 86400 * vrecon::kNsPerSec);
    double v = 8 + 0.01 * (entity % 7) * t + kWeekly[vrecon::models::WeekdayOf(day)] + noise(*rng);
    if (entity % 5 == 0 && t > days * 2 / 3) v += 4;              // a new workload
    if (c.day == vrecon::DaysInMonth(c.year, c.month)) v *= 1.8;  // month-end batch
    out.push_back({day, v});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int entities = argc > 1 ? std::atoi(argv[1]) : 10'400;
  const int days = argc > 2 ? std::atoi(argv[2]) : 365;
  std::mt19937 rng(40);
  std::vector<std::vector<DailyDemand>> all;
  all.reserve(static_cast<size_t>(entities));
  for (int e = 0; e < entities; ++e) all.push_back(Series(e, days, &rng));
  int trends = 0, steps = 0, recurring = 0, crossing = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& history : all) {
    const vrecon::models::Forecast f = vrecon::models::ForecastDemand(history);
    trends += f.trend ? 1 : 0;
    steps += f.step_day ? 1 : 0;
    recurring += f.recurring_peak ? 1 : 0;
    crossing += vrecon::models::TimeRemainingDays(f, history, 18, vrecon::models::Risk::kConservative) ? 1 : 0;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "%d entities x %d days: %.2f s, %.3f ms an entity; %d with a trend, %d a step, %d a recurring peak, "
      "%d crossing 18 cores\n",
      entities, days, s, 1000 * s / entities, trends, steps, recurring, crossing);
  return 0;
}
