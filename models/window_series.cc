#include "models/window_series.h"

#include <algorithm>

namespace vrecon::models {

WindowGrid WindowGrid::Covering(TimeNs from, TimeNs to, TimeNs width) {
  WindowGrid g;
  g.width = width;
  auto floor_div = [](TimeNs a, TimeNs b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
  g.origin = floor_div(from, width) * width;
  const TimeNs end = floor_div(to - 1, width) * width + width;
  g.count = to <= from ? 0 : static_cast<int>((end - g.origin) / width);
  return g;
}

void WindowSeries::Add(TimeNs start, TimeNs end, double value) {
  if (grid_.count == 0 || end < start) return;
  const TimeNs lo = std::max(start, grid_.origin);
  const TimeNs hi = std::min(end, grid_.End(grid_.count - 1));
  if (start == end) {
    if (end < grid_.origin || end >= grid_.End(grid_.count - 1)) return;
    WindowStats& s = stats_[(end - grid_.origin) / grid_.width];
    s.max = std::max(s.max, value);
    s.min = std::min(s.min, value);
    ++s.samples;
    return;
  }
  if (hi <= lo) return;
  int i = static_cast<int>((lo - grid_.origin) / grid_.width);
  if (hi <= grid_.End(i)) {  // the common case: the sample lies inside one window
    const double secs = static_cast<double>(hi - lo) / kNsPerSec;
    WindowStats& s = stats_[i];
    s.weighted_sum += value * secs;
    s.covered_s += secs;
    s.max = std::max(s.max, value);
    s.min = std::min(s.min, value);
    ++s.samples;
    return;
  }
  for (; i < grid_.count && grid_.Start(i) < hi; ++i) {
    const TimeNs a = std::max(lo, grid_.Start(i));
    const TimeNs b = std::min(hi, grid_.End(i));
    if (b <= a) continue;
    const double secs = static_cast<double>(b - a) / kNsPerSec;
    WindowStats& s = stats_[i];
    s.weighted_sum += value * secs;
    s.covered_s += secs;
    s.max = std::max(s.max, value);
    s.min = std::min(s.min, value);
    ++s.samples;
  }
}

std::optional<double> WindowSeries::Mean(int i) const {
  const WindowStats& s = stats_[i];
  if (s.covered_s <= 0) return std::nullopt;
  return s.weighted_sum / s.covered_s;
}

double WindowSeries::Coverage(int i) const {
  return std::min(1.0, stats_[i].covered_s / (static_cast<double>(grid_.width) / kNsPerSec));
}

}  // namespace vrecon::models
