#include "models/ready_digest.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace vrecon::models {
void ValueDigest::Add(double v, const std::vector<double>& thresholds, bool quantiles) {
  ++n;
  sum += v;
  above.resize(thresholds.size());
  for (size_t i = 0; i < thresholds.size(); ++i) above[i] += v > thresholds[i] ? 1 : 0;
  if (quantiles) sketch.Add(v);
}

void ValueDigest::Merge(const ValueDigest& o, int sign) {
  n += sign * o.n;
  sum += sign * o.sum;
  if (above.size() < o.above.size()) above.resize(o.above.size());
  for (size_t i = 0; i < o.above.size(); ++i) above[i] += sign * o.above[i];
  sketch.Merge(o.sketch, sign);
  if (n == 0) sum = 0;
}

Summary ValueDigest::ToSummary() const {
  Summary s;
  s.samples = static_cast<int>(n);
  if (n > 0) s.mean = sum / static_cast<double>(n);
  s.p95 = sketch.Quantile(0.95);
  for (int64_t a : above) s.share_above.push_back(n > 0 ? static_cast<double>(a) / static_cast<double>(n) : NAN);
  return s;
}

void ReadyDigest::Merge(const ReadyDigest& o, int sign) {
  states += sign * o.states;
  for (auto [mine, theirs] : {std::pair{&ready, &o.ready},
                              {&costop, &o.costop},
                              {&run, &o.run},
                              {&wait, &o.wait},
                              {&usage, &o.usage},
                              {&wait_per_dispatch_us, &o.wait_per_dispatch_us},
                              {&host_load, &o.host_load}})
    mine->Merge(*theirs, sign);
}

ReadyDigest DigestReady(const ReadyInput& in, const ReadyThresholds& t) {
  ReadyDigest d;
  const std::vector<StateSample> states = PerVcpuStates(in);
  d.states = static_cast<int64_t>(states.size());
  const std::vector<double> ready_t = {t.ready_warn_pct, t.ready_crit_pct}, costop_t = {t.costop_pct}, none;
  for (const StateSample& s : states) {
    if (s.ready) d.ready.Add(*s.ready, ready_t);
    if (s.costop) d.costop.Add(*s.costop, costop_t);
    if (s.run) d.run.Add(*s.run, none, false);
    if (s.wait) d.wait.Add(*s.wait, none, false);
    if (s.usage) d.usage.Add(*s.usage, none, false);
  }
  for (const Interval& i : in.wait_per_dispatch_ns)
    if (!std::isnan(i.value))
      d.wait_per_dispatch_us.Add(i.value / 1000.0, {t.wait_dispatch_warn_us, t.wait_dispatch_crit_us});
  for (const Interval& i : in.host_load)
    if (!std::isnan(i.value)) d.host_load.Add(i.value, {t.host_load_warn_pct, t.host_load_crit_pct});
  return d;
}

namespace {

constexpr std::array kSeriesFields = {&ReadyInput::ready,
                                      &ReadyInput::costop,
                                      &ReadyInput::run,
                                      &ReadyInput::wait,
                                      &ReadyInput::used,
                                      &ReadyInput::usage,
                                      &ReadyInput::wait_per_dispatch_ns,
                                      &ReadyInput::host_load};

}  // namespace

std::map<TimeNs, ReadyInput> SplitByDay(const ReadyInput& in) {
  std::map<TimeNs, ReadyInput> days;
  for (auto field : kSeriesFields) {
    for (const Interval& i : in.*field) {
      ReadyInput& day = days[FloorTo(i.start, kNsPerDay)];
      (day.*field).push_back(i);
    }
  }
  for (auto& [day, d] : days) {
    d.vm = in.vm;
    d.source = in.source;
    d.vcpus = in.vcpus;
    d.host = in.host;
  }
  return days;
}

VmReadySummary SummarizeDigest(const ReadyDigest& d, const ReadyInput& meta, const ReadyThresholds& t) {
  VmReadySummary r;
  r.vm = meta.vm;
  r.source = meta.source;
  r.host = meta.host;
  r.vcpus = meta.vcpus;
  r.ready = d.ready.ToSummary();
  r.costop = d.costop.ToSummary();
  r.run_mean = d.run.ToSummary().mean;
  r.wait_mean = d.wait.ToSummary().mean;
  r.usage_mean = d.usage.ToSummary().mean;
  r.samples = static_cast<int>(std::max(d.states, d.wait_per_dispatch_us.n));
  if (d.wait_per_dispatch_us.n > 0) r.wait_per_dispatch_us = d.wait_per_dispatch_us.ToSummary();
  if (d.host_load.n > 0) r.host_load = d.host_load.ToSummary();
  AddReadyHints(&r, t);
  return r;
}

void KeepEndingAfter(ReadyInput* in, TimeNs t) {
  for (auto field : kSeriesFields) std::erase_if(in->*field, [t](const Interval& i) { return i.end <= t; });
}

std::optional<TimeNs> LatestEnd(const ReadyInput& in) {
  std::optional<TimeNs> out;
  for (auto field : kSeriesFields)
    for (const Interval& i : in.*field)
      if (!out || i.end > *out) out = i.end;
  return out;
}

}  // namespace vrecon::models
