#include "models/lag_correlation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>

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

using V2 = double __attribute__((vector_size(16)));  // GCC/Clang vector extension

// Host prefix sums are read past cell m by the lanes AtConsecutive drops (up to 7) and written
// past it by FillLinear (up to 3).
constexpr int kPad = 8;

// p[j] = p[0] + j * c for j in 1..len: linear inside a run, no chain of additions; four at a
// time (runs are 15-20 cells, too short for the auto-vectorizer). Writes up to p[len + 3]: the
// next run's fill, or the padding, takes what is past len.
void FillLinear(double* p, int len, double c) {
  const double base = p[0];
  const V2 b = {base, base}, cv = {c, c}, two = {2, 2}, four = {4, 4};
  V2 j2 = {1, 2};
  for (int j = 1; j <= len; j += 4, j2 += four) {
    const V2 x = b + j2 * cv, y = b + (j2 + two) * cv;
    std::memcpy(p + j, &x, sizeof x);
    std::memcpy(p + j + 2, &y, sizeof y);
  }
}

}  // namespace

LagCorrelator::LagCorrelator(const std::vector<CellRun>& guest, const std::vector<CellRun>& host) {
  Reset(guest, Stats(guest), host, Stats(host));
}

void LagCorrelator::Reset(const std::vector<CellRun>& guest, const RunStats& guest_stats,
                          const std::vector<CellRun>& host, const RunStats& host_stats) {
  n_ = guest.empty() ? 0 : guest.back().end;
  m_ = host.empty() ? 0 : host.back().end;
  const double mg = guest_stats.Mean(), mh = host_stats.Mean();
  complete_ = guest_stats.complete && host_stats.complete;
  g1_ = g2_ = 0;
  CellRun* centred = guest_.Fit(guest.size());
  size_t runs = 0;
  const size_t most = 2 * guest.size();  // a run adds at most two boundaries
  int* at = at_.Fit(most);
  double* weight = weight_.Fit(most);
  double* unit = complete_ ? nullptr : unit_.Fit(most);
  double* square = complete_ ? nullptr : square_.Fit(most);
  size_t nb = 0;
  for (const CellRun& r : guest) {
    if (std::isnan(r.value)) continue;
    const double c = r.value - mg, len = r.end - r.start;
    centred[runs++] = CellRun{r.start, r.end, c};
    g1_ += c * len, g2_ += c * c * len;
    const bool joined = nb > 0 && at[nb - 1] == r.start;
    if (joined) {
      weight[nb - 1] -= c;
    } else {
      at[nb] = r.start, weight[nb] = -c;
    }
    at[nb + !joined] = r.end, weight[nb + !joined] = c;
    if (!complete_) {  // complete grids need only the weights
      if (joined) {
        unit[nb - 1] -= 1, square[nb - 1] -= c * c;
      } else {
        unit[nb] = -1, square[nb] = -c * c;
      }
      unit[nb + !joined] = 1, square[nb + !joined] = c * c;
    }
    nb += joined ? 1 : 2;
  }
  guest_runs_ = runs;
  boundaries_ = nb;
  const size_t cells = static_cast<size_t>(m_) + 1;
  double* h1 = h1_.Fit(cells + kPad);
  h1[0] = 0;
  if (complete_) {  // squares from the runs (HostSquares): only a few are needed
    CellRun* centred_host = host_.Fit(host.size());
    double* squares_before = host_squares_.Fit(host.size() + 1);
    host_runs_ = host.size();
    double squares = 0;
    for (size_t i = 0; i < host.size(); ++i) {
      const CellRun& r = host[i];
      const double c = r.value - mh;
      centred_host[i] = CellRun{r.start, r.end, c};
      squares_before[i] = squares;
      squares += c * c * (r.end - r.start);
      FillLinear(h1 + r.start, r.end - r.start, c);
    }
    squares_before[host.size()] = squares;
    std::fill_n(h1 + cells, kPad, 0.0);
    return;
  }
  double *h2 = h2_.Fit(cells + kPad), *hn = hn_.Fit(cells + kPad);
  h2[0] = hn[0] = 0;
  for (const CellRun& r : host) {
    const bool valid = !std::isnan(r.value);
    const double c = valid ? r.value - mh : 0;
    FillLinear(h1 + r.start, r.end - r.start, c);
    FillLinear(h2 + r.start, r.end - r.start, c * c);
    FillLinear(hn + r.start, r.end - r.start, valid ? 1 : 0);
  }
  for (double* h : {h1, h2, hn}) std::fill_n(h + cells, kPad, 0.0);
}

double LagCorrelator::HostSquares(int i) const {
  const std::span<const CellRun> host(host_.data(), host_runs_);
  const auto r = std::partition_point(host.begin(), host.end(), [i](const CellRun& x) { return x.end <= i; });
  const double before = host_squares_.data()[r - host.begin()];  // the total past the last run
  if (r == host.end()) return before;
  return before + r->value * r->value * std::max(0, i - r->start);
}

double LagCorrelator::At(int shift) const {
  const int lo = std::max(0, -shift), hi = std::min(n_, m_ - shift);
  if (hi - lo < 8) return kNaN;
  // Guest cells [a, b) meet host cells [a + shift, b + shift).
  double sg = 0, sgg = 0, sh = 0, shh = 0, sgh = 0, n = 0;
  const double *h1 = h1_.data(), *h2 = h2_.data(), *hn = hn_.data();
  const std::span<const CellRun> guest(guest_.data(), guest_runs_);
  auto run = std::partition_point(guest.begin(), guest.end(), [lo](const CellRun& r) { return r.end <= lo; });
  for (; run != guest.end() && run->start < hi; ++run) {
    const int a = std::max(run->start, lo) + shift, b = std::min(run->end, hi) + shift;
    const double p1 = h1[b] - h1[a];
    const double cells = complete_ ? b - a : hn[b] - hn[a];
    n += cells;
    sg += run->value * cells, sgg += run->value * run->value * cells;
    sh += p1, sgh += run->value * p1;
    if (!complete_) shh += h2[b] - h2[a];
  }
  if (complete_) shh = HostSquares(hi + shift) - HostSquares(lo + shift);
  return Pearson(n, sg, sgg, sh, shh, sgh);
}

// 2 kPairs lags at a time in registers (two per vector), one load and one multiply-add per point
// and lag pair. Each lag's sum adds the same products in the same order whatever the blocking.
template <int kPairs>
void LagCorrelator::CrossSums(const double* h1, double* sgh) const {
  V2 acc[kPairs] = {};
  const int* at = at_.data();
  const double* weight = weight_.data();
#pragma GCC unroll 2
  for (size_t b = 0; b < boundaries_; ++b) {
    const double* p = h1 + at[b];
    const V2 w = {weight[b], weight[b]};
    for (int q = 0; q < kPairs; ++q) {
      V2 x;
      std::memcpy(&x, p + 2 * q, sizeof x);
      acc[q] += w * x;
    }
  }
  for (int q = 0; q < kPairs; ++q) sgh[2 * q] = acc[q][0], sgh[2 * q + 1] = acc[q][1];
}

void LagCorrelator::AtConsecutive(int first, int count, double* r) const {
  // Shifts that use every guest cell (0 <= shift <= m - n) share one pass over the guest's run
  // boundaries: per boundary, the lags' host prefix sums are adjacent, independent additions.
  const int lo = std::max(first, 0), hi = std::min(first + count, m_ - n_ + 1);
  for (int s = first; s < first + count; ++s)
    if (s < lo || s >= hi) r[s - first] = At(s);
  const int k = hi - lo;
  if (k <= 0) return;
  if (!complete_) {  // every sum depends on the shift: four lags a pass, then two
    const double *h1 = h1_.data() + lo, *h2 = h2_.data() + lo, *hn = hn_.data() + lo;
    int j0 = 0;
    for (; j0 + 2 < k; j0 += 4) SumsWithEmptyCells<2>(j0, std::min(4, k - j0), h1, h2, hn, r + lo + j0 - first);
    if (j0 < k) SumsWithEmptyCells<1>(j0, k - j0, h1, h2, hn, r + lo + j0 - first);
    return;
  }
  const double* h1 = h1_.data() + lo;
  // Squares of the window [s, s + n): the first from the runs, then sliding by one cell.
  double shh = HostSquares(lo + n_) - HostSquares(lo);
  auto cell = [&](int i) { return h1[i - lo + 1] - h1[i - lo]; };  // centred host cell i
  // Sixteen lags a pass; the last pass rounds its lags up to 2, 4 or 8 (the lanes past k read
  // the padding and are dropped).
  double sgh[16];
  for (int j0 = 0; j0 < k; j0 += 16) {
    const int lanes = std::min(16, k - j0);
    if (lanes > 8) {
      CrossSums<8>(h1 + j0, sgh);
    } else if (lanes > 4) {
      CrossSums<4>(h1 + j0, sgh);
    } else if (lanes > 2) {
      CrossSums<2>(h1 + j0, sgh);
    } else {
      CrossSums<1>(h1 + j0, sgh);
    }
    for (int j = j0; j < j0 + lanes; ++j) {
      const int s = lo + j;
      if (j > 0) shh += cell(s + n_ - 1) * cell(s + n_ - 1) - cell(s - 1) * cell(s - 1);
      r[s - first] = Pearson(n_, g1_, g2_, h1[n_ + j] - h1[j], shh, sgh[j - j0]);
    }
  }
}

// The six sums of 2 kPairs lags from j0 at once, as CrossSums; r[q] for lag j0 + q, q < lanes
// (the lanes past that read the padding and are dropped).
template <int kPairs>
void LagCorrelator::SumsWithEmptyCells(int j0, int lanes, const double* h1, const double* h2, const double* hn,
                                       double* r) const {
  V2 n[kPairs] = {}, sg[kPairs] = {}, sgg[kPairs] = {}, sh[kPairs] = {}, shh[kPairs] = {}, sgh[kPairs] = {};
  const int* at = at_.data();
  const double *weight = weight_.data(), *unit = unit_.data(), *square = square_.data();
  for (size_t b = 0; b < boundaries_; ++b) {
    const int i = at[b] + j0;
    const V2 u = {unit[b], unit[b]}, w = {weight[b], weight[b]}, ww = {square[b], square[b]};
    for (int q = 0; q < kPairs; ++q) {
      V2 x1, x2, xn;
      std::memcpy(&x1, h1 + i + 2 * q, sizeof x1);
      std::memcpy(&x2, h2 + i + 2 * q, sizeof x2);
      std::memcpy(&xn, hn + i + 2 * q, sizeof xn);
      n[q] += u * xn, sg[q] += w * xn, sgg[q] += ww * xn;
      sh[q] += u * x1, shh[q] += u * x2, sgh[q] += w * x1;
    }
  }
  for (int j = 0; j < lanes; ++j) {
    const int q = j / 2, l = j % 2;
    r[j] = Pearson(n[q][l], sg[q][l], sgg[q][l], sh[q][l], shh[q][l], sgh[q][l]);
  }
}

}  // namespace vrecon::models
