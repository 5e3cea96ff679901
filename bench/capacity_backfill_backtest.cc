// Backtest of a forecast from a vCenter backfill (issue 40, "History from day one"; table in
// docs/capacity.md, "Backfill"). For each case and seed it draws 182 days of 5-minute demand and a
// year ahead (each day's level from the case, a business-day shape, 5-minute noise), and
// forecasts the history three ways, side by side:
//   collected   every day's p95 of its 5-minute values: what a collector running all along sees;
//   rollups     the days as a backfill on the last day fetches them, vCenter's default levels
//               (the last day at 5 minutes, the week before at 30, the month before at 2 hours,
//               the rest a day's mean), each day's p95 of its values read as it is;
//   scaled      the same days scaled as vrecon scales them (models/capacity_rollups.h) from the
//               last day's 5-minute values.
// It prints, per case and way, over the seeds: the crossing cases answered within max(7 days,
// 15%) of the truth (the first day ahead whose expected p95 is over usable), the median error in
// days (no crossing answered counts as day 366), and false crossings (answered where the truth
// has none within the year). Aggressive risk (the forecast's middle), usable 18 cores.
// Usage: vrecon_bench_capacity_backfill_backtest [SEEDS] (default 20)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "models/capacity.h"
#include "models/capacity_rollups.h"

namespace {

using vrecon::kNsPerDay;
using vrecon::TimeNs;
namespace m = vrecon::models;

constexpr int kHistory = 182, kAhead = 365;
constexpr double kUsable = 18;

struct Case {
  std::string name;
  std::function<double(int t, double variant)> level;  // a day's mean level in cores, day t of the history
};

std::vector<Case> Cases() {
  return {
      // A working day's p95 at about 15 of the 18 usable cores: no crossing.
      {"flat", [](int, double) { return 7.5; }},
      // About 16.6: hot, and stable.
      {"flat-hot", [](int, double) { return 8.8; }},
      {"linear", [](int t, double v) { return 4 + v * t; }},
      {"level-step", [](int t, double v) { return 4 + 0.2 * v * t + (t >= 120 ? 2 + 20 * v : 0); }},
      {"declining", [](int t, double v) { return 10 - v * t / 2; }},
  };
}

// A business day's shape around its mean: low at night, busy from 08:00 to 18:00 with a lunch
// dip; weekends at 60%. Mean 1 over a weekday.
double Shape(int bin, int weekday) {
  const double hour = bin / 12.0;
  double s = hour >= 8 && hour < 18 ? (hour >= 12 && hour < 13 ? 1.3 : 1.6) : 0.55;
  if (weekday == 0 || weekday == 6) s *= 0.6;
  return s;
}

// Day t's 5-minute values (thousandths of a core).
m::DemandDay FineDay(int64_t day, double level, std::mt19937* rng) {
  std::normal_distribution<double> noise(0, 0.15);
  std::uniform_real_distribution<double> spike(0, 1);
  m::DemandDay d;
  d.day = day * kNsPerDay;
  d.sample_s = 300;
  const int weekday = m::WeekdayOf(day);
  for (int i = 0; i < m::kBinsPerDay; ++i) {
    double v = level * Shape(i, weekday) * (1 + noise(*rng));
    if (spike(*rng) < 0.03) v *= 1.5;
    d.bins.push_back({i, m::ToMilliCores(std::max(0.0, v)), -1});
  }
  return d;
}

// The day as vCenter's rollup of `interval_s` holds it: each value its interval's mean; from
// `fine_from` on, the 5-minute values themselves.
m::DemandDay Rolled(const m::DemandDay& fine, int interval_s, int fine_from) {
  m::DemandDay d = fine;
  const int per = interval_s / 300;
  for (int b = 0; b < fine_from; b += per) {
    int64_t sum = 0;
    const int end = std::min(b + per, fine_from);
    for (int i = b; i < b + per; ++i) sum += fine.bins[i].milli;
    for (int i = b; i < end; ++i) d.bins[i].milli = static_cast<int32_t>(sum / per);
  }
  d.sample_s = fine_from > 0 ? interval_s : 300;
  d.fine_from = fine_from;
  return d;
}

// The rollup a backfill on the history's last day gets for day t (0 = the first), and where its
// 5-minute values start: the last 24 hours are 5 minutes (vCenter keeps them a day), here from
// the second-to-last day's noon on.
std::pair<int, int> Level(int t) {
  const int back = kHistory - 1 - t;  // days before the last
  if (back == 0) return {300, 0};
  if (back == 1) return {1800, m::kBinsPerDay / 2};
  if (back < 7) return {1800, m::kBinsPerDay};
  if (back < 30) return {7200, m::kBinsPerDay};
  return {86400, m::kBinsPerDay};
}

struct Tally {
  int crossing = 0, within = 0, false_crossings = 0;
  std::vector<double> errors;
  void Add(std::optional<int> truth, std::optional<int> answer) {
    if (!truth) {
      if (answer) ++false_crossings;
      return;
    }
    ++crossing;
    const int a = answer.value_or(kAhead + 1);
    const double err = std::abs(a - *truth);
    errors.push_back(err);
    if (err <= std::max(7.0, 0.15 * *truth)) ++within;
  }
  std::string Row() const {
    std::vector<double> e = errors;
    std::sort(e.begin(), e.end());
    char b[96];
    if (e.empty()) {
      std::snprintf(b, sizeof b, "- / - / %d", false_crossings);
    } else {
      const double median = e.size() % 2 ? e[e.size() / 2] : (e[e.size() / 2 - 1] + e[e.size() / 2]) / 2;
      std::snprintf(b, sizeof b, "%d / %.0f / %d", within, median, false_crossings);
    }
    return b;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 20;
  const int64_t first = vrecon::DaysFromCivil(2026, 1, 5);
  std::printf(
      "| case | crossing cases | collected: within / median error (d) / false | rollups as read | rollups "
      "scaled |\n|---|---:|---|---|---|\n");
  // The expected p95 of a working day at level 1 (the busiest days cross first), over two years
  // of simulated days.
  double p95_at_1 = 0;
  {
    std::mt19937 r(1);
    int n = 0;
    for (int i = 0; i < 728; ++i) {
      const double p95 = *FineDay(first + i, 1.0, &r).P95();
      const int weekday = m::WeekdayOf(first + i);
      if (weekday == 0 || weekday == 6) continue;
      p95_at_1 += p95;
      ++n;
    }
    p95_at_1 /= n;
  }
  Tally all_collected, all_rollups, all_scaled;
  std::vector<double> factors;
  for (const Case& c : Cases()) {
    Tally collected, rollups, scaled;
    for (int seed = 0; seed < seeds; ++seed) {
      std::mt19937 rng(static_cast<unsigned>(7919 * seed + c.name.size()));
      const double variant = 0.02 + 0.04 * seed / std::max(1, seeds - 1);
      std::vector<m::DemandDay> fine, rolled;
      for (int t = 0; t < kHistory; ++t) {
        fine.push_back(FineDay(first + t, c.level(t, variant), &rng));
        const auto [interval, fine_from] = Level(t);
        rolled.push_back(Rolled(fine.back(), interval, fine_from));
      }
      std::optional<int> truth;
      for (int h = 1; h <= kAhead && !truth; ++h)
        if (c.level(kHistory - 1 + h, variant) * p95_at_1 > kUsable) truth = h;
      std::vector<m::DailyDemand> a, b, s;
      const m::RollupScale scale = m::EstimateRollupScale({rolled.end() - 2, rolled.end()}, {1800, 7200, 86400});
      for (int t = 0; t < kHistory; ++t) {
        a.push_back({first + t, *fine[t].P95()});
        const double p95 = *rolled[t].P95();
        b.push_back({first + t, p95});
        s.push_back({first + t, p95 * m::DayScale(scale, rolled[t].sample_s, rolled[t].fine_from).value_or(1.0)});
      }
      if (auto f = scale.factor.find(86400); f != scale.factor.end()) factors.push_back(f->second);
      auto answer = [](const std::vector<m::DailyDemand>& h) {
        const m::Forecast f = m::ForecastDemand(h);
        return m::TimeRemainingDays(f, h, kUsable, m::Risk::kAggressive);
      };
      for (auto [tally, all, history] :
           {std::tuple{&collected, &all_collected, &a}, std::tuple{&rollups, &all_rollups, &b},
            std::tuple{&scaled, &all_scaled, &s}}) {
        const std::optional<int> got = answer(*history);
        tally->Add(truth, got);
        all->Add(truth, got);
      }
    }
    std::printf("| %s | %d | %s | %s | %s |\n", c.name.c_str(), collected.crossing, collected.Row().c_str(),
                rollups.Row().c_str(), scaled.Row().c_str());
  }
  std::printf("| **all** | %d | %s | %s | %s |\n", all_collected.crossing, all_collected.Row().c_str(),
              all_rollups.Row().c_str(), all_scaled.Row().c_str());
  std::printf("\na working day's p95 at level 1: %.2f\n", p95_at_1);
  std::sort(factors.begin(), factors.end());
  if (!factors.empty())
    std::printf("the daily rollup's factor from the last 24 hours: median %.2f, range %.2f to %.2f\n",
                factors[factors.size() / 2], factors.front(), factors.back());
  return 0;
}
