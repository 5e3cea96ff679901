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
  const Eigen::MatrixXd a = x.transpose() * xw;
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(a);
  if (lu.rank() < p) return f;  // e.g. a weekday never seen
  const Eigen::MatrixXd a_inv = lu.inverse();
  f.beta = a_inv * (xw.transpose() * y);
  f.cov = a_inv * (xw.transpose() * xw) * a_inv;
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
  const Eigen::MatrixXd g = x.transpose() * x;
  const Eigen::VectorXd gy = x.transpose() * y;
  const double yy = y.squaredNorm();
  // Cholesky: the normal matrices are symmetric and, with full rank, positive definite; a
  // candidate whose step column the others already span fails to factor and is skipped.
  const Eigen::LLT<Eigen::MatrixXd> llt0(g);
  if (llt0.info() != Eigen::Success) return std::nullopt;
  const double sse0 = yy - llt0.solve(gy).dot(gy);
  // The step column's products with the rest are suffix sums: each candidate costs one small
  // solve, not a fit over every point.
  Eigen::VectorXd suffix_x = Eigen::VectorXd::Zero(q);
  double suffix_y = 0;
  std::optional<int64_t> best;
  double best_f = min_f;
  Eigen::MatrixXd aug(q + 1, q + 1);
  Eigen::VectorXd rhs(q + 1);
  aug.topLeftCorner(q, q) = g;
  rhs.head(q) = gy;
  for (Eigen::Index k = n - 1; k >= min_days; --k) {
    suffix_x += x.row(k).transpose();
    suffix_y += y[k];
    const Eigen::Index after = n - k;
    if (after < min_days) continue;
    aug.topRightCorner(q, 1) = suffix_x;
    aug.bottomLeftCorner(1, q) = suffix_x.transpose();
    aug(q, q) = static_cast<double>(after);
    rhs[q] = suffix_y;
    const Eigen::LLT<Eigen::MatrixXd> llt(aug);
    if (llt.info() != Eigen::Success) continue;
    const double sse1 = std::max(yy - llt.solve(rhs).dot(rhs), 1e-12 * yy);
    const double f_stat = (sse0 - sse1) / (sse1 / static_cast<double>(n - q - 1));
    if (f_stat > best_f) {
      best_f = f_stat;
      best = points[static_cast<size_t>(k)].day;
    }
  }
  return best;
}

}  // namespace vrecon::models::capacity
