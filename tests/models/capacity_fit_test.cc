// The capacity forecast's least squares (models/capacity_fit.h) against the textbook solution on
// the whole design matrix: WeightedFit assembles its normal matrix from weekday groups' sums and
// FindStep grows its quadratic form a day at a time, so both are checked against dense solves on
// random series with gaps, every combination of terms, and any weights.
#include "models/capacity_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "models/capacity_forecast.h"
#include "src/core/time_util.h"

namespace vrecon::models::capacity {
namespace {

const int64_t kStart = DaysFromCivil(2026, 3, 2);

// `n` days from kStart with about one in six left out, demand with a trend, a weekly shape, a step
// from day 60 on, noise, and random weights.
std::vector<Point> RandomPoints(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, 0.7);
  std::uniform_real_distribution<double> weight(0.2, 3), skip(0, 1);
  std::vector<Point> points;
  for (int t = 0; t < n; ++t) {
    if (skip(rng) < 0.17) continue;
    const int64_t day = kStart + t;
    const double y = 6 + 0.03 * t + 0.4 * ((day % 7) - 3) + (t >= 60 ? 2.5 : 0) + noise(rng);
    points.push_back({day, y, weight(rng)});
  }
  return points;
}

struct Dense {
  Eigen::MatrixXd x;
  Eigen::VectorXd y, w;
};

Dense DenseOf(const std::vector<Point>& points, const Spec& spec) {
  Dense d{Eigen::MatrixXd(points.size(), spec.Columns()), Eigen::VectorXd(points.size()),
          Eigen::VectorXd(points.size())};
  for (size_t i = 0; i < points.size(); ++i) {
    const auto r = static_cast<Eigen::Index>(i);
    d.x.row(r) = spec.Row(points[i].day).transpose();
    d.y[r] = points[i].y;
    d.w[r] = points[i].weight;
  }
  return d;
}

// Every combination of trend, weekly profile and step.
std::vector<Spec> Specs(int64_t as_of) {
  std::vector<Spec> specs;
  for (int bits = 0; bits < 8; ++bits) {
    Spec s;
    s.as_of = as_of;
    s.trend = (bits & 1) != 0;
    s.weekly = (bits & 2) != 0;
    if ((bits & 4) != 0) s.step = kStart + 60;
    specs.push_back(s);
  }
  return specs;
}

TEST(CapacityFitTest, WeightedFitIsTheDenseWeightedLeastSquaresSolution) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const std::vector<Point> points = RandomPoints(150, seed);
    for (const Spec& spec : Specs(points.back().day)) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << ", " << spec.Columns() << " columns");
      const Dense d = DenseOf(points, spec);
      const Eigen::MatrixXd xw = d.w.asDiagonal() * d.x;
      const Eigen::MatrixXd a_inv = (d.x.transpose() * xw).inverse();
      const Eigen::VectorXd beta = a_inv * xw.transpose() * d.y;
      const Eigen::MatrixXd cov = a_inv * (xw.transpose() * xw) * a_inv;
      const Eigen::VectorXd r = d.y - d.x * beta;
      const auto n = static_cast<double>(points.size());
      const double sigma = std::sqrt((d.w.array() * r.array().square()).sum() / d.w.sum() * n / (n - spec.Columns()));

      const Fit fit = WeightedFit(points, spec);
      ASSERT_TRUE(fit.ok);
      ASSERT_EQ(fit.beta.size(), beta.size());
      for (Eigen::Index c = 0; c < beta.size(); ++c) EXPECT_NEAR(fit.beta[c], beta[c], 1e-9) << "column " << c;
      for (Eigen::Index i = 0; i < cov.rows(); ++i)
        for (Eigen::Index j = 0; j < cov.cols(); ++j) EXPECT_NEAR(fit.cov(i, j), cov(i, j), 1e-12);
      EXPECT_NEAR(fit.sigma, sigma, 1e-9);
      // The prediction on a day ahead is the dense row times the coefficients.
      const int64_t ahead = spec.as_of + 40;
      EXPECT_NEAR(fit.Predict(spec, ahead), spec.Row(ahead).dot(beta), 1e-9);
    }
  }
}

TEST(CapacityFitTest, AWeekdayNeverSeenLeavesNoFit) {
  std::vector<Point> points = RandomPoints(120, 3);
  std::erase_if(points, [](const Point& p) { return WeekdayOf(p.day) == 2; });
  Spec spec;
  spec.as_of = points.back().day;
  EXPECT_FALSE(WeightedFit(points, spec).ok);
  spec.weekly = false;
  EXPECT_TRUE(WeightedFit(points, spec).ok);
}

// The step FindStep picks is the candidate whose dense fit with the step column has the largest F
// statistic over the fit without it, among those at least `min_f`.
std::optional<int64_t> DenseBestStep(const std::vector<Point>& points, const Spec& spec, int min_days, double min_f) {
  Spec base = spec;
  base.step.reset();
  const Dense d = DenseOf(points, base);
  const auto sse = [&](const Eigen::MatrixXd& x) {
    const Eigen::VectorXd beta = x.colPivHouseholderQr().solve(d.y);
    return (d.y - x * beta).squaredNorm();
  };
  const double sse0 = sse(d.x);
  const auto n = static_cast<Eigen::Index>(points.size());
  std::optional<int64_t> best;
  double best_f = min_f;
  for (Eigen::Index k = min_days; k + min_days <= n; ++k) {
    Eigen::MatrixXd x(n, d.x.cols() + 1);
    x << d.x, Eigen::VectorXd::Zero(n);
    x.col(d.x.cols()).tail(n - k).setOnes();
    const double sse1 = sse(x);
    const double f = (sse0 - sse1) / (sse1 / static_cast<double>(n - d.x.cols() - 1));
    if (f > best_f) {
      best_f = f;
      best = points[static_cast<size_t>(k)].day;
    }
  }
  return best;
}

TEST(CapacityFitTest, FindStepPicksTheDenseFitsBestStep) {
  int found = 0;
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const std::vector<Point> points = RandomPoints(150, seed);
    for (const Spec& spec : Specs(points.back().day)) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << ", trend " << spec.trend << ", weekly " << spec.weekly);
      const std::optional<int64_t> step = FindStep(points, spec, 7, 40);
      EXPECT_EQ(step, DenseBestStep(points, spec, 7, 40));
      if (step) ++found;
    }
  }
  // The series have a step of 2.5 cores on day 60: the check above compared found steps, not
  // only their absence.
  EXPECT_GT(found, 12);
}

TEST(CapacityFitTest, NoStepWhereNoneIsThere) {
  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0, 0.5);
  std::vector<Point> points;
  for (int t = 0; t < 120; ++t) points.push_back({kStart + t, 8 + 0.02 * t + noise(rng), 1});
  Spec spec;
  spec.as_of = points.back().day;
  EXPECT_EQ(FindStep(points, spec, 7, 40), std::nullopt);
  EXPECT_EQ(DenseBestStep(points, spec, 7, 40), std::nullopt);
}

}  // namespace
}  // namespace vrecon::models::capacity
