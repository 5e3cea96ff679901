#include "models/window_series.h"

#include <algorithm>
#include <cmath>

namespace vrecon::models {
namespace {

// One sample's share of a window: `secs` of it at `value`. Every path into a window adds
// through here, in sample order, so they all give the same sums bit for bit.
inline void Accumulate(WindowStats& s, double value, double secs) {
  if (s.covered_s > 0) {
    const double d = value - s.last;
    s.diff_sq += d * d;
    ++s.diffs;
  }
  s.last = value;
  s.weighted_sum += value * secs;
  s.covered_s += secs;
  s.max = std::max(s.max, value);
  s.min = std::min(s.min, value);
  ++s.samples;
}

// Accumulate for a window that already holds a sample (covered_s > 0): the same operations.
inline void AccumulateAfter(WindowStats& s, double value, double secs) {
  const double d = value - s.last;
  s.diff_sq += d * d;
  ++s.diffs;
  s.last = value;
  s.weighted_sum += value * secs;
  s.covered_s += secs;
  s.max = std::max(s.max, value);
  s.min = std::min(s.min, value);
  ++s.samples;
}

}  // namespace

WindowGrid WindowGrid::Covering(TimeNs from, TimeNs to, TimeNs width) {
  WindowGrid g;
  g.width = width;
  g.origin = FloorTo(from, width);
  const TimeNs end = FloorTo(to - 1, width) + width;
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
  auto add = [value](WindowStats& s, TimeNs a, TimeNs b) {
    Accumulate(s, value, static_cast<double>(b - a) / kNsPerSec);
  };
  int i = static_cast<int>((lo - grid_.origin) / grid_.width);
  if (hi <= grid_.End(i)) {  // the common case: the sample lies inside one window
    add(stats_[i], lo, hi);
    return;
  }
  for (; i < grid_.count && grid_.Start(i) < hi; ++i) {
    const TimeNs a = std::max(lo, grid_.Start(i));
    const TimeNs b = std::min(hi, grid_.End(i));
    if (b > a) add(stats_[i], a, b);
  }
}

void WindowSeries::AddAll(std::span<const TimeNs> starts, std::span<const TimeNs> ends, std::span<const double> values,
                          TimeNs shift) {
  // Consecutive samples mostly fall in one window: that window's stats are kept in `cur` (same
  // operations in the same order as Add, so the same sums) and stored back when the run ends.
  int w = -1;
  WindowStats cur;
  TimeNs w_start = 0, w_end = 0;  // [0, 0] holds no sample with a < b
  TimeNs last_len = 0;            // samples mostly share one length: divide once
  double last_secs = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (std::isnan(v)) continue;
    const TimeNs a = starts[i] + shift, b = ends[i] + shift;
    if (a < b && a >= w_start && b <= w_end) {  // Add's one-window case
      if (b - a != last_len) last_len = b - a, last_secs = static_cast<double>(last_len) / kNsPerSec;
      Accumulate(cur, v, last_secs);
      continue;
    }
    if (w >= 0) stats_[w] = cur;
    Add(a, b, v);
    // The next samples start where this one ends: keep the window holding b. (With a's window, a
    // sample straddling a boundary, every window's first when guest times are shifted, would
    // send the next one through Add too.)
    if (grid_.count > 0 && b >= grid_.origin && b < grid_.End(grid_.count - 1)) {
      w = static_cast<int>((b - grid_.origin) / grid_.width);
      w_start = grid_.Start(w);
      w_end = grid_.End(w);
      cur = stats_[w];
    } else {
      w = -1;
      w_start = w_end = 0;
    }
  }
  if (w >= 0) stats_[w] = cur;
}

BlockPlan WindowSeries::Plan(std::span<const TimeNs> starts, std::span<const TimeNs> ends, TimeNs shift) const {
  BlockPlan p;
  p.secs.resize(starts.size());
  const TimeNs grid_end = grid_.count > 0 ? grid_.End(grid_.count - 1) : grid_.origin;
  for (size_t i = 0; i < starts.size(); ++i) {
    const TimeNs a = starts[i] + shift, b = ends[i] + shift;
    p.secs[i] = static_cast<double>(b - a) / kNsPerSec;  // what Add and AddAll compute
    const uint32_t n = static_cast<uint32_t>(i);
    if (grid_.count == 0 || a >= b) {  // instantaneous (or reversed): Add's own handling
      if (!p.runs.empty() && p.runs.back().window == BlockPlan::kThroughAdd) {
        ++p.runs.back().end;
      } else {
        p.runs.push_back({BlockPlan::kThroughAdd, n, n + 1});
      }
      continue;
    }
    // Add's pieces: the part of [a, b) on the grid, window by window.
    const TimeNs lo = std::max(a, grid_.origin), hi = std::min(b, grid_end);
    int w = hi > lo ? static_cast<int>((lo - grid_.origin) / grid_.width) : -1;
    if (w >= 0 && lo == a && hi == b && hi <= grid_.End(w)) {  // wholly inside one window
      if (!p.runs.empty() && p.runs.back().window == w) {
        BlockPlan::Run& r = p.runs.back();
        r.same_secs = r.same_secs && p.secs[i] == p.secs[r.begin];
        ++r.end;
      } else {
        p.runs.push_back({w, n, n + 1});
      }
      continue;
    }
    BlockPlan::Run r{BlockPlan::kSplit, n, n + 1, static_cast<uint32_t>(p.pieces.size()), 0};
    for (; w >= 0 && w < grid_.count && grid_.Start(w) < hi; ++w) {
      const TimeNs x = std::max(lo, grid_.Start(w)), y = std::min(hi, grid_.End(w));
      if (y > x) p.pieces.push_back({w, static_cast<double>(y - x) / kNsPerSec});
    }
    r.p1 = static_cast<uint32_t>(p.pieces.size());
    p.runs.push_back(r);
  }
  return p;
}

void WindowSeries::AddPlanned(const BlockPlan& plan, std::span<const TimeNs> starts, std::span<const TimeNs> ends,
                              std::span<const double> values, TimeNs shift, bool complete) {
  if (values.empty()) return;  // a block without values
  for (const BlockPlan::Run& r : plan.runs) {
    if (r.window == BlockPlan::kThroughAdd) {
      for (uint32_t i = r.begin; i < r.end; ++i)
        if (!std::isnan(values[i])) Add(starts[i] + shift, ends[i] + shift, values[i]);
      continue;
    }
    if (r.window == BlockPlan::kSplit) {
      const double v = values[r.begin];
      if (std::isnan(v)) continue;
      for (uint32_t k = r.p0; k < r.p1; ++k) Accumulate(stats_[plan.pieces[k].window], v, plan.pieces[k].secs);
      continue;
    }
    // Add's one-window case, the window's sums kept in registers over the run (the file is built
    // without the SLP vectorizer, models/CMakeLists.txt).
    WindowStats cur = stats_[r.window];
    const double* secs = plan.secs.data();
    if (complete && r.same_secs) {  // the usual run: one length, every value present
      const WindowStats before = cur;
      const double t = secs[r.begin];
      uint32_t i = r.begin;
      if (cur.covered_s <= 0) Accumulate(cur, values[i++], t);
      // From here the window has a last value: Accumulate's test is known, so it is left out.
      for (; i < r.end; ++i) AccumulateAfter(cur, values[i], t);
      // A NaN the count missed (a damaged block) made the sum NaN: redo the run with the test.
      if (!std::isnan(cur.weighted_sum)) {
        stats_[r.window] = cur;
        continue;
      }
      cur = before;
    }
    for (uint32_t i = r.begin; i < r.end; ++i)
      if (!std::isnan(values[i])) Accumulate(cur, values[i], secs[i]);
    stats_[r.window] = cur;
  }
}

}  // namespace vrecon::models
