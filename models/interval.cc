#include "models/interval.h"

#include <algorithm>
#include <cmath>

namespace vrecon::models {

MeanError TickMeanError(const WindowStats& st, double span_s, double full, double ticks) {
  MeanError e;
  if (st.covered_s <= 0 || span_s <= 0 || full <= 0) return e;
  const double present = std::min(1.0, st.covered_s / span_s);  // the absent rest is an exact 0
  const double mean = st.weighted_sum / st.covered_s;
  // Binomial floor over the ticks of the seconds the series existed, with two successes and two
  // failures added (Agresti-Coull) so a share of 0 or 1 keeps a width.
  const double n = std::max(1.0, ticks * st.covered_s);
  const double p = std::clamp((mean / full * n + 2) / (n + 4), 0.0, 1.0);
  const double binomial = full * full * p * (1 - p) / (n + 4);
  double variance = binomial;
  if (st.diffs >= 2) {
    const double per_sample = st.diff_sq / (2.0 * st.diffs);
    const double of_mean = per_sample / (st.diffs + 1);
    if (of_mean > binomial) {
      variance = of_mean;
      e.df = st.diffs;
    }
  }
  e.variance = present * present * variance;
  return e;
}

double T95(double df) {
  constexpr double z = 1.959964;
  if (df >= 1e6) return z;
  df = std::max(df, 1.0);
  // Cornish-Fisher expansion of t around z (four terms): within 0.005 of the table from 3
  // degrees of freedom.
  const double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df) +
         (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * df * df * df * df);
}

double HostEdgeRelVariance(const WindowStats& host, double host_mean, double host_interval_s, double window_s) {
  if (host.diffs < 1 || host_mean <= 0 || host_interval_s <= 0 || window_s <= 0) return 0;
  // Whole samples only (the host's sample times fall on the window's edges): nothing is cut.
  if (std::fabs(host.covered_s - host.samples * host_interval_s) <= 0.01 * host.covered_s) return 0;
  const double sd = std::sqrt(host.diff_sq / (2.0 * host.diffs));
  // Two edges, each cutting up to one host sample: a share up to interval/window of the window
  // rests on a value that is that sample's mean, off by about half the scatter.
  const double share = std::min(1.0, host_interval_s / window_s);
  const double se = 0.5 * sd * share;
  return 2 * se * se / (host_mean * host_mean);
}

double ShiftVariance(const WindowStats& st, double shift_s, double window_s) {
  if (st.diffs < 1 || shift_s <= 0 || window_s <= 0) return 0;
  const double per_sample = st.diff_sq / (2.0 * st.diffs);
  const double share = std::min(1.0, shift_s / window_s);
  return 2 * share * share * per_sample;
}

CiBounds CorrectedInterval(double w, double g, const MeanError& g_error, double w_rel_variance, double unseen) {
  const double variance = w * w * (g_error.variance + g * g * w_rel_variance);
  const double half = T95(g_error.df) * std::sqrt(std::max(0.0, variance));
  const double c = w * g;
  return CiBounds{std::max(0.0, c - half), c + half + w * std::max(0.0, unseen)};
}

double StallAttributionVariance(double process_pct, double guest_pct, int vcpus, double w, double window_s,
                                double stall_chunk_s) {
  const double busy = guest_pct * vcpus;  // % of one CPU
  if (w >= 1 || busy <= 0 || window_s <= 0) return 0;
  const double q = std::clamp(process_pct / busy, 0.0, 1.0);
  // S = (1 - w) x busy / 100 x window_s vCPU-seconds; the process's stalled seconds have variance
  // q (1 - q) S c, in % of one CPU: x (100 / window_s)^2.
  return 100 * q * (1 - q) * (1 - w) * busy * stall_chunk_s / window_s;
}

double UnseenEdges(const WindowStats& st, double span_s) {
  if (st.covered_s <= 0 || st.samples <= 0 || span_s <= st.covered_s) return 0;
  const double rate = st.weighted_sum / st.covered_s;
  const double sample_s = st.covered_s / st.samples;
  const double unseen_s = std::min(2 * sample_s, span_s - st.covered_s);
  return std::max(0.0, rate) * unseen_s / span_s;
}

}  // namespace vrecon::models
