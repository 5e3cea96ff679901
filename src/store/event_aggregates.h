// The event part of the hourly process aggregates (ProcessAggregate's n_events ... fields): what
// windows corrected from an ETW trace add, in corr_process_hour.events, a blob beside `procs` so
// that hours stored before schema 13 (NULL there) still read. Per process with events:
//   u16 name length, name, i64 n_events, n_bottleneck, n_queue, n_paired,
//   f64 sum_bottleneck, sum_queue_ms, sum_sampled, sum_paired_events, max_queue_p95 (NaN: none)
// little-endian (src/store/blob_codec.h). Processes without events are left out.
#ifndef VRECON_SRC_STORE_EVENT_AGGREGATES_H_
#define VRECON_SRC_STORE_EVENT_AGGREGATES_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/status.h"
#include "src/store/correction_tables.h"

namespace vrecon {

std::string EncodeEventAggregates(const std::vector<ProcessAggregate>& procs);

// Adds each process's event sums in `blob` to the aggregate `find` returns for its name.
Status DecodeEventAggregates(std::string_view blob, const std::function<ProcessAggregate*(std::string_view)>& find);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_EVENT_AGGREGATES_H_
