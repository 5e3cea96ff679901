#include "tests/sim/accuracy.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace vrecon::sim {
namespace {

struct OutProcess {
  double guest = NAN, corrected = NAN, ci_lo = NAN, ci_hi = NAN;  // NaN: null
};

struct OutWindow {
  TimeNs start = 0;
  double vcpus = NAN, guest_util = NAN;
  bool events = false;  // basis "events": the processes are an ETW trace's
  std::map<std::string, OutProcess> processes;
  std::set<std::string> flags;
};

double Number(const std::string& s) { return s == "null" ? NAN : std::strtod(s.c_str(), nullptr); }

// An events-basis process "name:pid" joins the others of its name (a batch job has one pid per
// run); the bounds of their intervals add up too.
void AddProcess(OutWindow* w, const std::string& name, bool events, const OutProcess& p) {
  if (!events) {
    w->processes[name] = p;
    return;
  }
  auto [it, added] = w->processes.try_emplace(name.substr(0, name.rfind(':')), p);
  if (added) return;
  OutProcess& q = it->second;
  q.guest += p.guest;
  q.corrected += p.corrected;
  q.ci_lo += p.ci_lo;
  q.ci_hi += p.ci_hi;
}

std::vector<OutWindow> ParseWindows(const std::string& json) {
  static const std::regex start_re("\"start\": \"([^\"]+)\"");
  static const std::regex process_re(
      "\\{\"name\": \"([^\"]*)\", \"guest_pct\": ([^,]+), \"corrected_pct\": ([^,]+), \"ci95\": (null|\\[([^,]+), "
      "([^\\]]+)\\])(?:, \"present_s\": [^,]+, \"basis\": \"([a-z]+)\")?");
  static const std::regex basis_re("\"basis\": \"([a-z]+)\", \"sampled_guest_util_pct\"");
  static const std::regex vcpus_re("\"vcpus\": ([^,]+), \"guest_util_pct\": ([^,]+),");
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
    if (std::regex_search(line, m, vcpus_re)) {
      w.vcpus = Number(m[1].str());
      w.guest_util = Number(m[2].str());
    }
    w.events = std::regex_search(line, m, basis_re) && m[1].str() == "events";
    for (std::sregex_iterator it(line.begin(), line.end(), process_re), end; it != end; ++it) {
      const std::smatch& p = *it;
      const bool ci = p[4].str() != "null";
      AddProcess(
          &w, p[1].str(), p[7].str() == "events",
          {Number(p[2].str()), Number(p[3].str()), ci ? Number(p[5].str()) : NAN, ci ? Number(p[6].str()) : NAN});
    }
    for (std::sregex_iterator it(line.begin(), line.end(), flag_re), end; it != end; ++it)
      w.flags.insert((*it)[1].str());
    out.push_back(std::move(w));
  }
  return out;
}

std::string Iso(TimeNs t) { return FormatIso(t, false); }

// Each corrected process with a truth: does its 95% interval hold the truth, and how wide is it.
void ScoreIntervals(const OutWindow& w, const TruthWindow& truth, Accuracy* a, std::vector<double>* widths) {
  for (const auto& [name, p] : w.processes) {
    auto t = truth.process_pct.find(name);
    if (t == truth.process_pct.end() || std::isnan(p.corrected)) continue;
    const bool covered = t->second >= p.ci_lo && t->second <= p.ci_hi;
    if (w.events) {  // kept apart: these intervals hold no tick-sampling error
      a->event_ci_n += std::isnan(p.ci_lo) ? 0 : 1;
      a->event_ci_covered += covered ? 1 : 0;
      continue;
    }
    if (std::isnan(p.ci_lo)) {
      ++a->ci_missing;
      continue;
    }
    ++a->ci_n;
    if (covered) ++a->ci_covered;
    widths->push_back(p.ci_hi - p.ci_lo);
  }
}

// The batch job where it ran or was seen; a job Perfmon never saw in the window counts as 0.
void ScoreJob(const OutWindow& w, const TruthWindow& truth, Accuracy* a) {
  auto t = truth.process_pct.find("batch");
  if (t == truth.process_pct.end()) return;
  auto p = w.processes.find("batch");
  const double guest = p == w.processes.end() || std::isnan(p->second.guest) ? 0 : p->second.guest;
  if (t->second <= 0 && guest <= 0) return;
  double real = 0;
  for (const auto& [name, pct] : truth.process_pct) real += pct;
  const double reported = w.guest_util * w.vcpus;  // % of one CPU
  const double corrected = p == w.processes.end() ? 0 : p->second.corrected;
  if (std::isnan(corrected) || !(reported > 0)) return;
  ++a->job_windows;
  a->job_naive_mae += std::abs(guest - t->second);
  a->job_corrected_mae += std::abs(corrected - t->second);
  a->job_floor_mae += std::abs(guest * real / reported - t->second);
}

// A window's error against one truth: the mean over the truth's processes of |value - truth|
// for the guest's value and for the corrected one (a process missing from the output counts as 0).
struct WindowError {
  double naive = 0, corrected = 0;
  bool all_corrected = true;  // no corrected value is null
};

WindowError Errors(const OutWindow& w, const std::map<std::string, double>& truth) {
  WindowError e;
  for (const auto& [name, truth_pct] : truth) {
    auto p = w.processes.find(name);
    const double guest = p == w.processes.end() || std::isnan(p->second.guest) ? 0 : p->second.guest;
    const double fixed = p == w.processes.end() ? 0 : p->second.corrected;
    e.naive += std::abs(guest - truth_pct);
    if (std::isnan(fixed)) e.all_corrected = false;
    else e.corrected += std::abs(fixed - truth_pct);
  }
  if (!truth.empty()) {
    e.naive /= static_cast<double>(truth.size());
    e.corrected /= static_cast<double>(truth.size());
  }
  return e;
}

}  // namespace

std::vector<TimeNs> EventWindowStarts(const std::string& correct_json) {
  std::vector<TimeNs> starts;
  for (const OutWindow& w : ParseWindows(correct_json))
    if (w.events) starts.push_back(w.start);
  return starts;
}

Accuracy Score(const std::string& correct_json, const std::vector<TruthWindow>& truth,
               const std::vector<TruthEvent>& events, const AccuracyTargets& targets) {
  Accuracy a;
  std::map<TimeNs, const TruthWindow*> by_start;
  for (const TruthWindow& t : truth) by_start[t.start] = &t;
  const std::vector<OutWindow> windows = ParseWindows(correct_json);
  const std::set<TimeNs> only(targets.only_windows.begin(), targets.only_windows.end());
  double naive_sum = 0, corrected_sum = 0, occupancy_sum = 0;
  int occupancy_n = 0, event_corrected_n = 0;
  std::vector<double> widths;
  for (const OutWindow& w : windows) {
    auto it = by_start.find(w.start);
    if (it == by_start.end() || (!only.empty() && !only.contains(w.start))) continue;
    ++a.windows;
    if (!w.flags.empty()) ++a.flagged_windows;
    const WindowError e = Errors(w, it->second->process_pct);
    const WindowError o = Errors(w, it->second->occupancy_pct);
    const double naive = e.naive, corrected = e.corrected;
    const bool all_corrected = e.all_corrected;
    naive_sum += naive;
    if (all_corrected) {
      ++a.corrected;
      corrected_sum += corrected;
    }
    if (o.all_corrected && !it->second->occupancy_pct.empty()) {
      ++occupancy_n;
      occupancy_sum += o.corrected;
    }
    if (w.events) {
      ++a.event_windows;
      a.event_window_starts.push_back(w.start);
      a.event_naive_mae += naive;
      if (all_corrected && o.all_corrected) {
        ++event_corrected_n;
        a.event_corrected_mae += corrected;
        a.event_corrected_occupancy_mae += o.corrected;
      }
    }
    ScoreIntervals(w, *it->second, &a, &widths);
    ScoreJob(w, *it->second, &a);
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
  if (occupancy_n > 0) a.corrected_occupancy_mae = occupancy_sum / occupancy_n;
  if (a.event_windows > 0) a.event_naive_mae /= a.event_windows;
  if (event_corrected_n > 0) {
    a.event_corrected_mae /= event_corrected_n;
    a.event_corrected_occupancy_mae /= event_corrected_n;
  }
  if (!widths.empty()) {
    std::nth_element(widths.begin(), widths.begin() + widths.size() / 2, widths.end());
    a.ci_median_width = widths[widths.size() / 2];
  }
  if (a.job_windows > 0) {
    a.job_naive_mae /= a.job_windows;
    a.job_corrected_mae /= a.job_windows;
    a.job_floor_mae /= a.job_windows;
  }

  const TimeNs tol = static_cast<TimeNs>(targets.event_tolerance_s * kNsPerSec);
  for (const TruthEvent& e : events) {
    const bool clock = e.code == "clock-step" || e.code == "dst-shift";
    const bool idle = e.code == "idle-queue";
    if (!clock && !idle) continue;
    const std::string code = idle ? "queue-on-idle" : e.code;
    bool hit = false;
    for (const OutWindow& w : windows) {
      const TimeNs end = w.start + 300 * kNsPerSec;
      if (w.flags.contains(code) && w.start <= e.until + tol && end >= e.at - tol) hit = true;
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
