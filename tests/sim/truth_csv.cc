// The truth file: two lines per window and process (its CPU, and the slots it held), one per
// injected event.
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "tests/sim/simulator.h"

namespace vrecon::sim {

std::string TruthCsv(const SimOutput& out) {
  std::ostringstream os;
  os << "kind,a,b,c,d\n";
  char b[64];
  for (const TruthWindow& w : out.windows) {
    for (const auto& [name, pct] : w.process_pct) {
      std::snprintf(b, sizeof b, "%.6f", pct);
      os << "window," << FormatIso(w.start, false) << "," << name << "," << b << "\n";
    }
    for (const auto& [name, pct] : w.occupancy_pct) {
      std::snprintf(b, sizeof b, "%.6f", pct);
      os << "occupancy," << FormatIso(w.start, false) << "," << name << "," << b << "\n";
    }
  }
  for (const TruthEvent& e : out.events) {
    std::snprintf(b, sizeof b, "%.3f", e.amount);
    os << "event," << e.code << "," << FormatIso(e.at, true) << "," << FormatIso(e.until, true) << "," << b << "\n";
  }
  return os.str();
}

bool ParseTruthCsv(const std::string& text, std::vector<TruthWindow>* windows, std::vector<TruthEvent>* events) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    if (f.size() == 4 && (f[0] == "window" || f[0] == "occupancy")) {
      auto start = ParseIso(f[1]);
      if (!start) return false;
      if (windows->empty() || windows->back().start != *start) windows->push_back(TruthWindow{*start, {}, {}});
      (f[0] == "window" ? windows->back().process_pct : windows->back().occupancy_pct)[f[2]] =
          std::strtod(f[3].c_str(), nullptr);
    } else if (f.size() == 5 && f[0] == "event") {
      auto at = ParseIso(f[2]), until = ParseIso(f[3]);
      if (!at || !until) return false;
      events->push_back(TruthEvent{f[1], *at, *until, std::strtod(f[4].c_str(), nullptr)});
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace vrecon::sim
