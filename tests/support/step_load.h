// A synthetic CPU load for the clock-alignment tests: one value per second that holds a random
// level in [lo, hi) for 20..120 s at a time (deterministic per seed), so guest and host series
// built from it match at exactly one lag.
#ifndef VRECON_TESTS_SUPPORT_STEP_LOAD_H_
#define VRECON_TESTS_SUPPORT_STEP_LOAD_H_

#include <algorithm>
#include <random>
#include <vector>

namespace vrecon::testing {

inline std::vector<double> StepLoad(int seconds, unsigned seed, double lo, double hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> level(lo, hi);
  std::uniform_int_distribution<int> hold(20, 120);
  std::vector<double> u(seconds);
  for (int t = 0; t < seconds;) {
    const double v = level(rng);
    for (int e = std::min(seconds, t + hold(rng)); t < e; ++t) u[t] = v;
  }
  return u;
}

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_STEP_LOAD_H_
