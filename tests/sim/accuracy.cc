#include "tests/sim/accuracy.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace vrecon::sim {
namespace {

struct OutWindow {
  TimeNs start = 0;
  std::map<std::string, std::pair<double, double>> processes;  // name -> guest, corrected (NaN: null)
  std::set<std::string> flags;
};

double Number(const std::string& s) { return s == "null" ? NAN : std::strtod(s.c_str(), nullptr); }

std::vector<OutWindow> ParseWindows(const std::string& json) {
  static const std::regex start_re("\"start\": \"([^\"]+)\"");
  static const std::regex process_re("\\{\"name\": \"([^\"]*)\", \"guest_pct\": ([^,]+), \"corrected_pct\": ([^,]+),");
  static const std::regex flag_re("\"code\": \"([^\"]+)\"");
  std::vector<OutWindow> out;
  std::istringstream in(json);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, start_re)) continue;
    auto start = ParseIso(m[1].str());
    if (!start) continue;
    OutWindow w;
    w.start = *start;
    for (std::sregex_iterator it(line.begin(), line.end(), process_re), end; it != end; ++it)
      w.processes[(*it)[1].str()] = {Number((*it)[2].str()), Number((*it)[3].str())};
    for (std::sregex_iterator it(line.begin(), line.end(), flag_re), end; it != end; ++it) w.flags.insert((*it)[1].str());
    out.push_back(std::move(w));
  }
  return out;
}

std::string Iso(TimeNs t) { return FormatIso(t, false); }

}  // namespace

Accuracy Score(const std::string& correct_json, const std::vector<TruthWindow>& truth,
               const std::vector<TruthEvent>& events, const AccuracyTargets& targets) {
  Accuracy a;
  std::map<TimeNs, const TruthWindow*> by_start;
  for (const TruthWindow& t : truth) by_start[t.start] = &t;
  const std::vector<OutWindow> windows = ParseWindows(correct_json);
  double naive_sum = 0, corrected_sum = 0;
  for (const OutWindow& w : windows) {
    auto it = by_start.find(w.start);
    if (it == by_start.end()) continue;
    ++a.windows;
    if (!w.flags.empty()) ++a.flagged_windows;
    // A process the guest did not report in the window was seen at 0.
    double naive = 0, corrected = 0;
    bool all_corrected = true;
    for (const auto& [name, truth_pct] : it->second->process_pct) {
      auto p = w.processes.find(name);
      const double guest = p == w.processes.end() || std::isnan(p->second.first) ? 0 : p->second.first;
      const double fixed = p == w.processes.end() ? 0 : p->second.second;
      naive += std::abs(guest - truth_pct);
      if (std::isnan(fixed)) all_corrected = false;
      else corrected += std::abs(fixed - truth_pct);
    }
    const double n = static_cast<double>(it->second->process_pct.size());
    naive /= n;
    corrected /= n;
    naive_sum += naive;
    if (all_corrected) {
      ++a.corrected;
      corrected_sum += corrected;
    }
    if (naive >= targets.hard_naive_pts) {
      ++a.hard;
      if (all_corrected) a.hard_worst = std::max(a.hard_worst, corrected);
      if (!all_corrected || corrected > targets.corrected_max_pts) {
        ++a.hard_missed;
        std::ostringstream os;
        os << "window " << Iso(w.start) << ": naive error " << naive << " points, corrected "
           << (all_corrected ? std::to_string(corrected) : std::string("null"));
        a.misses.push_back(os.str());
      }
    }
  }
  if (a.windows > 0) a.naive_mae = naive_sum / a.windows;
  if (a.corrected > 0) a.corrected_mae = corrected_sum / a.corrected;

  const TimeNs tol = static_cast<TimeNs>(targets.event_tolerance_s * kNsPerSec);
  for (const TruthEvent& e : events) {
    const bool clock = e.code == "clock-step" || e.code == "dst-shift";
    const bool idle = e.code == "idle-queue";
    if (!clock && !idle) continue;
    const std::string code = idle ? "queue-on-idle" : e.code;
    bool hit = false;
    for (const OutWindow& w : windows) {
      const TimeNs end = w.start + 300 * kNsPerSec;
      if (w.flags.count(code) && w.start <= e.until + tol && end >= e.at - tol) hit = true;
    }
    if (clock) {
      ++a.clock_events;
      if (hit) ++a.clock_events_flagged;
      else a.misses.push_back(e.code + " at " + Iso(e.at) + " not flagged");
    } else {
      ++a.idle_queue_events;
      if (hit) ++a.idle_queue_flagged;
    }
  }
  return a;
}

}  // namespace vrecon::sim
