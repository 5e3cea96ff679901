#include "models/alignment_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "src/core/time_util.h"

namespace vrecon::models {
namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// Appends cells [start, end) (start = the previous run's end) holding v, merged into the last
// run when it holds the same value (NaN with NaN). Inline: the grids call it about 1,700 times
// per one-hour range.
inline void Append(std::vector<CellRun>* runs, int start, int end, double v) {
  if (end <= start) return;
  if (!runs->empty()) {
    CellRun& last = runs->back();
    if (last.value == v || (std::isnan(last.value) && std::isnan(v))) {
      last.end = end;
      return;
    }
  }
  runs->push_back(CellRun{start, end, v});
}

// The cell-by-cell construction, for overlapping samples: each cell sums value x overlap.
void OnGridDense(std::span<const TimedValue> samples, TimeNs t0, TimeNs g, int n, std::vector<CellRun>* runs) {
  std::vector<double> sum(n, 0), cov(n, 0);
  const TimeNs t1 = t0 + g * n;
  const double gs = ToSeconds(g);
  // Samples are sorted by start; one spans at most the host's longest interval, so start from the
  // first sample that starts a day before t0 at the earliest.
  auto it = std::lower_bound(samples.begin(), samples.end(), t0 - 86400 * kNsPerSec,
                             [](const TimedValue& s, TimeNs t) { return s.start < t; });
  for (; it != samples.end() && it->start < t1; ++it) {
    if (it->end <= it->start || it->end <= t0) continue;
    const TimeNs a = std::max(it->start, t0), b = std::min(it->end, t1);
    for (int k = static_cast<int>((a - t0) / g); k < n && t0 + g * k < b; ++k) {
      const TimeNs lo = std::max(a, t0 + g * k), hi = std::min(b, t0 + g * (k + 1));
      if (hi <= lo) continue;
      const double w = hi - lo == g ? gs : ToSeconds(hi - lo);  // a whole cell: no division
      sum[k] += it->value * w;
      cov[k] += w;
    }
  }
  runs->clear();
  const double half = gs / 2;
  for (int k = 0; k < n; ++k)
    Append(runs, k, k + 1, cov[k] >= half ? (cov[k] == 1.0 ? sum[k] : sum[k] / cov[k]) : kNoValue);
}

// Builds runs into *runs from pieces in time order: whole cells of one value, and parts of
// cells, which are summed (value x weight) until the next piece moves on to another cell.
class RunWriter {
 public:
  RunWriter(std::vector<CellRun>* runs, int n, double half, bool strict, size_t pieces)
      : runs_(runs), n_(n), half_(half), strict_(strict) {
    runs_->clear();
    runs_->reserve(pieces + 2);  // no regrowth: each piece adds at most a run, and a gap one more
  }
  void Part(int k, double v, double w) {
    if (k != part_) Flush();
    part_ = k;
    if (!std::isnan(v)) sum_ += v * w, cov_ += w;
  }
  void Whole(int from, int to, double v) {
    Flush();
    Append(runs_, next_, from, kNoValue);  // cells no piece touched
    Append(runs_, from, to, v);
    next_ = std::max(next_, to);
  }
  void Finish() {
    Flush();
    Append(runs_, next_, n_, kNoValue);
  }

 private:
  void Flush() {
    if (part_ < 0) return;
    const bool valid = strict_ ? cov_ > half_ : cov_ >= half_;
    Append(runs_, next_, part_, kNoValue);
    Append(runs_, part_, part_ + 1, valid ? (cov_ == 1.0 ? sum_ : sum_ / cov_) : kNoValue);
    next_ = part_ + 1;
    part_ = -1, sum_ = 0, cov_ = 0;
  }
  std::vector<CellRun>* runs_;
  int n_;
  double half_;
  bool strict_;
  int next_ = 0;  // first cell not written yet
  int part_ = -1;
  double sum_ = 0, cov_ = 0;
};

}  // namespace

bool Disjoint(std::span<const TimedValue> samples) {
  TimeNs end = std::numeric_limits<TimeNs>::min();
  for (const TimedValue& s : samples) {
    if (s.end <= s.start) continue;  // no length: no weight on the grid
    if (s.start < end) return false;
    end = s.end;
  }
  return true;
}

void OnGridRuns(std::span<const TimedValue> samples, bool disjoint, TimeNs t0, TimeNs g, int n,
                std::vector<CellRun>* runs) {
  if (!disjoint) return OnGridDense(samples, t0, g, n, runs);
  // Disjoint samples: each cell is one sample's value or a few samples' parts, in sample order,
  // so the sums are those of OnGridDense, added in the same order.
  const TimeNs t1 = t0 + g * n;
  const double gs = ToSeconds(g);
  auto it =
      std::lower_bound(samples.begin(), samples.end(), t0, [](const TimedValue& s, TimeNs t) { return s.start < t; });
  while (it != samples.begin() && (std::prev(it)->end > t0 || std::prev(it)->end <= std::prev(it)->start)) --it;
  const auto last = std::lower_bound(it, samples.end(), t1, [](const TimedValue& s, TimeNs t) { return s.start < t; });
  RunWriter out(runs, n, gs / 2, false, 6 * static_cast<size_t>(last - it));  // part, whole, part; gaps between
  // The cell of x >= t0: from a double estimate, made exact (a 64-bit division costs more).
  const double per_ns = 1.0 / static_cast<double>(g);
  auto cell = [&](TimeNs x) {
    TimeNs k = static_cast<TimeNs>(static_cast<double>(x - t0) * per_ns);
    while (k > 0 && t0 + g * k > x) --k;
    while (t0 + g * (k + 1) <= x) ++k;
    return static_cast<int>(k);
  };
  // Samples usually follow on without a gap and last as long as the one before: a sample's start
  // is the last one's end, whose cell is known, and a length of whole cells (b - a = g (kb - ka))
  // moves by as many cells wherever it starts.
  TimeNs prev_b = std::numeric_limits<TimeNs>::min(), whole_len = -1;
  int prev_kb = 0, whole_cells = 0;
  for (; it != last; ++it) {
    if (it->end <= it->start || it->end <= t0) continue;
    const TimeNs a = std::max(it->start, t0), b = std::min(it->end, t1);
    const int ka = a == prev_b ? prev_kb : cell(a);
    int kb;
    if (b - a == whole_len) {
      kb = ka + whole_cells;
    } else {
      kb = cell(b);
      if (b - a == g * (kb - ka)) whole_len = b - a, whole_cells = kb - ka;
    }
    prev_b = b, prev_kb = kb;
    const double v = it->value;
    if (ka == kb) {
      out.Part(ka, v, ToSeconds(b - a));
      continue;
    }
    int full = ka;
    if (a != t0 + g * ka) out.Part(ka, v, ToSeconds(t0 + g * (ka + 1) - a)), full = ka + 1;
    if (kb > full) out.Whole(full, kb, gs == 1.0 ? v * gs : v * gs / gs);  // OnGridDense's sum / cov
    if (b != t0 + g * kb) out.Part(kb, v, ToSeconds(b - (t0 + g * kb)));
  }
  out.Finish();
}

std::vector<CellRun> OnGridRuns(std::span<const TimedValue> samples, bool disjoint, TimeNs t0, TimeNs g, int n) {
  std::vector<CellRun> runs;
  OnGridRuns(samples, disjoint, t0, g, n, &runs);
  return runs;
}

void CoarsenRuns(const std::vector<CellRun>& runs, int f, int n, std::vector<CellRun>* coarse) {
  const int nc = n / f;
  RunWriter out(coarse, nc, f / 2.0, true, 3 * runs.size());
  // Runs follow on: a run's start is the last one's end, whose group is known.
  int prev_b = -1, ka = 0, a_in = 0;  // group of cell a and a's place in it
  for (const CellRun& r : runs) {
    const int a = r.start, b = std::min(r.end, nc * f);
    if (b <= a) continue;
    if (a != prev_b) ka = a / f, a_in = a % f;
    prev_b = b;
    const int kb = b / f, b_in = b - kb * f;
    if (ka != kb) {
      int full = ka;
      if (a_in != 0) out.Part(ka, r.value, (ka + 1) * f - a), full = ka + 1;
      if (kb > full) out.Whole(full, kb, r.value);
      if (b_in != 0) out.Part(kb, r.value, b_in);
    } else {
      out.Part(ka, r.value, b - a);
    }
    ka = kb, a_in = b_in;
  }
  out.Finish();
}

std::vector<CellRun> CoarsenRuns(const std::vector<CellRun>& runs, int f, int n) {
  std::vector<CellRun> coarse;
  CoarsenRuns(runs, f, n, &coarse);
  return coarse;
}

RunStats Stats(const std::vector<CellRun>& runs) {
  RunStats st;
  for (const CellRun& r : runs) {
    if (std::isnan(r.value)) {
      st.complete = false;
      continue;
    }
    const double len = r.end - r.start;
    st.sum += r.value * len, st.squares += r.value * r.value * len, st.cells += len;
  }
  return st;
}

double RunStats::StdDev() const {
  if (cells < 2) return 0;
  return std::sqrt(std::max(0.0, (squares - sum * sum / cells) / (cells - 1)));
}

}  // namespace vrecon::models
