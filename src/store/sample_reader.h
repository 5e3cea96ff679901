// Reads series and their samples back out of the store.
#ifndef VRECON_SRC_STORE_SAMPLE_READER_H_
#define VRECON_SRC_STORE_SAMPLE_READER_H_

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "src/core/sample.h"
#include "src/store/sqlite_db.h"

namespace vrecon {

struct StoredSeries {
  int64_t id = 0;
  SeriesKey key;
};

// Each field, when set, is a case-insensitive glob ('*', '?') on the stored English name.
struct SeriesFilter {
  std::optional<std::string> source, machine, object, instance, counter;
};

StatusOr<std::vector<StoredSeries>> FindSeries(Database* db, const SeriesFilter& filter);

struct TimeRange {
  TimeNs from = std::numeric_limits<TimeNs>::min();
  TimeNs to = std::numeric_limits<TimeNs>::max();
};

// Calls `visit(start, end, value)` for each stored sample of the series whose interval
// overlaps `range` (an instantaneous first sample counts when it lies inside), in time order
// within each file. value is kMissing for a missing value.
Status ForEachSample(Database* db, int64_t series_id, const TimeRange& range,
                     const std::function<void(TimeNs start, TimeNs end, double value)>& visit);

// Earliest start and latest end stored for any of the series; nullopt when none has data.
StatusOr<std::optional<TimeRange>> SeriesSpan(Database* db, const std::vector<int64_t>& series_ids);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_SAMPLE_READER_H_
