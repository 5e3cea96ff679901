// Pearson correlation of a guest grid against a host grid at many lags, for the clock alignment
// (models/clock_alignment.cc). Both grids are runs of equal cells (models/alignment_grid.h).
#ifndef VRECON_MODELS_LAG_CORRELATION_H_
#define VRECON_MODELS_LAG_CORRELATION_H_

#include <memory>
#include <vector>

#include "models/alignment_grid.h"

namespace vrecon::models {

// r(shift) = Pearson correlation of guest cell k with host cell k + shift over the cells where
// both have a value; NaN when fewer than 8 such cells or either side is flat there.
//
// Computed from the guest's runs and prefix sums H over the host cells (a cell without a value
// adds nothing): sum_k g[k] h[k+s] = sum over runs of g_run * (H[end+s] - H[start+s]), i.e. a
// weight per run boundary times H there, so one lag costs one step per guest sample instead of
// one per cell. Values are centred on their means first, which leaves r unchanged and keeps the
// prefix sums small. Agrees with the cell-by-cell sums to about 1e-12.
class LagCorrelator {
 public:
  LagCorrelator() = default;
  LagCorrelator(const std::vector<CellRun>& guest, const std::vector<CellRun>& host);
  // Correlates other grids, whose Stats are given, in the memory of the last ones (the clock
  // alignment builds two correlators per one-hour range).
  void Reset(const std::vector<CellRun>& guest, const RunStats& guest_stats, const std::vector<CellRun>& host,
             const RunStats& host_stats);
  double At(int shift) const;
  // r for the shifts first, first + 1, ..., first + count - 1 into r[0..count): At's values (up
  // to rounding), the shifts that use every guest cell in one pass over the guest runs.
  void AtConsecutive(int first, int count, double* r) const;

 private:
  double HostSquares(int i) const;  // sum of the squared centred host cells < i, complete grids
  template <int kPairs>
  void CrossSums(const double* h1, double* sgh) const;  // complete grids, 2 kPairs lags
  template <int kPairs>
  void SumsWithEmptyCells(int j0, int lanes, const double* h1, const double* h2, const double* hn, double* r) const;

  // Memory kept across Resets and grown without zeroing: every element read is written first.
  template <typename T>
  class Buffer {
   public:
    T* Fit(size_t n) {
      if (n > size_) p_ = std::make_unique_for_overwrite<T[]>(n), size_ = n;
      return p_.get();
    }
    T* data() const { return p_.get(); }

   private:
    std::unique_ptr<T[]> p_;
    size_t size_ = 0;
  };

  Buffer<CellRun> guest_;  // the runs with a value, centred (At)
  size_t guest_runs_ = 0;
  // The same sum_k g[k] h[k+s] as weights on host prefix sums: sum over b of weight_b * H[at_b + s]
  // (+value at each run's end, -value at its start; a boundary between two runs is one point).
  // With empty cells the other sums too: unit_ (+1 / -1) and square_ (+value^2 / -value^2).
  Buffer<int> at_;
  Buffer<double> weight_, unit_, square_;
  size_t boundaries_ = 0;
  Buffer<CellRun> host_;         // centred; complete grids only
  Buffer<double> host_squares_;  // complete grids: HostSquares(host_[r].start), then the total
  size_t host_runs_ = 0;
  int n_ = 0, m_ = 0;       // guest and host cells
  bool complete_ = false;   // every cell of both grids has a value
  double g1_ = 0, g2_ = 0;  // sums of the centred guest cells and their squares
  // Index i <= m_: sums over host cells < i of the centred values (NaN as 0); grids with empty
  // cells also have the squares (h2_) and the count of cells with a value (hn_). Past m_, padding
  // that AtConsecutive reads into lanes it drops.
  Buffer<double> h1_, h2_, hn_;
};

}  // namespace vrecon::models

#endif  // VRECON_MODELS_LAG_CORRELATION_H_
