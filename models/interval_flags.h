// The guest's sample timestamps read as a clock: median spacing, interval jitter, gaps, clock
// steps (forward and backward), DST shifts and guest-versus-host elapsed-time disagreement, and
// the per-window flags a capacity planner reads from them (docs/flags.md, docs/alignment.md).
#ifndef VRECON_MODELS_INTERVAL_FLAGS_H_
#define VRECON_MODELS_INTERVAL_FLAGS_H_

#include <span>
#include <vector>

#include "models/clock_alignment.h"
#include "models/correction.h"

namespace vrecon::models {

struct TimelineConfig {
  double jitter_fraction = 0.10;     // a spacing off the median by more than this share ...
  double jitter_min_s = 1.0;         // ... or this many seconds, whichever is larger, is off
  double gap_factor = 1.5;           // a spacing at least this many medians is a gap
  double elapsed_tolerance_s = 3.0;  // a range's offset this far off its segment's line, or a
                                     // window's guest and host elapsed times this far apart
};

// kRestart: the guest booted at `at` (an uptime counter that went back, sar's LINUX RESTART): the
// silence before it is a reboot, not a gap or a clock step.
enum class ClockEventKind { kJitter, kGap, kStep, kDstShift, kRestart };

// One event at guest time `at` (the end of the sample interval where it shows).
struct ClockEvent {
  ClockEventKind kind = ClockEventKind::kJitter;
  TimeNs at = 0;
  double size_s = 0;  // jitter: spacing minus median; gap: the silent spacing; step: + forward, - backward;
                      // DST: + when local time jumped forward (spring), - when it went back
};

// Orders events by time (the order GuestTimeline and the recorded events keep).
inline bool EarlierEvent(const ClockEvent& a, const ClockEvent& b) { return a.at < b.at; }

struct GuestTimeline {
  double median_spacing_s = 0;     // 0 when the guest has fewer than two sample intervals
  std::vector<ClockEvent> events;  // sorted by time
  // Guest times that split the clock estimate: the clock steps.
  std::vector<TimeNs> Steps() const;
};

// `ends`: the guest's Processor(_Total) sample end times as stored (sorted). `recorded`: what
// ingest saw and the stored times no longer show (DST shifts, rows skipped because time went
// backwards, as steps whose size_s is the skipped row's time minus the previous row's), from
// import_issue.
GuestTimeline AnalyzeGuestTimes(std::span<const TimeNs> ends, std::span<const ClockEvent> recorded,
                                const TimelineConfig& config);

// Estimates the guest clock (EstimateClock) with the timeline's steps as cuts, and decides what
// each gap was: a gap whose two sides are estimated with offsets more than
// config.elapsed_tolerance_s apart was a clock step (a pause, a resync after lost ticks) and
// becomes one in `timeline`, of the measured size; else it stays a gap.
ClockModel AlignGuestClock(GuestTimeline* timeline, std::span<const TimedValue> guest, std::span<const TimedValue> host,
                           const AlignmentConfig& alignment, const TimelineConfig& config,
                           std::vector<RangeEstimate>* ranges);

// Flags for each window of `grid` (host time). `model` maps guest to host time; with
// `aligned` false the model is ignored and no alignment-unknown or elapsed-mismatch flag is raised.
std::vector<std::vector<Flag>> IntervalFlags(const GuestTimeline& timeline, const ClockModel& model,
                                             std::span<const RangeEstimate> ranges, const WindowGrid& grid,
                                             bool aligned, const TimelineConfig& config);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_INTERVAL_FLAGS_H_
