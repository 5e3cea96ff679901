#include "models/capacity_growth.h"

#include <algorithm>
#include <cmath>

namespace vrecon::models {
namespace {

// Least-squares slope of cores over days; 0 when the days do not vary.
double Slope(const std::vector<ProcessDay>& days) {
  double mx = 0, my = 0;
  for (const ProcessDay& d : days) {
    mx += static_cast<double>(d.day);
    my += d.cores;
  }
  mx /= static_cast<double>(days.size());
  my /= static_cast<double>(days.size());
  double sxy = 0, sxx = 0;
  for (const ProcessDay& d : days) {
    sxy += (static_cast<double>(d.day) - mx) * (d.cores - my);
    sxx += (static_cast<double>(d.day) - mx) * (static_cast<double>(d.day) - mx);
  }
  return sxx > 0 ? sxy / sxx : 0;
}

}  // namespace

std::vector<ProcessGrowth> GrowthDrivers(const std::map<std::string, std::vector<ProcessDay>>& by_process, int top,
                                         int min_days) {
  std::vector<ProcessGrowth> out;
  for (const auto& [name, given] : by_process) {
    std::vector<ProcessDay> days;
    for (const ProcessDay& d : given)
      if (std::isfinite(d.cores)) days.push_back(d);
    if (static_cast<int>(days.size()) < min_days) continue;
    std::sort(days.begin(), days.end(), [](const ProcessDay& a, const ProcessDay& b) { return a.day < b.day; });
    const double per_30d = 30 * Slope(days);
    if (!(per_30d > 0)) continue;
    double recent = 0;
    const size_t last = std::min<size_t>(7, days.size());
    for (size_t i = days.size() - last; i < days.size(); ++i) recent += days[i].cores;
    out.push_back({name, recent / static_cast<double>(last), per_30d});
  }
  std::sort(out.begin(), out.end(), [](const ProcessGrowth& a, const ProcessGrowth& b) {
    return a.cores_per_30d != b.cores_per_30d ? a.cores_per_30d > b.cores_per_30d : a.process < b.process;
  });
  if (static_cast<int>(out.size()) > top) out.resize(static_cast<size_t>(top));
  return out;
}

}  // namespace vrecon::models
