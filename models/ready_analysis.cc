#include "models/ready_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

#include "src/core/text_util.h"

namespace vrecon::models {
namespace {

std::string Pct(double v) { return FormatFixed(v, 1) + "%"; }

std::vector<double> Present(const std::vector<StateSample>& s, std::optional<double> StateSample::*field) {
  std::vector<double> v;
  for (const StateSample& x : s)
    if (x.*field) v.push_back(*(x.*field));
  return v;
}

std::optional<double> Mean(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

}  // namespace

std::optional<double> PerVcpu(std::optional<double> aggregate_pct, std::optional<int> vcpus) {
  if (!aggregate_pct || !vcpus || *vcpus <= 0) return std::nullopt;
  return *aggregate_pct / *vcpus;
}

std::vector<StateSample> PerVcpuStates(const ReadyInput& in) {
  std::map<std::pair<TimeNs, TimeNs>, StateSample> by_interval;
  auto put = [&](const std::vector<Interval>& series, std::optional<double> StateSample::*field, bool divide) {
    for (const Interval& i : series) {
      if (std::isnan(i.value)) continue;
      StateSample& s = by_interval[{i.start, i.end}];
      s.start = i.start;
      s.end = i.end;
      s.*field = divide ? PerVcpu(i.value, in.vcpus) : std::optional<double>(i.value);
    }
  };
  put(in.ready, &StateSample::ready, true);
  put(in.costop, &StateSample::costop, true);
  put(in.run, &StateSample::run, true);
  put(in.wait, &StateSample::wait, true);
  put(in.used, &StateSample::usage, true);
  put(in.usage, &StateSample::usage, false);  // cpu.usage.average is already % of capacity
  std::vector<StateSample> out;
  out.reserve(by_interval.size());
  for (auto& [k, s] : by_interval) out.push_back(s);
  return out;
}

std::optional<double> Percentile(std::vector<double> v, double p) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const double h = (static_cast<double>(v.size()) - 1) * p;
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

Summary Summarize(const std::vector<double>& values, const std::vector<double>& thresholds) {
  Summary s;
  s.samples = static_cast<int>(values.size());
  s.mean = Mean(values);
  s.p95 = Percentile(values, 0.95);
  for (double t : thresholds) {
    if (values.empty()) {
      s.share_above.push_back(NAN);
      continue;
    }
    const auto n = std::count_if(values.begin(), values.end(), [t](double v) { return v > t; });
    s.share_above.push_back(static_cast<double>(n) / static_cast<double>(values.size()));
  }
  return s;
}

void AddReadyHints(VmReadySummary* r, const ReadyThresholds& t) {
  if (r->vcpus && *r->vcpus >= 2 && r->costop.mean && *r->costop.mean > t.costop_pct && r->usage_mean &&
      *r->usage_mean < t.low_usage_pct) {
    r->hints.push_back({"fewer-vcpus", Severity::kWarning,
                        "co-stop averages " + Pct(*r->costop.mean) + " per vCPU while each of the " +
                            std::to_string(*r->vcpus) + " vCPUs is only " + Pct(*r->usage_mean) +
                            " used: fewer vCPUs would help (the scheduler must find " + std::to_string(*r->vcpus) +
                            " physical CPUs at once)"});
  }
  if (r->ready.mean && *r->ready.mean > t.ready_crit_pct) {
    r->hints.push_back({"host-overcommit", Severity::kWarning,
                        "ready averages " + Pct(*r->ready.mean) + " per vCPU (above " + Pct(t.ready_crit_pct) +
                            "): the VM is starved by host overcommit; move it or reduce the host's load"});
  } else if (r->ready.mean && *r->ready.mean > t.ready_warn_pct) {
    r->hints.push_back({"ready-elevated", Severity::kInfo,
                        "ready averages " + Pct(*r->ready.mean) + " per vCPU (above " + Pct(t.ready_warn_pct) +
                            "): the host is getting busy; watch it"});
  }
  if (r->wait_per_dispatch_us && r->wait_per_dispatch_us->mean) {
    const double m = *r->wait_per_dispatch_us->mean;
    if (m > t.wait_dispatch_crit_us) {
      r->hints.push_back({"host-overcommit", Severity::kWarning,
                          "CPU Wait Time Per Dispatch averages " + FormatFixed(m, 1) + " us (above " +
                              FormatFixed(t.wait_dispatch_crit_us, 0) +
                              " us): the VM is starved by host overcommit; move it or reduce the host's load"});
    } else if (m > t.wait_dispatch_warn_us) {
      r->hints.push_back({"ready-elevated", Severity::kInfo,
                          "CPU Wait Time Per Dispatch averages " + FormatFixed(m, 1) + " us (above " +
                              FormatFixed(t.wait_dispatch_warn_us, 0) + " us): the host is getting busy; watch it"});
    }
  }
  if (r->host_load && r->host_load->p95) {
    const double p = *r->host_load->p95;
    const std::string host = r->host.empty() ? "the host" : "host " + r->host;
    if (p > t.host_load_crit_pct) {
      r->hints.push_back({"host-load-critical", Severity::kError,
                          host + "'s CPU load reaches " + Pct(p) + " (p95, above " + Pct(t.host_load_crit_pct) +
                              "): the host is overloaded; add capacity or move VMs away"});
    } else if (p > t.host_load_warn_pct) {
      r->hints.push_back({"host-load-high", Severity::kWarning,
                          host + "'s CPU load reaches " + Pct(p) + " (p95, above " + Pct(t.host_load_warn_pct) +
                              "): the host is near its limit"});
    }
  }
}

VmReadySummary AnalyzeVm(const ReadyInput& in, const ReadyThresholds& t) {
  VmReadySummary r;
  r.vm = in.vm;
  r.source = in.source;
  r.host = in.host;
  r.vcpus = in.vcpus;
  const std::vector<StateSample> states = PerVcpuStates(in);
  const std::vector<double> ready = Present(states, &StateSample::ready);
  const std::vector<double> costop = Present(states, &StateSample::costop);
  r.ready = Summarize(ready, {t.ready_warn_pct, t.ready_crit_pct});
  r.costop = Summarize(costop, {t.costop_pct});
  r.run_mean = Mean(Present(states, &StateSample::run));
  r.wait_mean = Mean(Present(states, &StateSample::wait));
  r.usage_mean = Mean(Present(states, &StateSample::usage));
  r.samples = static_cast<int>(states.size());
  if (!in.wait_per_dispatch_ns.empty()) {
    std::vector<double> us;
    for (const Interval& i : in.wait_per_dispatch_ns)
      if (!std::isnan(i.value)) us.push_back(i.value / 1000.0);
    r.wait_per_dispatch_us = Summarize(us, {t.wait_dispatch_warn_us, t.wait_dispatch_crit_us});
    r.samples = std::max(r.samples, r.wait_per_dispatch_us->samples);
  }
  if (!in.host_load.empty()) {
    std::vector<double> load;
    for (const Interval& i : in.host_load)
      if (!std::isnan(i.value)) load.push_back(i.value);
    r.host_load = Summarize(load, {t.host_load_warn_pct, t.host_load_crit_pct});
  }

  AddReadyHints(&r, t);
  return r;
}

std::vector<Flag> ReadyWindowFlags(std::optional<double> ready, std::optional<double> costop, const ReadyThresholds& t,
                                   std::optional<double> wait_us) {
  std::vector<Flag> f;
  if (wait_us && *wait_us > t.wait_dispatch_warn_us) {
    f.push_back({"high-dispatch-wait", Severity::kWarning,
                 "virtual processors waited " + FormatFixed(*wait_us, 1) +
                     " us per dispatch on average in this window "
                     "(above " +
                     FormatFixed(t.wait_dispatch_warn_us, 0) + " us; " + FormatFixed(t.wait_dispatch_crit_us, 0) +
                     " us is critical): the VM queued for physical CPUs, the Hyper-V counterpart of high ready, so the "
                     "guest's CPU numbers are unreliable here"});
  }
  if (ready && *ready > t.ready_crit_pct) {
    f.push_back({"high-ready", Severity::kWarning,
                 "ready averages " + Pct(*ready) + " per vCPU in this window (above " + Pct(t.ready_crit_pct) +
                     "): the guest's clock ticks were delayed or lost, so its CPU numbers are unreliable here"});
  }
  if (costop && *costop > t.costop_pct) {
    f.push_back(
        {"high-costop", Severity::kWarning,
         "co-stop averages " + Pct(*costop) + " per vCPU in this window (above " + Pct(t.costop_pct) +
             "): vCPUs were held back to keep pace with each other, so the guest's CPU numbers are unreliable here"});
  }
  return f;
}

}  // namespace vrecon::models
