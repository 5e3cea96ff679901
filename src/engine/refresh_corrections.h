// After an ingest: a store that holds stored corrections (a fleet store, or one a report was made
// from) gets them recomputed over the span of the new rows, so the next `vrecon report` includes
// them without recomputing everything.
#ifndef VRECON_SRC_ENGINE_REFRESH_CORRECTIONS_H_
#define VRECON_SRC_ENGINE_REFRESH_CORRECTIONS_H_

#include <cstdint>
#include <optional>

#include "src/core/sample.h"
#include "src/core/status.h"

namespace vrecon {

class Store;

struct RefreshedSpan {
  TimeNs from = 0, to = 0;  // the windows recomputed, [from, to)
  int64_t windows = 0;
};

// New rows with sample ends in [first_new_end, last_new_end]: recomputes the stored corrections
// over that span with margins, at the window length they were stored with. nullopt when the store
// holds no stored corrections, or no VM has both sides yet.
StatusOr<std::optional<RefreshedSpan>> RefreshStoredCorrections(Store* store, TimeNs first_new_end,
                                                                TimeNs last_new_end);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_REFRESH_CORRECTIONS_H_
