#include "models/clock_alignment.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <Eigen/Dense>

#include "models/alignment_grid.h"
#include "models/lag_correlation.h"

namespace vrecon::models {
namespace {

constexpr double kNoEstimate = std::numeric_limits<double>::quiet_NaN();
constexpr int kCoarse = 5;  // coarse search cells per fine cell group

// The memory of RangeOffset, kept across the ranges of a segment: the grids and correlators of
// one range are the size of the next one's.
struct RangeBuffers {
  std::vector<CellRun> guest, host, guest_coarse, host_coarse;
  LagCorrelator coarse, fine;
  std::vector<double> r;
};

// Coarse search: the coarse lag whose correlation is best, near the previous range's lag when
// there is one (the offset moves slowly), over every lag when that finds no inner peak; nullopt
// when even the best is under the minimum correlation.
std::optional<int> CoarseLag(int n, int lag_cells, const AlignmentConfig& cfg, std::optional<double> hint_s,
                             RangeBuffers* buf) {
  const int coarse_lags = lag_cells / kCoarse;
  CoarsenRuns(buf->guest, kCoarse, n, &buf->guest_coarse);
  CoarsenRuns(buf->host, kCoarse, n + 2 * lag_cells, &buf->host_coarse);
  LagCorrelator& coarse = buf->coarse;
  coarse.Reset(buf->guest_coarse, Stats(buf->guest_coarse), buf->host_coarse, Stats(buf->host_coarse));
  auto search = [&](int lo, int hi, int* best_lag) {
    double best = -2;
    const int from = std::max(lo, -coarse_lags), to = std::min(hi, coarse_lags);
    if (to < from) return best;
    std::vector<double>& r = buf->r;  // r[i]: shift coarse_lags - to + i, i.e. lag to - i
    r.resize(to - from + 1);
    coarse.AtConsecutive(coarse_lags - to, to - from + 1, r.data());
    for (int lag = from; lag <= to; ++lag)
      if (!std::isnan(r[to - lag]) && r[to - lag] > best) best = r[to - lag], *best_lag = lag;
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
  if (best < cfg.min_correlation) return std::nullopt;
  return best_lag;
}

// Fine search around the coarse peak (`centre`, in grid cells). A 15 s guest average against a
// 20 s host average gives a correlation with a flat top about 5 s wide, symmetric about the true
// lag: the lag is the middle of where the correlation crosses a level just under its top. A
// smooth load widens the top: the crossings are looked for up to 40 s from the coarse peak, and
// only when they are not there is the lag the top itself. Lags are correlated eight at a time as
// the search reaches them (usually 16-40 of the 81).
double FineOffset(const RunStats& gs, const RunStats& hs, int centre, int lag_cells, const AlignmentConfig& cfg,
                  RangeBuffers* buf) {
  constexpr int kSpan = 8 * kCoarse, kChunk = 8, kFirst = -kSpan - (kChunk - 1) / 2;
  LagCorrelator& fine_corr = buf->fine;
  fine_corr.Reset(buf->guest, gs, buf->host, hs);
  double fine[2 * kSpan + kChunk];
  bool known[(2 * kSpan + kChunk) / kChunk + 1] = {};
  auto at = [&](int d) {  // r at lag centre + d, |d| <= kSpan
    const int i = d - kFirst, c = i / kChunk;
    if (!known[c]) {
      double rs[kChunk];  // rs[j]: shift lag_cells - centre - (kFirst + c * kChunk) - (kChunk - 1) + j
      const int d0 = kFirst + c * kChunk;
      fine_corr.AtConsecutive(lag_cells - centre - d0 - (kChunk - 1), kChunk, rs);
      for (int j = 0; j < kChunk; ++j) {
        const int lag = centre + d0 + j;
        fine[c * kChunk + j] = lag < -lag_cells || lag > lag_cells ? kNoEstimate : rs[kChunk - 1 - j];
      }
      known[c] = true;
    }
    return fine[i];
  };
  int top = 0;
  double best = at(0);
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
  if (std::isnan(best) || best < cfg.min_correlation || peak <= -lag_cells || peak >= lag_cells) return kNoEstimate;
  const double level = best - 0.01 * best;
  int l = top, r = top;
  while (l > -kSpan && !std::isnan(at(l - 1)) && at(l - 1) >= level) --l;
  while (r < kSpan && !std::isnan(at(r + 1)) && at(r + 1) >= level) ++r;
  if (l == -kSpan || r == kSpan || std::isnan(at(l - 1)) || std::isnan(at(r + 1))) return peak * cfg.grid_s;
  const double xl = (l - 1) + (level - at(l - 1)) / (at(l) - at(l - 1));
  const double xr = r + (at(r) - level) / (at(r) - at(r + 1));
  return (centre + 0.5 * (xl + xr)) * cfg.grid_s;
}

// The guest-minus-host offset (seconds) that best matches the range [r0, r0 + len) of guest
// time, or NaN when the series are too flat, too sparse or do not correlate.
double RangeOffset(std::span<const TimedValue> guest, std::span<const TimedValue> host, bool guest_disjoint,
                   bool host_disjoint, TimeNs r0, TimeNs len, const AlignmentConfig& cfg, std::optional<double> hint_s,
                   RangeBuffers* buf) {
  const TimeNs g = std::max<TimeNs>(1, static_cast<TimeNs>(cfg.grid_s * kNsPerSec));
  const int lag_cells = static_cast<int>(std::ceil(cfg.max_lag_s / cfg.grid_s / kCoarse)) * kCoarse;
  const int n = static_cast<int>(len / g) / kCoarse * kCoarse;
  if (n < 8 * kCoarse) return kNoEstimate;
  OnGridRuns(guest, guest_disjoint, r0, g, n, &buf->guest);
  // Host cell j is host time r0 - lag + j*g; guest cell k at guest time t matches host time
  // t - offset, i.e. host cell k + lag_cells - offset/g.
  OnGridRuns(host, host_disjoint, r0 - g * lag_cells, g, n + 2 * lag_cells, &buf->host);
  const RunStats gs = Stats(buf->guest), hs = Stats(buf->host);  // also the fine correlator's means
  if (gs.StdDev() < cfg.min_stddev_pct || hs.StdDev() < cfg.min_stddev_pct) return kNoEstimate;
  const std::optional<int> coarse_lag = CoarseLag(n, lag_cells, cfg, hint_s, buf);
  if (!coarse_lag) return kNoEstimate;
  return FineOffset(gs, hs, *coarse_lag * kCoarse, lag_cells, cfg, buf);
}

struct OffsetPoint {
  double t;       // seconds since the segment start (guest time)
  double offset;  // seconds
};

// Least squares offset = a + b*t (Eigen), dropping points far off the first fit once.
bool FitLine(std::vector<OffsetPoint> pts, double* a, double* b) {
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
    res.reserve(pts.size());
    for (const OffsetPoint& p : pts) res.push_back(std::abs(p.offset - (*a + *b * p.t)));
    std::vector<double> sorted = res;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double limit = std::max(2.0, 4 * sorted[sorted.size() / 2]);
    std::vector<OffsetPoint> kept;
    for (size_t i = 0; i < pts.size(); ++i)
      if (res[i] <= limit) kept.push_back(pts[i]);
    if (kept.size() == pts.size() || kept.empty()) break;
    pts = std::move(kept);
  }
  // Keep the drift only where the ranges show it: a slope within three standard errors of zero
  // (or from two points) would only extrapolate the noise of the per-range lags to the ends.
  const double n = static_cast<double>(pts.size());
  double mt = 0, mo = 0;
  for (const OffsetPoint& p : pts) mt += p.t / n, mo += p.offset / n;
  double stt = 0, sres = 0;
  for (const OffsetPoint& p : pts) {
    stt += (p.t - mt) * (p.t - mt);
    sres += std::pow(p.offset - (*a + *b * p.t), 2);
  }
  const double se_b = pts.size() > 2 && stt > 0 ? std::sqrt(sres / (n - 2) / stt) : INFINITY;
  // Equal lags leave rounding noise (1e-13 ppm) with a near-zero standard error; a drift that
  // moves the offset by under 1 ms across the ranges is no drift (and keeps the shift constant).
  const auto [t_lo, t_hi] =
      std::minmax_element(pts.begin(), pts.end(), [](const OffsetPoint& p, const OffsetPoint& q) { return p.t < q.t; });
  if (!(std::abs(*b) > 3 * se_b) || std::abs(*b) * (t_hi->t - t_lo->t) < 1e-3) *a = mo, *b = 0;
  return true;
}

const ClockSegment* FindSegment(const ClockModel& m, TimeNs guest) {
  if (m.segments.empty()) return nullptr;
  auto it = std::upper_bound(m.segments.begin(), m.segments.end(), guest,
                             [](TimeNs t, const ClockSegment& s) { return t < s.guest_from; });
  if (it != m.segments.begin()) --it;  // before the first segment: the first one extends back
  return &*it;
}

// The parts of ranges without an offset that no range with one overlaps.
std::vector<std::pair<TimeNs, TimeNs>> BlindSpans(const std::vector<RangeEstimate>& ranges) {
  std::vector<std::pair<TimeNs, TimeNs>> out;
  for (const RangeEstimate& e : ranges) {
    if (e.offset_s) continue;
    TimeNs from = e.from, to = e.to;
    for (const RangeEstimate& o : ranges) {
      if (!o.offset_s || o.to <= from || o.from >= to) continue;
      if (o.from <= from) from = std::max(from, o.to);
      if (o.to >= to) to = std::min(to, o.from);
    }
    if (from < to) out.emplace_back(from, to);
  }
  return out;
}

}  // namespace

TimeNs ClockModel::ToHost(TimeNs guest) const {
  // Called for every guest sample: one segment (the common case) skips the search.
  const ClockSegment* s = segments.size() == 1 ? segments.data() : FindSegment(*this, guest);
  if (!s || !s->estimated) return guest;
  const double off = s->offset_s + s->drift_ppm * 1e-6 * ToSeconds(guest - s->guest_from);
  // std::llround (half away from zero) without its libm call: x - trunc(x) is exact here.
  const double x = off * kNsPerSec;
  TimeNs r = static_cast<TimeNs>(x);
  if (const double f = x - static_cast<double>(r); f >= 0.5) {
    ++r;
  } else if (f <= -0.5) {
    --r;
  }
  return guest - r;
}

std::optional<double> ClockModel::OffsetAt(TimeNs guest) const {
  const ClockSegment* s = FindSegment(*this, guest);
  if (!s || !s->estimated) return std::nullopt;
  return s->offset_s + s->drift_ppm * 1e-6 * ToSeconds(guest - s->guest_from);
}

double ClockModel::ResidualAt(TimeNs guest) const {
  const ClockSegment* s = FindSegment(*this, guest);
  if (s == nullptr) return 0;
  for (const auto& [from, to] : s->blind)
    if (guest >= from && guest < to) return std::max(s->residual_s, s->blind_shift_s);
  return s->residual_s;
}

std::vector<RangeEstimate> RangeOffsets(std::span<const TimedValue> guest, std::span<const TimedValue> host,
                                        TimeNs from, TimeNs to, const AlignmentConfig& cfg) {
  std::vector<RangeEstimate> out;
  const TimeNs len = static_cast<TimeNs>(cfg.range_s * kNsPerSec);
  const TimeNs step = static_cast<TimeNs>(cfg.range_step_s * kNsPerSec);
  const TimeNs min_len = static_cast<TimeNs>(cfg.min_range_s * kNsPerSec);
  if (to - from < min_len) return out;
  std::optional<double> hint;  // the last range's lag
  const bool guest_disjoint = Disjoint(guest), host_disjoint = Disjoint(host);
  RangeBuffers buf;
  auto add = [&](TimeNs r0, TimeNs r1) {
    const double off = RangeOffset(guest, host, guest_disjoint, host_disjoint, r0, r1 - r0, cfg, hint, &buf);
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
    std::vector<OffsetPoint> pts;
    for (const RangeEstimate& e : r)
      if (e.offset_s) pts.push_back(OffsetPoint{ToSeconds((e.from + e.to) / 2 - seg.guest_from), *e.offset_s});
    double a = 0, b = 0;
    if (FitLine(pts, &a, &b)) {
      seg.offset_s = a;
      seg.drift_ppm = b * 1e6;
      seg.estimated = true;
      for (const OffsetPoint& p : pts) seg.residual_s = std::max(seg.residual_s, std::abs(p.offset - (a + b * p.t)));
      seg.blind = BlindSpans(r);
      seg.blind_shift_s = cfg.max_lag_s;
    }
    if (ranges) ranges->insert(ranges->end(), r.begin(), r.end());
    m.segments.push_back(seg);
  }
  return m;
}

std::optional<TimeNs> MedianSampleLength(const std::vector<TimedValue>& samples) {
  std::vector<TimeNs> lengths;
  lengths.reserve(samples.size());
  for (const TimedValue& x : samples)
    if (x.end > x.start) lengths.push_back(x.end - x.start);
  if (lengths.empty()) return std::nullopt;
  std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
  return lengths[lengths.size() / 2];
}

}  // namespace vrecon::models
