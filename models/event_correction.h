// The correction on an ETW trace's figures (issue 18): where a context-switch trace covers a
// window, the guest total and each process's CPU come from the events instead of Perfmon's
// tick-sampled counters. w = host / event-based guest total, each process is corrected w x its
// event CPU, and its interval holds w's uncertainty only (no tick sampling). The events also give
// what counters cannot: each process's bottleneck ratio (seed 002: a process bound by one thread
// runs the whole window on one CPU at a time) and its CPU queue time. Where a Perfmon log of the
// same guest covers the window too, each process's sampled figure is kept beside the event one
// (sampled-vs-events), which shows how far the counters were off.
#ifndef VRECON_MODELS_EVENT_CORRECTION_H_
#define VRECON_MODELS_EVENT_CORRECTION_H_

#include "models/correction.h"

namespace vrecon::models {

// Whether window w takes its guest figures from the trace: the trace's total has a value there
// and covers at least config.min_coverage of the window, or Perfmon has no total there.
bool UseEvents(const VmSeries& vm, int w, const CorrectionConfig& config);

// The same for the guest's sampled profile (vm.profile): where no context-switch trace does, a
// profile that covers the window is preferred to Perfmon's 64 Hz ticks.
bool UseProfile(const VmSeries& vm, int w, const CorrectionConfig& config);

// The same for the agent's cycle counts (vm.cycles): where no context-switch trace covers the
// window, before a profile and Perfmon's ticks.
bool UseCycles(const VmSeries& vm, int w, const CorrectionConfig& config);

// A cycles- or profile-basis window: Perfmon's total and each process's Perfmon figure (same name
// and pid) beside the window's own, as an events-basis window has them.
void AddPerfmonFigures(const VmSeries& vm, int w, WindowResult* r);

// The figures of every basis that covers window w besides r's own: the guest total and each
// process found there by name and pid (a Perfmon process by its ID Process through the window).
void AddOtherBases(const VmSeries& vm, int w, WindowResult* r);

// An events-basis window whose processes CorrectVm built from vm.events: adds each process's
// bottleneck and queue times and Perfmon's figure for it, Perfmon's total, the DPC and interrupt
// time, and the flags sampled-vs-events and events-lost.
void AddEventFigures(const VmSeries& vm, int w, WindowResult* r);

// A samples-basis window that a trace covers in part: the events-partial flag says why the trace
// was not used.
void FlagPartialTrace(const VmSeries& vm, int w, const CorrectionConfig& config, WindowResult* r);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_EVENT_CORRECTION_H_
