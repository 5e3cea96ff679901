#include "models/lag_correlation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace vrecon::models {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Pearson's r from the sums over n cells; NaN under 8 cells or with a flat side.
double Pearson(double n, double sg, double sgg, double sh, double shh, double sgh) {
  if (n < 8) return kNaN;
  const double vg = sgg - sg * sg / n, vh = shh - sh * sh / n;
  if (vg <= 1e-12 || vh <= 1e-12) return kNaN;
  return (sgh - sg * sh / n) / std::sqrt(vg * vh);
}

// Mean of the cells with a value, and whether every cell has one.
double RunsMean(const std::vector<CellRun>& runs, bool* complete) {
  double s = 0, n = 0;
  *complete = true;
  for (const CellRun& r : runs) {
    if (std::isnan(r.value)) {
      *complete = false;
      continue;
    }
    s += r.value * (r.end - r.start), n += r.end - r.start;
  }
  return n > 0 ? s / n : 0;
}

// p[j] = p[0] + j * c for j in 1..len: linear inside a run, no chain of additions; two at a
// time (GCC/Clang vector extension: runs are 15-20 cells, too short for the auto-vectorizer).
void FillLinear(double* p, int len, double c) {
  using V2 = double __attribute__((vector_size(16)));
  const double base = p[0];
  const V2 b = {base, base}, cv = {c, c}, step = {2, 2};
  V2 j2 = {1, 2};
  int j = 1;
  for (; j < len; j += 2, j2 += step) {
    const V2 x = b + j2 * cv;
    std::memcpy(p + j, &x, sizeof x);
  }
  if (j == len) p[j] = base + j * c;
}

}  // namespace

LagCorrelator::LagCorrelator(const std::vector<CellRun>& guest, const std::vector<CellRun>& host)
    : n_(guest.empty() ? 0 : guest.back().end), m_(host.empty() ? 0 : host.back().end) {
  bool guest_complete = false, host_complete = false;
  const double mg = RunsMean(guest, &guest_complete), mh = RunsMean(host, &host_complete);
  complete_ = guest_complete && host_complete;
  guest_.reserve(guest.size());
  at_.reserve(guest.size() + 1);
  weight_.reserve(guest.size() + 1);
  for (const CellRun& r : guest) {
    if (std::isnan(r.value)) continue;
    const double c = r.value - mg, len = r.end - r.start;
    guest_.push_back(CellRun{r.start, r.end, c});
    g1_ += c * len, g2_ += c * c * len;
    const bool joined = !at_.empty() && at_.back() == r.start;
    if (joined) {
      weight_.back() -= c;
    } else {
      at_.push_back(r.start), weight_.push_back(-c);
    }
    at_.push_back(r.end), weight_.push_back(c);
    if (complete_) continue;  // complete grids need only the weights
    if (joined) {
      unit_.back() -= 1, square_.back() -= c * c;
    } else {
      unit_.push_back(-1), square_.push_back(-c * c);
    }
    unit_.push_back(1), square_.push_back(c * c);
  }
  // Every element is written below: no zeroing first.
  h1_ = std::make_unique_for_overwrite<double[]>(m_ + 1);
  h1_[0] = 0;
  if (complete_) {  // squares from the runs (HostSquares): only a few are needed
    host_.reserve(host.size());
    host_squares_.reserve(host.size() + 1);
    double squares = 0;
    for (const CellRun& r : host) {
      const double c = r.value - mh;
      host_.push_back(CellRun{r.start, r.end, c});
      host_squares_.push_back(squares);
      squares += c * c * (r.end - r.start);
      FillLinear(h1_.get() + r.start, r.end - r.start, c);
    }
    host_squares_.push_back(squares);
    return;
  }
  h2_ = std::make_unique_for_overwrite<double[]>(m_ + 1);
  hn_ = std::make_unique_for_overwrite<double[]>(m_ + 1);
  h2_[0] = hn_[0] = 0;
  for (const CellRun& r : host) {
    const bool valid = !std::isnan(r.value);
    const double c = valid ? r.value - mh : 0;
    FillLinear(h1_.get() + r.start, r.end - r.start, c);
    FillLinear(h2_.get() + r.start, r.end - r.start, c * c);
    FillLinear(hn_.get() + r.start, r.end - r.start, valid ? 1 : 0);
  }
}

double LagCorrelator::HostSquares(int i) const {
  const auto r = std::partition_point(host_.begin(), host_.end(), [i](const CellRun& x) { return x.end <= i; });
  if (r == host_.end()) return host_squares_.back();
  const size_t k = r - host_.begin();
  return host_squares_[k] + r->value * r->value * std::max(0, i - r->start);
}

double LagCorrelator::At(int shift) const {
  const int lo = std::max(0, -shift), hi = std::min(n_, m_ - shift);
  if (hi - lo < 8) return kNaN;
  // Guest cells [a, b) meet host cells [a + shift, b + shift).
  double sg = 0, sgg = 0, sh = 0, shh = 0, sgh = 0, n = 0;
  auto run = std::partition_point(guest_.begin(), guest_.end(), [lo](const CellRun& r) { return r.end <= lo; });
  for (; run != guest_.end() && run->start < hi; ++run) {
    const int a = std::max(run->start, lo) + shift, b = std::min(run->end, hi) + shift;
    const double p1 = h1_[b] - h1_[a];
    const double cells = hn_ ? hn_[b] - hn_[a] : b - a;
    n += cells;
    sg += run->value * cells, sgg += run->value * run->value * cells;
    sh += p1, sgh += run->value * p1;
    if (h2_) shh += h2_[b] - h2_[a];
  }
  if (!h2_) shh = HostSquares(hi + shift) - HostSquares(lo + shift);
  return Pearson(n, sg, sgg, sh, shh, sgh);
}

void LagCorrelator::AtConsecutive(int first, int count, double* r) const {
  // Shifts that use every guest cell (0 <= shift <= m - n) share one pass over the guest's run
  // boundaries: per boundary, the lags' host prefix sums are adjacent, independent additions.
  const int lo = std::max(first, 0), hi = std::min(first + count, m_ - n_ + 1);
  for (int s = first; s < first + count; ++s)
    if (s < lo || s >= hi) r[s - first] = At(s);
  const int k = hi - lo;
  if (k <= 0) return;
  const double* h1 = h1_.get() + lo;
  if (complete_) {
    std::vector<double> sgh(k, 0.0);
    // Eight lags at a time in registers (two per vector: GCC/Clang vector extension), one load
    // and one multiply-add per point and lag pair.
    using V2 = double __attribute__((vector_size(16)));
    int j0 = 0;
    for (; j0 + 8 <= k; j0 += 8) {
      V2 acc[4] = {};
      for (size_t b = 0; b < at_.size(); ++b) {
        const double* p = h1 + at_[b] + j0;
        const V2 w = {weight_[b], weight_[b]};
        for (int q = 0; q < 4; ++q) {
          V2 x;
          std::memcpy(&x, p + 2 * q, sizeof x);
          acc[q] += w * x;
        }
      }
      for (int q = 0; q < 4; ++q) sgh[j0 + 2 * q] = acc[q][0], sgh[j0 + 2 * q + 1] = acc[q][1];
    }
    for (; j0 + 2 <= k; j0 += 2) {  // the rest two at a time, then one
      V2 acc = {};
      for (size_t b = 0; b < at_.size(); ++b) {
        const V2 w = {weight_[b], weight_[b]};
        V2 x;
        std::memcpy(&x, h1 + at_[b] + j0, sizeof x);
        acc += w * x;
      }
      sgh[j0] = acc[0], sgh[j0 + 1] = acc[1];
    }
    if (j0 < k) {
      double acc = 0;
      for (size_t b = 0; b < at_.size(); ++b) acc += weight_[b] * h1[at_[b] + j0];
      sgh[j0] = acc;
    }
    // Squares of the window [s, s + n): the first from the runs, then sliding by one cell.
    double shh = HostSquares(lo + n_) - HostSquares(lo);
    auto cell = [&](int i) { return h1[i - lo + 1] - h1[i - lo]; };  // centred host cell i
    for (int j = 0; j < k; ++j) {
      const int s = lo + j;
      if (j > 0) shh += cell(s + n_ - 1) * cell(s + n_ - 1) - cell(s - 1) * cell(s - 1);
      r[s - first] = Pearson(n_, g1_, g2_, h1[n_ + j] - h1[j], shh, sgh[j]);
    }
    return;
  }
  // Empty cells: every sum depends on the shift; two lags at a time, as above.
  using V2 = double __attribute__((vector_size(16)));
  const double* h2 = h2_.get() + lo;
  const double* hn = hn_.get() + lo;
  for (int j0 = 0; j0 < k; j0 += 2) {
    const int lanes = std::min(2, k - j0);
    V2 n = {}, sg = {}, sgg = {}, sh = {}, shh = {}, sgh2 = {};
    auto load = [lanes](const double* p) { return V2{p[0], lanes > 1 ? p[1] : 0.0}; };
    for (size_t b = 0; b < at_.size(); ++b) {
      const V2 x1 = load(h1 + at_[b] + j0), x2 = load(h2 + at_[b] + j0), xn = load(hn + at_[b] + j0);
      const V2 u = {unit_[b], unit_[b]}, w = {weight_[b], weight_[b]}, ww = {square_[b], square_[b]};
      n += u * xn, sg += w * xn, sgg += ww * xn;
      sh += u * x1, shh += u * x2, sgh2 += w * x1;
    }
    for (int q = 0; q < lanes; ++q) r[lo + j0 + q - first] = Pearson(n[q], sg[q], sgg[q], sh[q], shh[q], sgh2[q]);
  }
}

}  // namespace vrecon::models
