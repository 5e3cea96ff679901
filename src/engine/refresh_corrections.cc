#include "src/engine/refresh_corrections.h"

#include <algorithm>

#include "src/engine/stored_corrections.h"
#include "src/store/window_blocks.h"

namespace vrecon {

StatusOr<std::optional<RefreshedSpan>> RefreshStoredCorrections(Store* store, TimeNs first_new_end,
                                                                TimeNs last_new_end) {
  ASSIGN_OR_RETURN(std::optional<TimeNs> length, NewestCorrWindowLength(store));
  if (!length || *length <= 0) return std::optional<RefreshedSpan>();
  CorrectionRequest req;
  req.window = *length;
  // A margin on each side: a sample's interval starts before its end, a sample near a window's
  // edge weighs on the neighbour through its span, and the clock alignment may move guest
  // samples by up to its largest lag.
  const TimeNs margin =
      std::max<TimeNs>(2 * *length, static_cast<TimeNs>(req.alignment.max_lag_s * kNsPerSec) + *length);
  req.from = FloorTo(first_new_end - margin, *length);
  req.new_samples_from = first_new_end;
  req.to = FloorTo(last_new_end + margin, *length) + *length;
  StatusOr<int64_t> n = StoreCorrections(store, req);
  if (!n.ok()) {
    if (n.status().IsNotFound()) return std::optional<RefreshedSpan>();
    return n.status();
  }
  return std::optional<RefreshedSpan>(RefreshedSpan{*req.from, *req.to, *n});
}

}  // namespace vrecon
