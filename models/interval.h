// The 95% interval of a corrected process figure (docs/accuracy.md, "Intervals").
//
// A guest's % Processor Time is a count of 64 Hz clock ticks. Were every tick an independent draw,
// a share p of n ticks would have the binomial error sqrt(p(1-p)/n). Real threads keep a CPU for
// many ticks (a quantum is 12; a busy thread runs until it blocks) and a backlog of late ticks is
// charged to one thread, so consecutive ticks are correlated and the error is several times the
// binomial one. The scatter between a series' successive samples inside the window measures it
// (their mean square difference halved is the variance of one sample, with slow changes of the
// load left mostly out); the binomial value is the floor. The corrected figure w x g adds w's
// uncertainty: the guest total's own sampling error, the host's samples cut by the window edges,
// and a part-covered window compared over unequal spans. Pure arithmetic on window statistics.
#ifndef VRECON_MODELS_INTERVAL_H_
#define VRECON_MODELS_INTERVAL_H_

#include <optional>

#include "models/window_series.h"

namespace vrecon::models {

// The error of one window mean: its variance and the degrees of freedom behind it (a large
// number where the binomial floor decides, since that one is not estimated).
struct MeanError {
  double variance = 0;
  double df = 1e9;
};

// A tick-sampled series' window mean over `span_s` seconds (the guest's covered seconds), in
// units where `full` is every tick busy (100 x vCPUs for a process in % of one CPU, 100 for a
// per-vCPU % Processor Time). `st` holds the series' samples in the window (the time the series
// existed, st.covered_s, may be shorter than span_s: the rest counts as 0 and is exact).
MeanError TickMeanError(const WindowStats& st, double span_s, double full, double ticks);

// The two-sided 95% quantile of Student's t with df degrees of freedom (z for large df).
double T95(double df);

// The relative variance of the host's window mean from samples the window edges cut: each edge
// may fall anywhere in a host sample of `host_interval_s`, whose value there is its mean, off by
// about the sample-to-sample scatter. 0 when the host's samples fit the window.
double HostEdgeRelVariance(const WindowStats& host, double host_mean, double host_interval_s, double window_s);

// The variance a window mean gains when its edges may be off by `shift_s` (the clock
// alignment's residual): each edge moves that share of the window onto a neighbouring stretch,
// whose value differs by about the sample-to-sample scatter.
double ShiftVariance(const WindowStats& st, double shift_s, double window_s);

struct CiBounds {
  double lo = 0, hi = 0;
};

// w x g with var(g) (from TickMeanError) and w's relative variance; lo is at least 0. `unseen`
// widens the upper side only: CPU the guest could not show (a process's first and last partial
// sample interval, which PDH cannot rate), in g's units.
CiBounds CorrectedInterval(double w, double g, const MeanError& g_error, double w_rel_variance, double unseen = 0);

// What a process that started or ended inside the window may have used unseen: at its rate while
// present, one sample interval at each end, within the seconds it was absent.
double UnseenEdges(const WindowStats& st, double span_s);

// The variance of a process's event-based CPU (an ETW trace's, % of one CPU) from how the VM's
// stalls fell: the trace keeps a thread running while its vCPU waits for a physical CPU, so each
// stall is charged whole to the thread that was on the vCPU. w scales every process alike, so
// what it cannot undo is a process's share of the stalled time drawn stall by stall rather than in
// proportion: with stalled vCPU-seconds S = (1 - w) x the busy time and a process's share q of
// the busy time, var = q (1 - q) S c, c being E[L^2] / E[L] of the stalls' lengths L (about twice
// the mean for exponential stalls). 0 where w >= 1 (nothing stalled the busy time).
double StallAttributionVariance(double process_pct, double guest_pct, int vcpus, double w, double window_s,
                                double stall_chunk_s);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_INTERVAL_H_
