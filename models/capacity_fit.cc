#include "models/capacity_fit.h"

#include <algorithm>
#include <cmath>

#include "models/capacity_forecast.h"

namespace vrecon::models::capacity {

DesignRow Spec::Row(int64_t day) const {
  DesignRow v = DesignRow::Zero(Columns());
  int c = 0;
  v[c++] = 1;
  if (trend) v[c++] = static_cast<double>(day - as_of);
  if (weekly) {
    const int wd = WeekdayOf(day);
    for (int k = 1; k <= 6; ++k) v[c + k - 1] = wd == k ? 1.0 : (wd == 0 ? -1.0 : 0.0);
    c += 6;
  }
  if (step) v[c] = day >= *step ? 1.0 : 0.0;
  return v;
}

DesignRow Spec::LevelRow(int64_t day) const {
  DesignRow v = Row(day);
  if (weekly) v.segment(trend ? 2 : 1, 6).setZero();
  return v;
}

namespace {

double Inflation(double rho) { return (1 + rho) / (1 - rho); }

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
  return sigma * sigma * (1 + Inflation(rho) * x.dot(cov * x));
}

double Fit::StandardError(int column) const { return sigma * std::sqrt(Inflation(rho) * cov(column, column)); }

Fit WeightedFit(const std::vector<Point>& points, const Spec& spec, double min_sigma) {
  Fit f;
  const auto n = static_cast<Eigen::Index>(points.size());
  const int p = spec.Columns();
  if (n <= p + 1) return f;
  Eigen::MatrixXd x(n, p);
  Eigen::VectorXd y(n), w(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Point& pt = points[static_cast<size_t>(i)];
    x.row(i) = spec.Row(pt.day).transpose();
    y[i] = pt.y;
    w[i] = pt.weight;
  }
  const Eigen::MatrixXd xw = w.asDiagonal() * x;
  const DesignMatrix a = x.transpose() * xw;
  const Eigen::FullPivLU<DesignMatrix> lu(a);
  if (lu.rank() < p) return f;  // e.g. a weekday never seen
  const DesignMatrix a_inv = lu.inverse();
  f.beta = a_inv * (xw.transpose() * y);
  const DesignMatrix meat = xw.transpose() * xw;
  f.cov = a_inv * meat * a_inv;
  const Eigen::VectorXd r = y - x * f.beta;
  const double wsum = w.sum();
  const double wss = (w.array() * r.array().square()).sum();
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
  Eigen::MatrixXd x(n, q);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    x.row(i) = base.Row(points[static_cast<size_t>(i)].day).transpose();
    y[i] = points[static_cast<size_t>(i)].y;
  }
  const DesignMatrix g = x.transpose() * x;
  const DesignRow gy = x.transpose() * y;
  const double yy = y.squaredNorm();
  // Cholesky: the normal matrix is symmetric and, with full rank, positive definite.
  const Eigen::LLT<DesignMatrix> llt0(g);
  if (llt0.info() != Eigen::Success) return std::nullopt;
  const DesignRow beta0 = llt0.solve(gy);
  const DesignMatrix g_inv = llt0.solve(DesignMatrix::Identity(q, q));
  const double sse0 = yy - beta0.dot(gy);
  // Adding the step column s to the fit lowers the sum of squares by (s'r)^2 / (s's - s'X G^-1 X's),
  // r the residuals without it (Frisch-Waugh). s'X and s'y are suffix sums: each candidate costs a
  // dot product and a quadratic form, not a fit.
  DesignRow suffix_x = DesignRow::Zero(q);
  double suffix_y = 0;
  std::optional<int64_t> best;
  double best_f = min_f;
  for (Eigen::Index k = n - 1; k >= min_days; --k) {
    suffix_x += x.row(k).transpose();
    suffix_y += y[k];
    const Eigen::Index after = n - k;
    if (after < min_days) continue;
    const double den = static_cast<double>(after) - suffix_x.dot(g_inv * suffix_x);
    // A step column the others already span (or nearly) explains nothing new.
    if (!(den > 1e-9 * static_cast<double>(after))) continue;
    const double num = suffix_y - suffix_x.dot(beta0);
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
