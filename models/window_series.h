// Overlap-weighted aggregation of one series onto fixed UTC windows. An interval that
// straddles a window boundary contributes to each window in proportion to its overlap, so
// guest (15 s) and host (20 s) samples land on the same axis without nearest-timestamp errors.
#ifndef VRECON_MODELS_WINDOW_SERIES_H_
#define VRECON_MODELS_WINDOW_SERIES_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "src/core/time_util.h"

namespace vrecon::models {

// Windows [origin + i*width, origin + (i+1)*width) for i in [0, count).
struct WindowGrid {
  TimeNs origin = 0;
  TimeNs width = 300 * kNsPerSec;
  int count = 0;
  TimeNs Start(int i) const { return origin + width * i; }
  TimeNs End(int i) const { return origin + width * (i + 1); }
  // Windows aligned to multiples of `width` since the epoch that cover [from, to).
  static WindowGrid Covering(TimeNs from, TimeNs to, TimeNs width);
};

struct WindowStats {
  double weighted_sum = 0;  // sum of value * overlap seconds
  double covered_s = 0;     // seconds of the window with a value
  double max = -std::numeric_limits<double>::infinity();
  double min = std::numeric_limits<double>::infinity();
  int samples = 0;  // samples touching the window (instantaneous ones included)
  // Successive samples' differences inside the window (sum of squares, count) and the last value:
  // the sample-to-sample scatter from which models/interval.h estimates the sampling error.
  double diff_sq = 0;
  int diffs = 0;
  double last = 0;  // meaningful once covered_s > 0
};

// Where the samples of one block of times fall on a grid after a shift: runs of consecutive
// samples that each lie inside one window, samples split across windows (their pieces), and
// samples without length (Add handles those). The guest series of one file share their time
// blocks, so a block is planned once and every series then only adds values.
struct BlockPlan {
  static constexpr int kSplit = -2, kThroughAdd = -1;
  struct Run {
    int window;           // >= 0, kSplit (one sample, pieces [p0, p1)) or kThroughAdd
    uint32_t begin, end;  // samples
    uint32_t p0 = 0, p1 = 0;
    bool same_secs = true;  // window >= 0: every sample of the run has the same length
  };
  struct Piece {
    int window;
    double secs;
  };
  std::vector<Run> runs;
  std::vector<double> secs;  // each sample's length in seconds
  std::vector<Piece> pieces;
};

class WindowSeries {
 public:
  explicit WindowSeries(const WindowGrid& grid) : grid_(grid), stats_(grid.count) {}
  // A value over [start, end]; start == end is an instantaneous reading (no weight, but it
  // counts for min/max). Missing values are not passed in.
  void Add(TimeNs start, TimeNs end, double value);
  // Add(starts[i] + shift, ends[i] + shift, values[i]) for each i whose value is not NaN
  // (missing): a block of stored samples in one call.
  void AddAll(std::span<const TimeNs> starts, std::span<const TimeNs> ends, std::span<const double> values,
              TimeNs shift = 0);
  // The plan of a block for this series' grid; AddPlanned(plan, ...) then adds exactly what
  // AddAll(starts, ends, values, shift) would, in the same order. `complete`: no value is missing
  // (the store's count), which lets the runs skip the test per sample.
  BlockPlan Plan(std::span<const TimeNs> starts, std::span<const TimeNs> ends, TimeNs shift) const;
  void AddPlanned(const BlockPlan& plan, std::span<const TimeNs> starts, std::span<const TimeNs> ends,
                  std::span<const double> values, TimeNs shift, bool complete = false);
  const WindowStats& at(int i) const { return stats_[i]; }
  std::optional<double> Mean(int i) const {  // inline: called per window and process
    const WindowStats& s = stats_[i];
    if (s.covered_s <= 0) return std::nullopt;
    return s.weighted_sum / s.covered_s;
  }
  double Coverage(int i) const {  // 0..1 of the window's length
    return std::min(1.0, stats_[i].covered_s / (static_cast<double>(grid_.width) / kNsPerSec));
  }
  int size() const { return static_cast<int>(stats_.size()); }

 private:
  WindowGrid grid_;
  std::vector<WindowStats> stats_;
};

}  // namespace vrecon::models

#endif  // VRECON_MODELS_WINDOW_SERIES_H_
