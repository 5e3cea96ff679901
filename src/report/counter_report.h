// Writes the typed guest counters of corrected windows (docs/counter-types.md): the JSON array a
// window of `vrecon correct --counters` carries, and the `vrecon counters` listing as a table,
// CSV or JSON. The shapes are a contract (docs/cli.md).
#ifndef VRECON_SRC_REPORT_COUNTER_REPORT_H_
#define VRECON_SRC_REPORT_COUNTER_REPORT_H_

#include <ostream>
#include <vector>

#include "models/correction.h"
#include "models/counter_windows.h"
#include "src/report/output.h"

namespace vrecon {

// [{"path", "type", "guest_value", "value", "unit", "count", "note"}, ...]
void WriteCounterJsonArray(std::ostream& os, const std::vector<models::CounterValue>& counters);

// counters[i] belongs to windows[i].
void WriteCounters(std::ostream& os, const std::vector<models::WindowResult>& windows,
                   const std::vector<std::vector<models::CounterValue>>& counters, OutputFormat format);

}  // namespace vrecon

#endif  // VRECON_SRC_REPORT_COUNTER_REPORT_H_
