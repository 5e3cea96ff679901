#include "models/interval_flags.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "src/core/text_util.h"
#include "src/core/time_util.h"

namespace vrecon::models {
namespace {

std::string Clock(TimeNs t) { return FormatIso(t, false).substr(11, 8); }

// Per-window tallies of jittered intervals, so one window gets one jitter flag.
struct JitterTally {
  int count = 0;
  double worst = 0;  // signed spacing minus median with the largest magnitude
};

}  // namespace

std::vector<TimeNs> GuestTimeline::Steps() const {
  std::vector<TimeNs> out;
  for (const ClockEvent& e : events)
    // A reboot restarts the clock too: the offset on either side is estimated apart.
    if (e.kind == ClockEventKind::kStep || e.kind == ClockEventKind::kRestart) out.push_back(e.at);
  return out;
}

GuestTimeline AnalyzeGuestTimes(std::span<const TimeNs> ends, std::span<const ClockEvent> recorded,
                                const TimelineConfig& cfg) {
  GuestTimeline t;
  t.events.assign(recorded.begin(), recorded.end());
  std::vector<double> d;
  d.reserve(ends.size());
  for (size_t i = 1; i < ends.size(); ++i) d.push_back(ToSeconds(ends[i] - ends[i - 1]));
  if (!d.empty()) {
    std::vector<double> sorted;
    for (double x : d)
      if (x > 0) sorted.push_back(x);
    if (!sorted.empty()) {
      std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
      t.median_spacing_s = sorted[sorted.size() / 2];
    }
  }
  const double m = t.median_spacing_s;
  // A recorded backward step comes as the skipped row's time minus the previous kept row's; the
  // clock stepped by that less the one spacing the row should have come after.
  for (ClockEvent& e : t.events)
    if (e.kind == ClockEventKind::kStep) e.size_s -= m;
  std::vector<TimeNs> boots;
  for (const ClockEvent& e : t.events)
    if (e.kind == ClockEventKind::kRestart) boots.push_back(e.at);
  std::sort(boots.begin(), boots.end());
  // The spacing that holds a boot is the reboot itself, not a gap, jitter or a step.
  auto holds_boot = [&](TimeNs from, TimeNs to) {
    auto it = std::lower_bound(boots.begin(), boots.end(), from);
    return it != boots.end() && *it <= to;
  };
  if (m > 0) {
    const double tol = std::max(cfg.jitter_fraction * m, cfg.jitter_min_s);
    for (size_t i = 0; i < d.size(); ++i) {
      const TimeNs at = ends[i + 1];
      if (holds_boot(ends[i], at)) continue;
      const double k = std::max(1.0, std::round(d[i] / m));
      const double r = d[i] - k * m;  // off the sampling schedule by this much
      if (std::abs(r) <= tol && d[i] > 0) {
        if (d[i] >= cfg.gap_factor * m) t.events.push_back({ClockEventKind::kGap, at, d[i]});
        continue;
      }
      // A late (or early) sample that the next spacing makes up for is jitter: the schedule
      // holds. Off the schedule for good, or time not moving forward, is a clock step; the
      // sampler keeps its schedule, so the step is read as one interval plus the jump.
      const double r1 = d[i] - m;
      const bool made_up = d[i] > 0 && i + 1 < d.size() && std::abs((d[i + 1] - m) + r1) <= tol;
      if (made_up) {
        t.events.push_back({ClockEventKind::kJitter, at, r1});
        ++i;  // the making-up spacing is part of the same event
      } else {
        t.events.push_back({ClockEventKind::kStep, at, r1});
      }
    }
  }
  std::stable_sort(t.events.begin(), t.events.end(), EarlierEvent);
  return t;
}

ClockModel AlignGuestClock(GuestTimeline* tl, std::span<const TimedValue> guest, std::span<const TimedValue> host,
                           const AlignmentConfig& alignment, const TimelineConfig& cfg,
                           std::vector<RangeEstimate>* ranges) {
  // Each gap: the offset measured on one range just before it and one just after (the offset of
  // a guest losing ticks moves, so the ranges next to the gap say more than a segment's line).
  const TimeNs len = static_cast<TimeNs>(alignment.range_s * kNsPerSec);
  for (ClockEvent& e : tl->events) {
    if (e.kind != ClockEventKind::kGap) continue;
    const std::vector<RangeEstimate> before = RangeOffsets(guest, host, e.at - len, e.at, alignment);
    const std::vector<RangeEstimate> after = RangeOffsets(guest, host, e.at, e.at + len, alignment);
    if (before.empty() || after.empty() || !before.back().offset_s || !after.front().offset_s) continue;
    const double jump = *after.front().offset_s - *before.back().offset_s;
    if (std::abs(jump) > cfg.elapsed_tolerance_s) e = ClockEvent{ClockEventKind::kStep, e.at, jump};
  }
  return EstimateClock(guest, host, tl->Steps(), alignment, ranges);
}

namespace {

// The window of the grid a guest time falls in (on the host's clock when aligned); -1 outside.
struct WindowOf {
  const ClockModel& model;
  const WindowGrid& grid;
  bool aligned;
  int operator()(TimeNs guest) const {
    if (grid.count == 0) return -1;
    const TimeNs h = aligned ? model.ToHost(guest) : guest;
    if (h < grid.origin || h >= grid.End(grid.count - 1)) return -1;
    return static_cast<int>((h - grid.origin) / grid.width);
  }
};

// The flag of one clock event; none for jitter, which is tallied per window. `median` is the
// sample spacing's median, `med` the same as text.
std::optional<Flag> EventFlag(const ClockEvent& e, double median, const std::string& med) {
  const std::string when = Clock(e.at) + " UTC (guest clock)";
  switch (e.kind) {
    case ClockEventKind::kGap:
      return Flag{"gap", Severity::kWarning,
                  "the guest logged no sample for " + FormatFixed(e.size_s, 0) + " s before " + when + " (about " +
                      FormatFixed(std::round(e.size_s / median) - 1, 0) + " missed samples at " + med +
                      "); the window's guest figures rest on the samples around the gap"};
    case ClockEventKind::kStep:
      return Flag{"clock-step", Severity::kWarning,
                  std::string("the guest clock stepped ") + (e.size_s >= 0 ? "forward" : "backward") + " by " +
                      FormatFixed(std::abs(e.size_s), 1) + " s at " + when +
                      " (a resync or lost-tick catch-up); the sample interval around it is not " + med +
                      " of real time and the clock estimate restarts there"};
    case ClockEventKind::kRestart:
      return Flag{"guest-restart", Severity::kWarning,
                  "the guest restarted at " + when +
                      " (its uptime started again): the silence before it is a reboot, not a clock step; "
                      "the figures on each side belong to separate boots"};
    case ClockEventKind::kDstShift:
      return Flag{"dst-shift", Severity::kInfo,
                  std::string("the guest's local time ") + (e.size_s >= 0 ? "jumped forward" : "went back") +
                      " one hour at " + when +
                      " (daylight saving time); vrecon stored UTC, so the figures are continuous, but "
                      "local-time reports of this guest repeat or skip an hour here"};
    case ClockEventKind::kJitter: break;  // tallied a window at a time (AddEventFlags)
  }
  return std::nullopt;
}

// The timeline's events as flags of the windows they fall in; jitter as one flag a window.
void AddEventFlags(const GuestTimeline& tl, const WindowOf& window_of, std::vector<std::vector<Flag>>* out) {
  const double m = tl.median_spacing_s;
  const std::string med = FormatFixed(m, m < 10 ? 1 : 0) + " s";
  std::vector<JitterTally> jitter(out->size());
  for (const ClockEvent& e : tl.events) {
    const int w = window_of(e.at);
    if (w < 0) continue;
    if (e.kind == ClockEventKind::kJitter) {
      ++jitter[w].count;
      if (std::abs(e.size_s) > std::abs(jitter[w].worst)) jitter[w].worst = e.size_s;
    } else if (std::optional<Flag> f = EventFlag(e, m, med)) {
      (*out)[w].push_back(std::move(*f));
    }
  }
  for (size_t w = 0; w < jitter.size(); ++w) {
    if (jitter[w].count == 0) continue;
    (*out)[w].push_back(Flag{"interval-jitter", Severity::kInfo,
                             std::to_string(jitter[w].count) +
                                 " guest sample interval(s) in this window were off the " + med + " median by up to " +
                                 FormatFixed(jitter[w].worst, 1) +
                                 " s and made up by the next one; each such sample's value covers an uneven span"});
  }
}

// Per window: the clock estimate's offset unknown there, or its segment's drift enough to make
// the guest's elapsed time wrong.
void AddDriftFlags(const ClockModel& model, const WindowGrid& grid, const TimelineConfig& cfg,
                   std::vector<std::vector<Flag>>* out) {
  const double window_s = ToSeconds(grid.width);
  for (int w = 0; w < grid.count; ++w) {
    // The guest time of the window's middle (offsets change slowly: one fixed-point step).
    const TimeNs mid_h = grid.Start(w) + grid.width / 2;
    const std::optional<double> off0 = model.OffsetAt(mid_h);
    const TimeNs mid_g = mid_h + static_cast<TimeNs>(off0.value_or(0) * kNsPerSec);
    if (!model.OffsetAt(mid_g)) {
      (*out)[w].push_back(Flag{"alignment-unknown", Severity::kInfo,
                               "the guest clock's offset against the host could not be estimated here (the CPU "
                               "series are too flat, too short or do not match); guest times are used as they are "
                               "(offset 0)"});
      continue;
    }
    // The drift of the window's own segment: a step inside the window is a clock-step flag.
    double drift_ppm = 0;
    for (const ClockSegment& seg : model.segments)
      if (seg.guest_from <= mid_g) drift_ppm = seg.drift_ppm;
    const double extra_s = drift_ppm * 1e-6 * window_s;  // guest seconds counted beyond the host's
    if (std::abs(extra_s) > std::max(cfg.elapsed_tolerance_s, 0.005 * window_s)) {
      (*out)[w].push_back(Flag{"elapsed-mismatch", Severity::kWarning,
                               "over this window the guest clock counted " + FormatFixed(window_s + extra_s, 1) +
                                   " s while the host counted " + FormatFixed(window_s, 0) +
                                   " s: the guest's rates and percentages use the wrong elapsed time"});
    }
  }
}

// Ranges whose own offset is off the fitted segment's: elapsed-mismatch on their windows that do
// not have it yet.
void AddRangeFlags(std::span<const RangeEstimate> ranges, const ClockModel& model, const WindowOf& window_of,
                   const TimelineConfig& cfg, std::vector<std::vector<Flag>>* out) {
  const int count = static_cast<int>(out->size());
  for (const RangeEstimate& r : ranges) {
    if (!r.offset_s) continue;
    const TimeNs mid = (r.from + r.to) / 2;
    const auto fitted = model.OffsetAt(mid);
    if (!fitted || std::abs(*r.offset_s - *fitted) <= cfg.elapsed_tolerance_s) continue;
    const int w0 = window_of(r.from), w1 = window_of(r.to - 1);
    for (int w = std::max(0, w0); w >= 0 && w <= w1 && w < count; ++w) {
      std::vector<Flag>& flags = (*out)[w];
      if (std::any_of(flags.begin(), flags.end(), [](const Flag& f) { return f.code == "elapsed-mismatch"; })) continue;
      flags.push_back(Flag{"elapsed-mismatch", Severity::kWarning,
                           "between " + Clock(r.from) + " and " + Clock(r.to) + " UTC the guest clock was " +
                               FormatFixed(*r.offset_s, 1) + " s ahead of the host instead of the " +
                               FormatFixed(*fitted, 1) +
                               " s its segment's estimate gives: guest and host elapsed times disagree there"});
    }
  }
}

}  // namespace

std::vector<std::vector<Flag>> IntervalFlags(const GuestTimeline& tl, const ClockModel& model,
                                             std::span<const RangeEstimate> ranges, const WindowGrid& grid,
                                             bool aligned, const TimelineConfig& cfg) {
  std::vector<std::vector<Flag>> out(grid.count);
  const WindowOf window_of{model, grid, aligned};
  AddEventFlags(tl, window_of, &out);
  if (!aligned || model.segments.empty()) return out;
  AddDriftFlags(model, grid, cfg, &out);
  AddRangeFlags(ranges, model, window_of, cfg, &out);
  return out;
}

}  // namespace vrecon::models
