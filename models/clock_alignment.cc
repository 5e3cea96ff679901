#include "models/clock_alignment.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Dense>

namespace vrecon::models {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kCoarse = 5;  // coarse search cells per fine cell group

double Seconds(TimeNs t) { return static_cast<double>(t) / kNsPerSec; }

// The overlap-weighted mean of `samples` on cells [t0 + k*g, t0 + (k+1)*g), k < n; a cell with
// less than half its length covered is NaN. Overlapping samples (several VPs) are averaged.
std::vector<double> OnGrid(std::span<const TimedValue> samples, TimeNs t0, TimeNs g, int n) {
  std::vector<double> sum(n, 0), cov(n, 0);
  const TimeNs t1 = t0 + g * n;
  const double gs = Seconds(g);
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
      const double w = hi - lo == g ? gs : Seconds(hi - lo);  // a whole cell: no division
      sum[k] += it->value * w;
      cov[k] += w;
    }
  }
  std::vector<double> out(n, kNaN);
  const double half = Seconds(g) / 2;
  for (int k = 0; k < n; ++k)
    if (cov[k] >= half) out[k] = cov[k] == 1.0 ? sum[k] : sum[k] / cov[k];  // x / 1 is x: skip the division
  return out;
}

// Averages groups of `f` cells; a group needs more than half its cells valid.
std::vector<double> Downsample(const std::vector<double>& v, int f) {
  std::vector<double> out(v.size() / f, kNaN);
  for (size_t i = 0; i < out.size(); ++i) {
    double s = 0;
    int n = 0;
    for (int j = 0; j < f; ++j) {
      const double x = v[i * f + j];
      if (!std::isnan(x)) s += x, ++n;
    }
    if (2 * n > f) out[i] = s / n;
  }
  return out;
}

// Pearson correlation of guest[k] with host[k + shift] over cells where both are valid.
double Correlate(const std::vector<double>& guest, const std::vector<double>& host, int shift, int* used) {
  double sg = 0, sh = 0, sgg = 0, shh = 0, sgh = 0;
  int n = 0;
  const int lo = std::max(0, -shift), hi = std::min<int>(guest.size(), static_cast<int>(host.size()) - shift);
  for (int k = lo; k < hi; ++k) {
    const double g = guest[k], h = host[k + shift];
    if (std::isnan(g) || std::isnan(h)) continue;
    sg += g, sh += h, sgg += g * g, shh += h * h, sgh += g * h;
    ++n;
  }
  *used = n;
  if (n < 8) return kNaN;
  const double vg = sgg - sg * sg / n, vh = shh - sh * sh / n;
  if (vg <= 1e-12 || vh <= 1e-12) return kNaN;
  return (sgh - sg * sh / n) / std::sqrt(vg * vh);
}

// Correlate for kBatch shifts at once, into r[j]; bit-identical to kBatch Correlate calls.
// When neither series has an empty cell (`complete`, the usual case) every shift uses every cell
// of the same range, so the guest's sums are the same for all shifts (computed once, same values
// in the same order) and the shifts' sums are added in one pass without branches, overlapping in
// the pipeline instead of each waiting on its own additions.
constexpr int kBatch = 6;
void CorrelateBatch(const std::vector<double>& guest, const std::vector<double>& host, bool complete,
                    const int* shift, double* r) {
  int lo = 0, hi = 0;
  for (int j = 0; j < kBatch && complete; ++j) {
    const int l = std::max(0, -shift[j]), h = std::min<int>(guest.size(), static_cast<int>(host.size()) - shift[j]);
    if (j == 0) lo = l, hi = h;
    complete = l == lo && h == hi;
  }
  if (!complete) {
    int used = 0;
    for (int j = 0; j < kBatch; ++j) r[j] = Correlate(guest, host, shift[j], &used);
    return;
  }
  // Two shifts per vector (GCC/Clang vector extension): each lane is one shift's sum, added
  // lane-wise in IEEE double exactly as the scalar code adds it.
  using V2 = double __attribute__((vector_size(16)));
  static_assert(kBatch == 6);
  double sg = 0, sgg = 0;
  V2 sh0 = {}, shh0 = {}, sgh0 = {}, sh1 = {}, shh1 = {}, sgh1 = {}, sh2 = {}, shh2 = {}, sgh2 = {};
  const double* h = host.data();
  for (int k = lo; k < hi; ++k) {
    const double g = guest[k];
    const V2 gv = {g, g};
    sg += g, sgg += g * g;
    const V2 a = {h[k + shift[0]], h[k + shift[1]]}, b = {h[k + shift[2]], h[k + shift[3]]},
             c = {h[k + shift[4]], h[k + shift[5]]};
    sh0 += a, shh0 += a * a, sgh0 += gv * a;
    sh1 += b, shh1 += b * b, sgh1 += gv * b;
    sh2 += c, shh2 += c * c, sgh2 += gv * c;
  }
  const int n = hi - lo;
  const V2* sums[3][3] = {{&sh0, &shh0, &sgh0}, {&sh1, &shh1, &sgh1}, {&sh2, &shh2, &sgh2}};
  for (int j = 0; j < kBatch; ++j) {  // Correlate's closing arithmetic
    const double sh = (*sums[j / 2][0])[j % 2], shh = (*sums[j / 2][1])[j % 2], sgh = (*sums[j / 2][2])[j % 2];
    r[j] = kNaN;
    if (n < 8) continue;
    const double vg = sgg - sg * sg / n, vh = shh - sh * sh / n;
    if (vg <= 1e-12 || vh <= 1e-12) continue;
    r[j] = (sgh - sg * sh / n) / std::sqrt(vg * vh);
  }
}

bool Complete(const std::vector<double>& v) {
  return std::none_of(v.begin(), v.end(), [](double x) { return std::isnan(x); });
}

double StdDev(const std::vector<double>& v) {
  double s = 0, ss = 0;
  int n = 0;
  for (double x : v)
    if (!std::isnan(x)) s += x, ss += x * x, ++n;
  if (n < 2) return 0;
  return std::sqrt(std::max(0.0, (ss - s * s / n) / (n - 1)));
}

// The guest-minus-host offset (seconds) that best matches the range [r0, r0 + len) of guest
// time, or NaN when the series are too flat, too sparse or do not correlate.
double RangeOffset(std::span<const TimedValue> guest, std::span<const TimedValue> host, TimeNs r0, TimeNs len,
                   const AlignmentConfig& cfg, std::optional<double> hint_s) {
  const TimeNs g = std::max<TimeNs>(1, static_cast<TimeNs>(cfg.grid_s * kNsPerSec));
  const int lag_cells = static_cast<int>(std::ceil(cfg.max_lag_s / cfg.grid_s / kCoarse)) * kCoarse;
  const int n = static_cast<int>(len / g) / kCoarse * kCoarse;
  if (n < 8 * kCoarse) return kNaN;
  const std::vector<double> gv = OnGrid(guest, r0, g, n);
  // Host cell j is host time r0 - lag + j*g; guest cell k at guest time t matches host time
  // t - offset, i.e. host cell k + lag_cells - offset/g.
  const std::vector<double> hv = OnGrid(host, r0 - g * lag_cells, g, n + 2 * lag_cells);
  if (StdDev(gv) < cfg.min_stddev_pct || StdDev(hv) < cfg.min_stddev_pct) return kNaN;

  // Coarse search: near the previous range's lag when there is one (the offset moves slowly),
  // over every lag when that finds no inner peak.
  const std::vector<double> gc = Downsample(gv, kCoarse), hc = Downsample(hv, kCoarse);
  const int coarse_lags = lag_cells / kCoarse;
  const bool coarse_complete = Complete(gc) && Complete(hc);
  bool fine_complete = false, fine_checked = false;  // checked when the fine search starts
  auto search = [&](int lo, int hi, int* best_lag) {
    double best = -2;
    const int from = std::max(lo, -coarse_lags), to = std::min(hi, coarse_lags);
    for (int lag0 = from; lag0 <= to; lag0 += kBatch) {
      int shifts[kBatch];
      double rs[kBatch];
      for (int j = 0; j < kBatch; ++j) shifts[j] = coarse_lags - std::min(lag0 + j, to);  // past `to`: repeats it
      CorrelateBatch(gc, hc, coarse_complete, shifts, rs);
      for (int j = 0; j < kBatch && lag0 + j <= to; ++j)
        if (!std::isnan(rs[j]) && rs[j] > best) best = rs[j], *best_lag = lag0 + j;
    }
    return best;
  };
  int best_lag = 0;
  double best = -2;
  if (hint_s) {
    const int h = static_cast<int>(std::lround(*hint_s / cfg.grid_s / kCoarse));
    best = search(h - 3, h + 3, &best_lag);
    if (std::abs(best_lag - h) == 3 || best < cfg.min_correlation) best = -2;
  }
  if (best == -2) best = search(-coarse_lags, coarse_lags, &best_lag);
  if (best < cfg.min_correlation) return kNaN;

  // Fine search around the coarse peak, evaluated lazily. A 15 s guest average against a 20 s
  // host average gives a correlation with a flat top about 5 s wide, symmetric about the true
  // lag: the lag is the middle of where the correlation crosses a level just under its top.
  const int centre = best_lag * kCoarse;
  constexpr int kSpan = 2 * kCoarse;
  double fine[2 * kSpan + 1];
  bool done[2 * kSpan + 1] = {};
  auto at = [&](int d) {
    if (!done[d + kSpan]) {  // the kBatch lags from d's group of the fine lags at once
      if (!fine_checked) fine_complete = Complete(gv) && Complete(hv), fine_checked = true;
      const int first = (d + kSpan) / kBatch * kBatch - kSpan;
      const int last = std::min(first + kBatch - 1, kSpan);
      int shifts[kBatch];
      double rs[kBatch];
      for (int j = 0; j < kBatch; ++j) {
        const int lag = centre + std::min(first + j, last);
        shifts[j] = lag_cells - std::clamp(lag, -lag_cells, lag_cells);  // out of range: NaN below
      }
      CorrelateBatch(gv, hv, fine_complete, shifts, rs);
      for (int dd = first; dd <= last; ++dd) {
        const int lag = centre + dd;
        fine[dd + kSpan] = lag < -lag_cells || lag > lag_cells ? kNaN : rs[dd - first];
        done[dd + kSpan] = true;
      }
    }
    return fine[d + kSpan];
  };
  int top = 0;
  best = at(0);
  for (bool moved = true; moved && !std::isnan(best);) {  // climb to the nearest maximum
    moved = false;
    for (int step : {-1, 1}) {
      const int d = top + step;
      if (std::abs(d) <= kSpan && !std::isnan(at(d)) && at(d) > best) {
        best = at(d), top = d, moved = true;
        break;
      }
    }
  }
  const int peak = centre + top;
  // A peak at the edge of the searched lags is not a peak: the true lag may lie beyond.
  if (std::isnan(best) || best < cfg.min_correlation || peak <= -lag_cells || peak >= lag_cells) return kNaN;
  const double level = best - 0.01 * best;
  int l = top, r = top;
  while (l > -kSpan && !std::isnan(at(l - 1)) && at(l - 1) >= level) --l;
  while (r < kSpan && !std::isnan(at(r + 1)) && at(r + 1) >= level) ++r;
  if (l == -kSpan || r == kSpan || std::isnan(at(l - 1)) || std::isnan(at(r + 1))) return peak * cfg.grid_s;
  const double xl = (l - 1) + (level - at(l - 1)) / (at(l) - at(l - 1));
  const double xr = r + (at(r) - level) / (at(r) - at(r + 1));
  return (centre + 0.5 * (xl + xr)) * cfg.grid_s;
}

struct Point {
  double t;       // seconds since the segment start (guest time)
  double offset;  // seconds
};

// Least squares offset = a + b*t (Eigen), dropping points far off the first fit once.
bool FitLine(std::vector<Point> pts, double* a, double* b) {
  if (pts.empty()) return false;
  for (int pass = 0; pass < 2; ++pass) {
    if (pts.size() == 1) {
      *a = pts[0].offset, *b = 0;
      return true;
    }
    Eigen::MatrixXd x(pts.size(), 2);
    Eigen::VectorXd y(pts.size());
    for (size_t i = 0; i < pts.size(); ++i) x(i, 0) = 1, x(i, 1) = pts[i].t, y(i) = pts[i].offset;
    const Eigen::Vector2d c = x.colPivHouseholderQr().solve(y);
    *a = c(0), *b = c(1);
    if (pass == 1) break;
    std::vector<double> res;
    for (const Point& p : pts) res.push_back(std::abs(p.offset - (*a + *b * p.t)));
    std::vector<double> sorted = res;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double limit = std::max(2.0, 4 * sorted[sorted.size() / 2]);
    std::vector<Point> kept;
    for (size_t i = 0; i < pts.size(); ++i)
      if (res[i] <= limit) kept.push_back(pts[i]);
    if (kept.size() == pts.size() || kept.empty()) break;
    pts = std::move(kept);
  }
  // Keep the drift only where the ranges show it: a slope within three standard errors of zero
  // (or from two points) would only extrapolate the noise of the per-range lags to the ends.
  const double n = static_cast<double>(pts.size());
  double mt = 0, mo = 0;
  for (const Point& p : pts) mt += p.t / n, mo += p.offset / n;
  double stt = 0, sres = 0;
  for (const Point& p : pts) {
    stt += (p.t - mt) * (p.t - mt);
    sres += std::pow(p.offset - (*a + *b * p.t), 2);
  }
  const double se_b = pts.size() > 2 && stt > 0 ? std::sqrt(sres / (n - 2) / stt) : INFINITY;
  if (!(std::abs(*b) > 3 * se_b)) *a = mo, *b = 0;
  return true;
}

const ClockSegment* FindSegment(const ClockModel& m, TimeNs guest) {
  if (m.segments.empty()) return nullptr;
  auto it = std::upper_bound(m.segments.begin(), m.segments.end(), guest,
                             [](TimeNs t, const ClockSegment& s) { return t < s.guest_from; });
  if (it != m.segments.begin()) --it;  // before the first segment: the first one extends back
  return &*it;
}

}  // namespace

TimeNs ClockModel::ToHost(TimeNs guest) const {
  // Called for every guest sample: one segment (the common case) skips the search.
  const ClockSegment* s = segments.size() == 1 ? &segments[0] : FindSegment(*this, guest);
  if (!s || !s->estimated) return guest;
  const double off = s->offset_s + s->drift_ppm * 1e-6 * Seconds(guest - s->guest_from);
  return guest - static_cast<TimeNs>(std::llround(off * kNsPerSec));
}

std::optional<double> ClockModel::OffsetAt(TimeNs guest) const {
  const ClockSegment* s = FindSegment(*this, guest);
  if (!s || !s->estimated) return std::nullopt;
  return s->offset_s + s->drift_ppm * 1e-6 * Seconds(guest - s->guest_from);
}

std::vector<RangeEstimate> RangeOffsets(std::span<const TimedValue> guest, std::span<const TimedValue> host,
                                        TimeNs from, TimeNs to, const AlignmentConfig& cfg) {
  std::vector<RangeEstimate> out;
  const TimeNs len = static_cast<TimeNs>(cfg.range_s * kNsPerSec);
  const TimeNs step = static_cast<TimeNs>(cfg.range_step_s * kNsPerSec);
  const TimeNs min_len = static_cast<TimeNs>(cfg.min_range_s * kNsPerSec);
  if (to - from < min_len) return out;
  std::optional<double> hint;  // the last range's lag
  auto add = [&](TimeNs r0, TimeNs r1) {
    const double off = RangeOffset(guest, host, r0, r1 - r0, cfg, hint);
    if (!std::isnan(off)) hint = off;
    out.push_back(RangeEstimate{r0, r1, std::isnan(off) ? std::nullopt : std::optional<double>(off)});
  };
  if (to - from <= len) {
    add(from, to);
    return out;
  }
  for (TimeNs r0 = from; r0 < to; r0 += step) {
    TimeNs r1 = std::min(to, r0 + len);
    if (r1 - r0 < len) {  // the last range ends at the segment's end, full length
      add(std::max(from, to - len), to);
      break;
    }
    add(r0, r1);
  }
  return out;
}

ClockModel EstimateClock(std::span<const TimedValue> guest, std::span<const TimedValue> host,
                         std::span<const TimeNs> steps, const AlignmentConfig& cfg,
                         std::vector<RangeEstimate>* ranges) {
  ClockModel m;
  if (guest.empty()) return m;
  TimeNs g0 = guest.front().start, g1 = guest.front().end;
  for (const TimedValue& s : guest) g0 = std::min(g0, s.start), g1 = std::max(g1, s.end);
  std::vector<TimeNs> cuts;
  for (TimeNs t : steps)
    if (t > g0 && t < g1) cuts.push_back(t);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  cuts.insert(cuts.begin(), g0);
  cuts.push_back(g1);
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    ClockSegment seg;
    seg.guest_from = cuts[i];
    seg.guest_to = cuts[i + 1];
    std::vector<RangeEstimate> r = RangeOffsets(guest, host, seg.guest_from, seg.guest_to, cfg);
    std::vector<Point> pts;
    for (const RangeEstimate& e : r)
      if (e.offset_s) pts.push_back(Point{Seconds((e.from + e.to) / 2 - seg.guest_from), *e.offset_s});
    double a = 0, b = 0;
    if (FitLine(pts, &a, &b)) {
      seg.offset_s = a;
      seg.drift_ppm = b * 1e6;
      seg.estimated = true;
    }
    if (ranges) ranges->insert(ranges->end(), r.begin(), r.end());
    m.segments.push_back(seg);
  }
  return m;
}

}  // namespace vrecon::models
