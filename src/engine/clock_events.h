// Clock events ingest saw that the stored UTC times no longer show: daylight-saving shifts and
// rows skipped because the guest's time went backwards, as every reader records them in the
// store's clock_event table (core ClockRecord; schema 7), not as issue text.
#ifndef VRECON_SRC_ENGINE_CLOCK_EVENTS_H_
#define VRECON_SRC_ENGINE_CLOCK_EVENTS_H_

#include <map>
#include <string>
#include <vector>

#include "models/interval_flags.h"
#include "src/store/store.h"

namespace vrecon {

// Normalized guest machine name (models::NormalizeVmName) -> its recorded events, by time.
// A backward step's size is filled in later from the median spacing (AnalyzeGuestTimes does not
// know it either): here it is the row's time minus the previous row's.
StatusOr<std::map<std::string, std::vector<models::ClockEvent>>> RecordedClockEvents(Store* store);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CLOCK_EVENTS_H_
