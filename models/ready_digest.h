// Mergeable Ready-Time summaries (issue 16): the stored summaries that reports read are kept per
// VM, source and UTC day as digests, and a VM's summary is the sum of its days' digests, so a
// fleet round updates the days its samples touched instead of reading the VM's whole history
// again, and a summary outlives samples that retention removed. Counts, sums and the counts
// above each threshold add exactly; the p95 comes from a sketch of logarithmic buckets
// (DDSketch's) whose values are the means of what fell in them: exact when those were equal,
// else within 1% (2 x kRelativeError) of the true value. `vrecon ready`, which reads the samples,
// gives exact p95s. docs/ready.md "Stored summaries".
#ifndef VRECON_MODELS_READY_DIGEST_H_
#define VRECON_MODELS_READY_DIGEST_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "models/ready_analysis.h"
#include "src/core/quantile_sketch.h"

namespace vrecon::models {

// One series of values: how many, their sum, how many lie above each threshold, and the sketch.
struct ValueDigest {
  int64_t n = 0;
  double sum = 0;
  std::vector<int64_t> above;  // per threshold, in the order Add was given them
  QuantileSketch sketch;
  // `quantiles` false: no sketch (a mean is all that is asked of it).
  void Add(double v, const std::vector<double>& thresholds, bool quantiles = true);
  void Merge(const ValueDigest& o, int sign = 1);
  Summary ToSummary() const;  // as Summarize() would give, p95 from the sketch
};

struct ReadyDigest {
  int64_t states = 0;  // samples with a per-vCPU state (PerVcpuStates)
  ValueDigest ready, costop, run, wait, usage, wait_per_dispatch_us, host_load;
  void Merge(const ReadyDigest& o, int sign = 1);
};

// The digest of `in`'s samples, with the thresholds of `t` (stored summaries use the defaults).
ReadyDigest DigestReady(const ReadyInput& in, const ReadyThresholds& t = {});

// `in` split by the UTC day each interval starts in (host load and all): day start -> input.
std::map<TimeNs, ReadyInput> SplitByDay(const ReadyInput& in);
// Drops every interval of `in` that ends at or before `t` (what a day's digest already holds).
void KeepEndingAfter(ReadyInput* in, TimeNs t);
// The latest end of any interval of `in`; nullopt when it has none.
std::optional<TimeNs> LatestEnd(const ReadyInput& in);

// The summary AnalyzeVm would give for the samples behind `d` (p95s from the sketches), with the
// VM's name, source, host and vCPUs from `meta`, and its hints.
VmReadySummary SummarizeDigest(const ReadyDigest& d, const ReadyInput& meta, const ReadyThresholds& t = {});

}  // namespace vrecon::models

#endif  // VRECON_MODELS_READY_DIGEST_H_
