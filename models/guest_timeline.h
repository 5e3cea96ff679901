// A VM's guest side is one timeline: when a guest was rebuilt under a new name, both guests' logs
// belong to the VM, one after the other. Each guest is corrected against the VM's host side on
// one grid; this joins the results window by window.
#ifndef VRECON_MODELS_GUEST_TIMELINE_H_
#define VRECON_MODELS_GUEST_TIMELINE_H_

#include <vector>

#include "models/correction.h"

namespace vrecon::models {

// Per window start: the one guest with data there; the host-only window where none has; and
// where several have, the one that covers the most of the window. When their data overlap in
// time (coverages summing above 1 + `tolerance`) the window carries the error flag
// `guest-conflict` naming them, and w and the corrected values are withheld: two guests claim the
// same seconds of one VM, so neither w can be trusted. Input: per guest, windows in time order.
std::vector<WindowResult> JoinGuestTimelines(std::vector<std::vector<WindowResult>> per_guest, double tolerance = 0.05);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_GUEST_TIMELINE_H_
