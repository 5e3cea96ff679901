// w compares host and guest over the same seconds. Where the guest has data for only part of a
// window (a reboot, a logger that stopped) and the host for all of it, the host's whole-window mean
// includes seconds the guest says nothing about (a reboot's boot CPU), and H / G then divides two
// different spans (issue 14: 1.304 where the same seconds give 1.2055).
#ifndef VRECON_MODELS_SAME_SECONDS_H_
#define VRECON_MODELS_SAME_SECONDS_H_

#include <optional>
#include <vector>

#include "models/clock_alignment.h"
#include "models/window_series.h"

namespace vrecon::models {

// Per window of `grid`: the time-weighted mean of the `host` samples over only the seconds the
// `guest` samples cover, both on the host's time axis (each list sorted by start). nullopt where
// the guest covers the whole window (within 1%), none of it, or the host has no sample in those
// seconds: the whole-window figures are then the same-seconds ones.
std::vector<std::optional<double>> HostOverGuestSeconds(const WindowGrid& grid, const std::vector<TimedValue>& guest,
                                                        const std::vector<TimedValue>& host);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_SAME_SECONDS_H_
