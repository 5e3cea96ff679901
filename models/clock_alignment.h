// The guest clock against the host clock. A guest's timestamps are in its "apparent time": they
// drift while the VM waits for a CPU and jump when the clock is resynchronised (seed 000). This
// estimates, per segment between clock steps, offset(t) = a + b*t of the guest clock against the
// host's by matching the guest and host utilization series over sliding ranges (cross-correlation
// over candidate lags on a fine common grid built by overlap weights, then a least-squares line
// through the per-range lags). Pure code: the engine reads the series and applies ToHost.
#ifndef VRECON_MODELS_CLOCK_ALIGNMENT_H_
#define VRECON_MODELS_CLOCK_ALIGNMENT_H_

#include <optional>
#include <span>
#include <vector>

#include "src/core/time_util.h"

namespace vrecon::models {

// Guest time in [guest_from, guest_to) maps to host time guest - offset(guest), where
// offset(guest) = offset_s + drift_ppm * 1e-6 * (guest - guest_from) seconds.
struct ClockSegment {
  TimeNs guest_from = 0, guest_to = 0;
  double offset_s = 0;
  double drift_ppm = 0;
  bool estimated = false;  // false: the series were too flat or too short; offset 0 is used
  // The largest distance of a per-range offset from the fitted line (seconds): how far the clock
  // strays from the line inside the segment (drift that is not linear), so how far off a window
  // may be.
  double residual_s = 0;
  // Guest-time spans where no range gave an offset (too flat, or no clear correlation) and no
  // other range covers: the line is extrapolated there, so a window may be off by up to
  // `blind_shift_s` (the lag searched).
  std::vector<std::pair<TimeNs, TimeNs>> blind;
  double blind_shift_s = 0;
};

struct ClockModel {
  std::vector<ClockSegment> segments;                  // empty: identity
  TimeNs ToHost(TimeNs guest) const;                   // guest time -> host (true UTC) time
  std::optional<double> OffsetAt(TimeNs guest) const;  // guest - host, seconds; nullopt if not estimated
  // How far the line may be off at `guest`: the segment's residual_s, or blind_shift_s in a blind
  // span; 0 outside every segment.
  double ResidualAt(TimeNs guest) const;
};

// One sample interval as stored: [start, end] in UTC ns and its value (never NaN here).
struct TimedValue {
  TimeNs start = 0, end = 0;
  double value = 0;
};
// The median length of the samples that have one (a series' typical interval); nullopt when none
// has.
std::optional<TimeNs> MedianSampleLength(const std::vector<TimedValue>& samples);

struct AlignmentConfig {
  double max_lag_s = 180;        // candidate lags searched, +-
  double grid_s = 1;             // common grid resolution for the correlation
  double range_s = 3600;         // sliding range length
  double range_step_s = 3600;    // sliding range step
  double min_range_s = 900;      // a segment shorter than this is not estimated
  double min_stddev_pct = 1.0;   // a series flatter than this (std dev, % points) cannot be matched
  double min_correlation = 0.3;  // a range whose best correlation is below this is not used
};

// The offset measured on one sliding range [from, to) of guest time; nullopt when the series
// were too flat there, too sparse, or did not correlate.
struct RangeEstimate {
  TimeNs from = 0, to = 0;
  std::optional<double> offset_s;
};

// Sliding ranges over [from, to) of guest time (one range when shorter than range_s, none when
// shorter than min_range_s). `guest` and `host` sorted by start; host may hold several
// overlapping series (Hyper-V VPs), averaged.
std::vector<RangeEstimate> RangeOffsets(std::span<const TimedValue> guest, std::span<const TimedValue> host,
                                        TimeNs from, TimeNs to, const AlignmentConfig& config);

// Estimates the clock model of one VM. `guest` and `host` are utilization series (any host
// scale: correlation is scale-free), sorted by start. `steps` are guest times where the guest
// clock jumped (resync, DST, backwards time); they split the estimate into segments. The
// per-range measurements go to `ranges` when given (for the elapsed-mismatch flag).
ClockModel EstimateClock(std::span<const TimedValue> guest, std::span<const TimedValue> host,
                         std::span<const TimeNs> steps, const AlignmentConfig& config,
                         std::vector<RangeEstimate>* ranges = nullptr);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_CLOCK_ALIGNMENT_H_
