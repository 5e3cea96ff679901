// The clock alignment's common grid (models/clock_alignment.cc): a series as the overlap-weighted
// mean on cells [t0 + k*g, t0 + (k+1)*g), k < n, held as runs of equal cells. A 15 s guest
// sample on a 1 s grid is one run of 15 cells, so an hour is about 240 runs instead of 3,600
// cells, and everything after the grid is built costs per run.
#ifndef VRECON_MODELS_ALIGNMENT_GRID_H_
#define VRECON_MODELS_ALIGNMENT_GRID_H_

#include <span>
#include <vector>

#include "models/clock_alignment.h"

namespace vrecon::models {

// Cells [start, end) all hold `value`; NaN: no value there. Runs of a grid are in order and
// cover every cell [0, n) once.
struct CellRun {
  int start = 0, end = 0;
  double value = 0;
};

// True when no two samples of positive length overlap (one series per time: a guest total, a
// vSphere VM). Several Hyper-V VPs overlap, and OnGridRuns then takes the cell-by-cell path.
bool Disjoint(std::span<const TimedValue> samples);

// The overlap-weighted mean of `samples` (sorted by start) on n cells of g ns from t0, as runs;
// a cell with less than half its length covered has no value. Overlapping samples are averaged.
// `disjoint` is Disjoint(samples): then the runs are built sample by sample. The second form
// writes into *runs, reusing its capacity (the clock alignment builds two grids per range).
std::vector<CellRun> OnGridRuns(std::span<const TimedValue> samples, bool disjoint, TimeNs t0, TimeNs g, int n);
void OnGridRuns(std::span<const TimedValue> samples, bool disjoint, TimeNs t0, TimeNs g, int n,
                std::vector<CellRun>* runs);

// Groups of f cells averaged (a group needs more than half its cells with a value): n / f cells.
std::vector<CellRun> CoarsenRuns(const std::vector<CellRun>& runs, int f, int n);
void CoarsenRuns(const std::vector<CellRun>& runs, int f, int n, std::vector<CellRun>* out);

// Sums over the cells with a value, in run order: the standard deviation's and the mean's, which
// the clock alignment needs both of for the same grid.
struct RunStats {
  double sum = 0, squares = 0, cells = 0;
  bool complete = true;  // every cell has a value
  double Mean() const { return cells > 0 ? sum / cells : 0; }
  double StdDev() const;  // sample standard deviation of the cells with a value; 0 under two
};
RunStats Stats(const std::vector<CellRun>& runs);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_ALIGNMENT_GRID_H_
