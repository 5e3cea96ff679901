// Growth drivers (docs/capacity.md): which of a VM's processes drive its demand's growth, from
// their corrected demand day by day (w x the guest's figure, as the correction stores it hourly).
#ifndef VRECON_MODELS_CAPACITY_GROWTH_H_
#define VRECON_MODELS_CAPACITY_GROWTH_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vrecon::models {

struct ProcessDay {
  int64_t day = 0;   // days since 1970-01-01 (UTC)
  double cores = 0;  // the process's mean corrected demand that day
};

struct ProcessGrowth {
  std::string process;
  double cores_now = 0;      // its mean over its last 7 days with data
  double cores_per_30d = 0;  // the least-squares slope of its days, times 30
};

// The processes with at least `min_days` days whose demand grows, the fastest first, at most `top`.
std::vector<ProcessGrowth> GrowthDrivers(const std::map<std::string, std::vector<ProcessDay>>& by_process, int top = 5,
                                         int min_days = 14);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_CAPACITY_GROWTH_H_
