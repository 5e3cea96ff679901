// Backtests of the capacity forecast on simulated estates with known futures (issue 40, "Measured";
// bench/capacity_backtest.sh runs it and the baselines, and prints the table). For each case and
// seed it draws 182 days of history and 365 days ahead from one process (the expected demand of
// each day, noise, month-end batch days), forecasts the history, and writes:
//   series.csv  case,seed,day,observed,peak   the history, for the baselines (day 0 = the first)
//   truth.csv   case,seed,truth_days          0 when a regular day of the history's last week was
//                                             over usable, else the first day ahead whose expected
//                                             demand is (empty: none within 365)
//   vrecon.csv  case,seed,aggressive_days,conservative_days,coverage
//                                             time remaining (empty: none), and the share of the
//                                             next 90 regular days whose observed value lay in the
//                                             90% band
// Usage: vrecon_bench_capacity_backtest OUT_DIR [SEEDS]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "models/capacity.h"
#include "src/core/time_util.h"

namespace {

using vrecon::models::DailyDemand;

constexpr int kHistory = 182, kAhead = 365;
constexpr double kUsable = 18;  // 20 cores less a 10% buffer

struct Case {
  std::string name;
  double noise;
  // The expected demand on day t (0 = the history's first), and whether t is a batch day.
  std::function<double(int t, int weekday, double variant)> expected;
  bool month_end_batch = false;
};

double Weekly(int weekday, double amplitude) {
  static constexpr double kShape[7] = {-1.0, 0.3, 0.3, 0.6, 0.3, 0.3, -0.8};  // Thursday first
  return amplitude * kShape[weekday];
}

std::vector<Case> Cases() {
  return {
      {"linear", 0.5, [](int t, int wd, double v) { return 8 + v * t + Weekly(wd, 1); }},
      {"linear-noisy", 1.5, [](int t, int wd, double v) { return 8 + v * t + Weekly(wd, 1); }},
      {"level-step", 0.5,
       [](int t, int wd, double v) { return 8 + 0.2 * v * t + (t >= 120 ? 3 + 40 * v : 0) + Weekly(wd, 1); }},
      {"weekly", 0.5, [](int t, int wd, double v) { return 8 + v * t + Weekly(wd, 3); }},
      {"month-end", 0.5, [](int t, int wd, double v) { return 8 + v * t + Weekly(wd, 1); }, true},
      {"flat", 0.5, [](int, int wd, double) { return 10 + Weekly(wd, 1); }},
      {"declining", 0.5, [](int t, int wd, double v) { return 14 - v * t + Weekly(wd, 1); }},
  };
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: vrecon_bench_capacity_backtest OUT_DIR [SEEDS]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int seeds = argc > 2 ? std::atoi(argv[2]) : 20;
  std::ofstream series(dir + "/series.csv"), truth(dir + "/truth.csv"), ours(dir + "/vrecon.csv");
  series << "case,seed,day,observed,peak\n";
  truth << "case,seed,truth_days\n";
  ours << "case,seed,aggressive_days,conservative_days,coverage\n";
  const int64_t first = vrecon::DaysFromCivil(2026, 1, 5);
  for (const Case& c : Cases()) {
    for (int seed = 0; seed < seeds; ++seed) {
      std::mt19937 rng(static_cast<unsigned>(1000 * seed + c.name.size()));
      std::normal_distribution<double> noise(0, c.noise);
      // Growth (or decline) from 0.02 to 0.06 cores a day across the seeds.
      const double variant = 0.02 + 0.04 * seed / std::max(1, seeds - 1);
      std::vector<DailyDemand> history;
      std::vector<double> expected, observed;
      std::vector<bool> peak;
      for (int t = 0; t < kHistory + kAhead; ++t) {
        const int64_t day = first + t;
        const vrecon::CivilTime civil = vrecon::CivilFromNs(day * vrecon::kNsPerDay);
        const bool batch = c.month_end_batch && civil.day == vrecon::DaysInMonth(civil.year, civil.month);
        const double e = std::max(0.0, c.expected(t, vrecon::models::WeekdayOf(day), variant));
        expected.push_back(e);
        observed.push_back(std::max(0.0, (batch ? 1.8 : 1.0) * e + noise(rng)));
        peak.push_back(batch);
        if (t < kHistory) {
          history.push_back({day, observed.back()});
          series << c.name << "," << seed << "," << t << "," << observed.back() << "," << (batch ? 1 : 0) << "\n";
        }
      }
      // As time_remaining_days is defined: 0 when a regular day of the last week was already over
      // usable, else the first day ahead whose expected demand is.
      truth << c.name << "," << seed << ",";
      bool over = false;
      for (int t = kHistory - 7; t < kHistory; ++t) over = over || (!peak[t] && observed[t] > kUsable);
      for (int h = 1; h <= kAhead && !over; ++h)
        if (!peak[kHistory - 1 + h] && expected[kHistory - 1 + h] > kUsable) {
          truth << h;
          break;
        }
      if (over) truth << 0;
      truth << "\n";
      const vrecon::models::Forecast f = vrecon::models::ForecastDemand(history);
      const auto aggressive = vrecon::models::TimeRemainingDays(f, history, kUsable, vrecon::models::Risk::kAggressive);
      const auto conservative =
          vrecon::models::TimeRemainingDays(f, history, kUsable, vrecon::models::Risk::kConservative);
      int inside = 0, regular = 0;
      for (int h = 1; h <= 90 && h <= static_cast<int>(f.days.size()); ++h) {
        if (peak[kHistory - 1 + h]) continue;
        const double v = observed[kHistory - 1 + h];
        ++regular;
        if (v >= f.days[h - 1].lower && v <= f.days[h - 1].upper) ++inside;
      }
      ours << c.name << "," << seed << "," << (aggressive ? std::to_string(*aggressive) : "") << ","
           << (conservative ? std::to_string(*conservative) : "") << ","
           << (regular ? static_cast<double>(inside) / regular : 0) << "\n";
    }
  }
  return 0;
}
