#include "models/capacity_fit.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "models/capacity_forecast.h"

namespace vrecon::models::capacity {

DesignRow Spec::Base(int weekday, bool after_step) const {
  DesignRow v = DesignRow::Zero(Columns());
  int c = 0;
  v[c++] = 1;
  if (trend) ++c;
  if (weekly) {
    for (int k = 1; k <= 6; ++k) v[c + k - 1] = weekday == k ? 1.0 : (weekday == 0 ? -1.0 : 0.0);
    c += 6;
  }
  if (step) v[c] = after_step ? 1.0 : 0.0;
  return v;
}

DesignRow Spec::Row(int64_t day) const {
  DesignRow v = Base(WeekdayOf(day), step && day >= *step);
  if (trend) v[TrendColumn()] = static_cast<double>(day - as_of);
  return v;
}

DesignRow Spec::LevelRow(int64_t day) const {
  DesignRow v = Row(day);
  if (weekly) v.segment(trend ? 2 : 1, 6).setZero();
  return v;
}

namespace {

double Inflation(double rho) { return (1 + rho) / (1 - rho); }

// Sums over the days of one weekday on one side of the step, whose rows are u + t v (u the
// group's base, v the trend's column): X'AX over them is a u u' + b (u v' + v u') + c v v', with
// a, b, c the sums of a day's factor times 1, t and t^2. A fit then costs a few additions a day,
// not a 9 x 9 outer product (Eigen's kernels for those were a tenth of `vrecon capacity`).
struct Moments {
  double w = 0, wt = 0, wtt = 0;     // weight
  double w2 = 0, w2t = 0, w2tt = 0;  // weight squared
  double wy = 0, wty = 0;            // weight times demand
  void Add(double weight, double t, double y) {
    w += weight, wt += weight * t, wtt += weight * t * t;
    const double w_2 = weight * weight;
    w2 += w_2, w2t += w_2 * t, w2tt += w_2 * t * t;
    wy += weight * y, wty += weight * t * y;
  }
};

// m += a u u' + b (u v' + v u') + c v v', v the unit row of column `tc` (none when tc < 0), where
// u[tc] = 0.
void AddGroup(DesignMatrix* m, const DesignRow& u, int tc, double a, double b, double c) {
  m->noalias() += a * u * u.transpose();
  if (tc < 0) return;
  m->col(tc) += b * u;
  m->row(tc) += b * u.transpose();
  (*m)(tc, tc) += c;
}

constexpr int kGroups = 14;  // weekday x side of the step
int GroupOf(const Spec& s, int64_t day) { return WeekdayOf(day) * 2 + (s.step && day >= *s.step ? 1 : 0); }

// x' m x for a symmetric m.
double Quadratic(const DesignMatrix& m, const DesignRow& x) {
  double sum = 0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (x[i] == 0) continue;
    double row = 0;
    for (Eigen::Index j = 0; j < x.size(); ++j) row += m(i, j) * x[j];
    sum += x[i] * row;
  }
  return sum;
}

// Lag-1 autocorrelation of the residuals over pairs of consecutive days (points sorted by day).
double LagOneCorrelation(const std::vector<Point>& points, const Eigen::VectorXd& r) {
  double num = 0, den = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    den += r[static_cast<Eigen::Index>(i)] * r[static_cast<Eigen::Index>(i)];
    if (i + 1 < points.size() && points[i + 1].day == points[i].day + 1)
      num += r[static_cast<Eigen::Index>(i)] * r[static_cast<Eigen::Index>(i + 1)];
  }
  if (den <= 0) return 0;
  return std::clamp(num / den, 0.0, 0.9);
}

}  // namespace

double Fit::PredictionVariance(const Spec& s, int64_t day) const {
  const DesignRow x = s.Row(day);
  return sigma * sigma * (1 + Inflation(rho) * Quadratic(cov, x));
}

double Fit::StandardError(int column) const { return sigma * std::sqrt(Inflation(rho) * cov(column, column)); }

Fit WeightedFit(const std::vector<Point>& points, const Spec& spec, double min_sigma) {
  Fit f;
  const auto n = static_cast<Eigen::Index>(points.size());
  const int p = spec.Columns();
  if (n <= p + 1) return f;
  std::array<Moments, kGroups> groups{};
  for (const Point& pt : points)
    groups[GroupOf(spec, pt.day)].Add(pt.weight, static_cast<double>(pt.day - spec.as_of), pt.y);
  const int tc = spec.TrendColumn();
  DesignMatrix a = DesignMatrix::Zero(p, p), meat = DesignMatrix::Zero(p, p);
  DesignRow xwy = DesignRow::Zero(p);
  std::array<DesignRow, kGroups> base;
  for (int g = 0; g < kGroups; ++g) {
    base[g] = spec.Base(g / 2, g % 2 == 1);
    const Moments& m = groups[g];
    AddGroup(&a, base[g], tc, m.w, m.wt, m.wtt);
    AddGroup(&meat, base[g], tc, m.w2, m.w2t, m.w2tt);
    xwy += m.wy * base[g];
    if (tc >= 0) xwy[tc] += m.wty;
  }
  const Eigen::FullPivLU<DesignMatrix> lu(a);
  if (lu.rank() < p) return f;  // e.g. a weekday never seen
  const DesignMatrix a_inv = lu.inverse();
  f.beta = a_inv * xwy;
  f.cov = a_inv * meat * a_inv;
  std::array<double, kGroups> fitted_base{};
  for (int g = 0; g < kGroups; ++g) fitted_base[g] = base[g].dot(f.beta);
  const double slope = tc >= 0 ? f.beta[tc] : 0;
  Eigen::VectorXd r(n);
  double wsum = 0, wss = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Point& pt = points[static_cast<size_t>(i)];
    r[i] = pt.y - fitted_base[GroupOf(spec, pt.day)] - slope * static_cast<double>(pt.day - spec.as_of);
    wsum += pt.weight;
    wss += pt.weight * r[i] * r[i];
  }
  f.sigma = std::max(min_sigma, std::sqrt(wss / wsum * static_cast<double>(n) / static_cast<double>(n - p)));
  f.rho = LagOneCorrelation(points, r);
  f.ok = std::isfinite(f.sigma) && f.beta.allFinite();
  return f;
}

std::optional<int64_t> FindStep(const std::vector<Point>& points, const Spec& spec, int min_days, double min_f) {
  Spec base = spec;
  base.step.reset();
  const auto n = static_cast<Eigen::Index>(points.size());
  const int q = base.Columns();
  if (n < 2 * min_days || n <= q + 2) return std::nullopt;
  const int tc = base.TrendColumn();
  std::array<Moments, 7> groups{};  // a weekday each, unweighted
  double yy = 0;
  for (const Point& pt : points) {
    groups[WeekdayOf(pt.day)].Add(1, static_cast<double>(pt.day - base.as_of), pt.y);
    yy += pt.y * pt.y;
  }
  std::array<DesignRow, 7> u;
  DesignMatrix g = DesignMatrix::Zero(q, q);
  DesignRow gy = DesignRow::Zero(q);
  for (int d = 0; d < 7; ++d) {
    u[d] = base.Base(d, false);
    AddGroup(&g, u[d], tc, groups[d].w, groups[d].wt, groups[d].wtt);
    gy += groups[d].wy * u[d];
    if (tc >= 0) gy[tc] += groups[d].wty;
  }
  // Cholesky: the normal matrix is symmetric and, with full rank, positive definite.
  const Eigen::LLT<DesignMatrix> llt0(g);
  if (llt0.info() != Eigen::Success) return std::nullopt;
  const DesignRow beta0 = llt0.solve(gy);
  const DesignMatrix g_inv = llt0.solve(DesignMatrix::Identity(q, q));
  const double sse0 = yy - beta0.dot(gy);
  // Adding the step column s to the fit lowers the sum of squares by (s'r)^2 / (s's - s'X G^-1 X's),
  // r the residuals without it (Frisch-Waugh). s'X grows by a day's row x = u + t v a candidate,
  // so s'X G^-1 X's grows by 2 x'G^-1 s + x'G^-1 x, with G^-1 s kept as it grows: a candidate day
  // costs a few dot products, not a fit.
  std::array<DesignRow, 7> gu;
  std::array<double, 7> ugu{}, ub{};
  for (int d = 0; d < 7; ++d) {
    gu[d] = g_inv * u[d];
    ugu[d] = u[d].dot(gu[d]);
    ub[d] = u[d].dot(beta0);
  }
  const DesignRow gv = tc >= 0 ? DesignRow(g_inv.col(tc)) : DesignRow::Zero(q);
  const double vgv = tc >= 0 ? g_inv(tc, tc) : 0, slope0 = tc >= 0 ? beta0[tc] : 0;
  DesignRow gs = DesignRow::Zero(q);     // G^-1 s
  double sgs = 0, sb = 0, suffix_y = 0;  // s'G^-1 s, s'beta0, s'y
  std::optional<int64_t> best;
  double best_f = min_f;
  for (Eigen::Index k = n - 1; k >= min_days; --k) {
    const Point& pt = points[static_cast<size_t>(k)];
    const int d = WeekdayOf(pt.day);
    double xgs = u[d].dot(gs), xgx = ugu[d], t = 0;  // x'G^-1 s and x'G^-1 x
    if (tc >= 0) {
      t = static_cast<double>(pt.day - base.as_of);
      xgs += t * gs[tc];
      xgx += 2 * t * gu[d][tc] + t * t * vgv;
    }
    sgs += 2 * xgs + xgx;
    gs += gu[d] + t * gv;
    sb += ub[d] + t * slope0;
    suffix_y += pt.y;
    const Eigen::Index after = n - k;
    if (after < min_days) continue;
    const double den = static_cast<double>(after) - sgs;
    // A step column the others already span (or nearly) explains nothing new.
    if (!(den > 1e-9 * static_cast<double>(after))) continue;
    const double num = suffix_y - sb;
    const double sse1 = std::max(sse0 - num * num / den, 1e-12 * yy);
    const double f_stat = (sse0 - sse1) / (sse1 / static_cast<double>(n - q - 1));
    if (f_stat > best_f) {
      best_f = f_stat;
      best = points[static_cast<size_t>(k)].day;
    }
  }
  return best;
}

}  // namespace vrecon::models::capacity
