#include "models/event_correction.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "src/core/text_util.h"

namespace vrecon::models {
namespace {

std::string Pct(double v) { return FormatFixed(v, 1) + "%"; }

// A window mean over `span_s` seconds, the time the series lacks counting as 0 (a process that
// did not exist used no CPU), as CorrectVm rates guest_pct.
std::optional<double> OverSpan(const WindowStats& st, double span_s) {
  if (st.covered_s <= 0) return std::nullopt;
  return st.weighted_sum / std::max(span_s, st.covered_s);
}

// Perfmon's series of the process the trace names "name:pid", with its instance name: Process
// V2's instance of that name, else a Process instance "name" or "name#k" whose ID Process read pid
// all through the window (Perfmon's instance names pass from process to process; the pid says
// which one it was).
using Sampled = std::pair<const std::string*, const WindowSeries*>;
Sampled SampledSeries(const VmSeries& vm, const std::string& instance, int w) {
  if (auto it = vm.processes.find(instance); it != vm.processes.end()) return {&it->first, &it->second};
  const size_t colon = instance.rfind(':');
  if (colon == std::string::npos) return {};
  const std::string name = instance.substr(0, colon);
  double pid = 0;
  const char* first = instance.data() + colon + 1;
  const char* last = instance.data() + instance.size();
  if (std::from_chars(first, last, pid).ptr != last) return {};
  for (auto it = vm.processes.lower_bound(name); it != vm.processes.end() && it->first.starts_with(name); ++it) {
    const std::string& key = it->first;
    if (key.size() != name.size() && key[name.size()] != '#') continue;
    const auto ids = vm.process_ids.find(key);
    if (ids == vm.process_ids.end()) continue;
    const WindowStats& s = ids->second.at(w);
    if (s.samples > 0 && s.min == pid && s.max == pid) return {&it->first, &it->second};
  }
  return {};
}

// The flag that sums up the comparison: the totals and the process the counters were most off for.
void FlagComparison(const WindowResult& r, std::vector<Flag>* flags) {
  const ProcessResult* worst = nullptr;
  int compared = 0;
  for (const ProcessResult& p : r.processes) {
    if (!p.sampled_pct || !p.guest_pct) continue;
    ++compared;
    if (!worst || std::fabs(*p.sampled_pct - *p.guest_pct) > std::fabs(*worst->sampled_pct - *worst->guest_pct))
      worst = &p;
  }
  if (!r.sampled_guest_util_pct && compared == 0) return;
  std::string m = "Perfmon's counters against the ETW trace in this window:";
  if (r.sampled_guest_util_pct && r.guest_util_pct)
    m += " guest total sampled " + Pct(*r.sampled_guest_util_pct) + ", events " + Pct(*r.guest_util_pct) + ";";
  if (worst) {
    m += " most off of " + std::to_string(compared) + " processes compared: " + worst->name + " sampled " +
         Pct(*worst->sampled_pct) + ", events " + Pct(*worst->guest_pct) + " of one CPU";
  } else {
    m += " no process of the trace is in the log by the same name and pid";
  }
  flags->push_back(Flag{"sampled-vs-events", Severity::kInfo, std::move(m)});
}

}  // namespace

const char* BasisName(Basis b) {
  switch (b) {
    case Basis::kEvents: return "events";
    case Basis::kProfile: return "profile";
    case Basis::kCycles: return "cycles";
    case Basis::kSamples: break;
  }
  return "samples";
}

namespace {

// The trace's total has a value in window w and covers enough of it, or Perfmon has no total.
bool UseTrace(const EventSeries& trace, const VmSeries& vm, int w, const CorrectionConfig& config) {
  if (!trace.total || !trace.total->Mean(w)) return false;
  if (trace.total->Coverage(w) >= config.min_coverage) return true;
  if (vm.guest_total && vm.guest_total->Mean(w)) return false;
  return std::none_of(vm.guest_cpus.begin(), vm.guest_cpus.end(),
                      [w](const WindowSeries& s) { return s.Mean(w).has_value(); });
}

}  // namespace

bool UseEvents(const VmSeries& vm, int w, const CorrectionConfig& config) { return UseTrace(vm.events, vm, w, config); }

bool UseProfile(const VmSeries& vm, int w, const CorrectionConfig& config) {
  return UseTrace(vm.profile, vm, w, config);
}

bool UseCycles(const VmSeries& vm, int w, const CorrectionConfig& config) { return UseTrace(vm.cycles, vm, w, config); }

namespace {

// Perfmon's figures beside a counted basis's: the total and each process's, where the log covers
// the window.
void AddSampledFigures(const VmSeries& vm, int w, WindowResult* r) {
  if (!vm.guest_total || !vm.guest_total->Mean(w)) return;
  r->sampled_guest_util_pct = vm.guest_total->Mean(w);
  for (ProcessResult& p : r->processes) {
    if (const auto [name, s] = SampledSeries(vm, p.name, w); s) {
      p.sampled_pct = OverSpan(s->at(w), vm.guest_total->at(w).covered_s);
      p.sampled_name = *name;
    }
  }
}

}  // namespace

void AddPerfmonFigures(const VmSeries& vm, int w, WindowResult* r) { AddSampledFigures(vm, w, r); }

namespace {

// A Perfmon process's trace name, "name:pid": Process V2's instance as it is, a Process instance
// ("name" or "name#k") by the one ID Process it read through the window; "" where it read none
// or several.
std::string TraceName(const VmSeries& vm, const std::string& instance, int w) {
  if (instance.find(':') != std::string::npos) return instance;
  const auto ids = vm.process_ids.find(instance);
  if (ids == vm.process_ids.end()) return "";
  const WindowStats& s = ids->second.at(w);
  if (s.samples == 0 || s.min != s.max) return "";
  return instance.substr(0, instance.find('#')) + ":" + std::to_string(static_cast<long long>(s.min));
}

}  // namespace

void AddOtherBases(const VmSeries& vm, int w, WindowResult* r) {
  const std::pair<Basis, const EventSeries*> traces[] = {
      {Basis::kEvents, &vm.events}, {Basis::kCycles, &vm.cycles}, {Basis::kProfile, &vm.profile}};
  for (const auto& [basis, trace] : traces) {
    if (basis == r->basis || !trace->total || !trace->total->Mean(w)) continue;
    r->other_bases.push_back({basis, *trace->total->Mean(w)});
    const double span_s = trace->total->at(w).covered_s;
    for (ProcessResult& p : r->processes) {
      const std::string name = r->basis == Basis::kSamples ? TraceName(vm, p.name, w) : p.name;
      const auto it = trace->processes.find(name);
      if (it == trace->processes.end() || !it->second.cpu) continue;
      if (const std::optional<double> v = OverSpan(it->second.cpu->at(w), span_s)) p.other_bases.push_back({basis, *v});
    }
  }
  if (r->basis == Basis::kSamples || !r->sampled_guest_util_pct) return;
  r->other_bases.push_back({Basis::kSamples, *r->sampled_guest_util_pct});
  for (ProcessResult& p : r->processes)
    if (p.sampled_pct) p.other_bases.push_back({Basis::kSamples, *p.sampled_pct});
}

void AddEventFigures(const VmSeries& vm, int w, WindowResult* r) {
  r->basis = Basis::kEvents;
  const double span_s = vm.events.total->at(w).covered_s;
  AddSampledFigures(vm, w, r);
  for (ProcessResult& p : r->processes) {
    p.basis = Basis::kEvents;
    const auto it = vm.events.processes.find(p.name);
    if (it == vm.events.processes.end()) continue;
    const EventProcessSeries& e = it->second;
    if (e.bottleneck) p.bottleneck_pct = OverSpan(e.bottleneck->at(w), span_s);
    // % Queue Time is queue time per second, the rate switch-ins per second: their ratio is the
    // queue time per switch-in (x 10 turns % per switch-in into ms).
    if (e.queue && e.switch_ins) {
      const std::optional<double> q = e.queue->Mean(w), rate = e.switch_ins->Mean(w);
      if (q && rate && *rate > 0) p.queue_ms_mean = *q * 10 / *rate;
    }
    // The p95 of the 5-minute window the window lies in; where it spans several, the largest.
    if (e.queue_p95 && e.queue_p95->at(w).samples > 0) p.queue_ms_p95 = e.queue_p95->at(w).max;
  }
  FlagComparison(*r, &r->flags);
  const std::optional<double> dpc = vm.events.dpc ? vm.events.dpc->Mean(w) : std::nullopt;
  const std::optional<double> isr = vm.events.isr ? vm.events.isr->Mean(w) : std::nullopt;
  if (dpc || isr) r->dpc_isr_pct = dpc.value_or(0) + isr.value_or(0);
  const std::optional<double> unknown = vm.events.unknown ? vm.events.unknown->Mean(w) : std::nullopt;
  if (unknown && *unknown > 0.1) {
    r->flags.push_back(Flag{"events-lost", Severity::kWarning,
                            "the ETW trace lost events: " + Pct(*unknown) +
                                " of the CPUs' time in this window is unknown, neither busy nor idle; the event "
                                "figures leave it out, so they may read low and w high by up to that much"});
  }
}

void FlagPartialTrace(const VmSeries& vm, int w, const CorrectionConfig& config, WindowResult* r) {
  if (!vm.events.total || vm.events.total->at(w).covered_s <= 0) return;
  r->flags.push_back(Flag{"events-partial", Severity::kInfo,
                          "the ETW trace covers " + Pct(100 * vm.events.total->Coverage(w)) +
                              " of this window (under " + Pct(100 * config.min_coverage) +
                              "), so the window is corrected from Perfmon's counters; a --window the trace covers "
                              "whole uses its events"});
}

}  // namespace vrecon::models
