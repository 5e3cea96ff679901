// The least-squares parts of the capacity forecast (capacity_forecast.h): the design of a day
// (level, trend, weekly profile, level step), a weighted fit with its standard errors, and the
// search for one level step.
#ifndef VRECON_MODELS_CAPACITY_FIT_H_
#define VRECON_MODELS_CAPACITY_FIT_H_

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Dense>

namespace vrecon::models::capacity {

// A design row: at most 9 columns, kept on the stack (a fit builds one per day, and a forecast one
// per day ahead).
using DesignRow = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 9, 1>;
// A matrix of the design's columns (normal matrix, covariance), on the stack too: products with
// a design row are then coefficient loops, not a BLAS kernel call and a heap temporary each (a
// forecast asks 365 days' variance; a step search one quadratic form per candidate day).
using DesignMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 9, 9>;

struct Point {
  int64_t day = 0;
  double y = 0;
  double weight = 1;
};

// Which terms a fit has. Columns: level; trend (days from as_of); six weekday effects (effects
// coding: the level is the mean over the week); a step (1 from `step` on).
struct Spec {
  int64_t as_of = 0;
  bool trend = true;
  bool weekly = true;
  std::optional<int64_t> step;
  int Columns() const { return 1 + (trend ? 1 : 0) + (weekly ? 6 : 0) + (step ? 1 : 0); }
  // The trend's column, or -1 without a trend.
  int TrendColumn() const { return trend ? 1 : -1; }
  DesignRow Row(int64_t day) const;
  // A day's row is Base(its weekday, whether it is on or after the step) plus its distance from
  // as_of in the trend's column: every day of one weekday on one side of the step shares the base.
  DesignRow Base(int weekday, bool after_step) const;
  // The row without the weekday effects: the week's mean level on that day.
  DesignRow LevelRow(int64_t day) const;
};

struct Fit {
  bool ok = false;
  Eigen::VectorXd beta;
  // The coefficients' covariance over the noise variance: (X'WX)^-1 X'W^2X (X'WX)^-1, the
  // sandwich, since the weights say how much a day counts, not how noisy it is.
  DesignMatrix cov;
  double sigma = 0;  // the residuals' standard deviation (weighted)
  double rho = 0;    // lag-1 autocorrelation of the residuals of consecutive days, in [0, 0.9]
  double Predict(const Spec& s, int64_t day) const { return s.Row(day).dot(beta); }
  double PredictLevel(const Spec& s, int64_t day) const { return s.LevelRow(day).dot(beta); }
  // The variance of the prediction's error at `day`: noise plus the fit's uncertainty, the latter
  // inflated by (1 + rho) / (1 - rho) for correlated residuals.
  double PredictionVariance(const Spec& s, int64_t day) const;
  // The coefficient's standard error, inflated as above.
  double StandardError(int column) const;
};

// `min_sigma`: the least noise assumed, so that a series without any (a simulation, a constant)
// does not get a band of no width.
Fit WeightedFit(const std::vector<Point>& points, const Spec& spec, double min_sigma = 0);

// The day a level step starts at, when one explains the points far better than none (its F
// statistic at least `min_f`), with at least `min_days` points on each side. Unweighted, so a
// step long ago is found as well as a recent one.
std::optional<int64_t> FindStep(const std::vector<Point>& points, const Spec& spec, int min_days, double min_f);

}  // namespace vrecon::models::capacity

#endif  // VRECON_MODELS_CAPACITY_FIT_H_
