#include "tests/sim/event_cpu.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace vrecon::sim {
namespace {

constexpr TimeNs kWindowNs = 300 * kNsPerSec;

// One window's error against one truth: the mean over its processes and the largest.
std::pair<double, double> WindowError(const EventWindow& e, const std::map<std::string, double>& truth) {
  double sum = 0, worst = 0;
  for (const auto& [name, pct] : truth) {
    auto it = e.process_pct.find(name);
    const double d = std::abs((it == e.process_pct.end() ? 0 : it->second) - pct);
    sum += d;
    worst = std::max(worst, d);
  }
  return {truth.empty() ? 0 : sum / static_cast<double>(truth.size()), worst};
}

}  // namespace

// source,machine,object,instance,counter,start,end,value,unit,original,vm_key: no field before
// `value` holds a comma (instances are "name:pid").
std::vector<EventWindow> EventCpuFromSamplesCsv(const std::string& csv) {
  std::map<TimeNs, std::map<std::string, double>> sums;     // per window and name: % x seconds
  std::map<TimeNs, std::map<std::string, double>> covered;  // per window and instance: seconds
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; f.size() < 8 && std::getline(ss, cell, ',');) f.push_back(cell);
    if (f.size() < 8 || f[2] != "ETW Process" || f[4] != "% Processor Time" || f[7].empty()) continue;
    const auto start = ParseIso(f[5]), end = ParseIso(f[6]);
    const size_t colon = f[3].rfind(':');
    if (!start || !end || colon == std::string::npos) continue;
    const TimeNs window = *start - ((*start % kWindowNs) + kWindowNs) % kWindowNs;
    const double seconds = static_cast<double>(*end - *start) / kNsPerSec;
    sums[window][f[3].substr(0, colon)] += std::strtod(f[7].c_str(), nullptr) * seconds;
    covered[window][f[3]] += seconds;
  }
  std::vector<EventWindow> out;
  for (const auto& [start, names] : sums) {
    double most = 0;
    for (const auto& [instance, seconds] : covered[start]) most = std::max(most, seconds);
    if (most < 300 - 1e-3) continue;  // the trace's partial first or last window
    EventWindow w{start, {}};
    for (const auto& [name, pct_s] : names) w.process_pct[name] = pct_s / 300;
    out.push_back(std::move(w));
  }
  return out;
}

EventAccuracy ScoreEventCpu(const std::vector<EventWindow>& events, const std::vector<TruthWindow>& truth,
                            double limit_pts) {
  EventAccuracy a;
  std::map<TimeNs, const TruthWindow*> by_start;
  for (const TruthWindow& t : truth) by_start[t.start] = &t;
  for (const EventWindow& e : events) {
    auto it = by_start.find(e.start);
    if (it == by_start.end()) continue;
    ++a.windows;
    const auto [occupancy, occupancy_process] = WindowError(e, it->second->occupancy_pct);
    const auto [demand, demand_process] = WindowError(e, it->second->process_pct);
    a.occupancy_mae += occupancy;
    a.occupancy_worst = std::max(a.occupancy_worst, occupancy);
    a.occupancy_worst_process = std::max(a.occupancy_worst_process, occupancy_process);
    a.demand_mae += demand;
    a.demand_worst = std::max(a.demand_worst, demand);
    a.demand_worst_process = std::max(a.demand_worst_process, demand_process);
    if (occupancy > limit_pts) {
      std::ostringstream os;
      os << "window " << FormatIso(e.start, false) << ": " << occupancy << " points from the occupancy truth";
      a.misses.push_back(os.str());
    }
  }
  if (a.windows > 0) {
    a.occupancy_mae /= a.windows;
    a.demand_mae /= a.windows;
  }
  return a;
}

}  // namespace vrecon::sim
