// Turns the counter paths of a log's header into series keys: English meaning, unit, and the
// source the file represents (guest, VMware Tools inside a guest, Hyper-V host, esxtop).
#ifndef VRECON_ADAPTERS_PERFMON_PERFMON_COLUMNS_H_
#define VRECON_ADAPTERS_PERFMON_PERFMON_COLUMNS_H_

#include <string>
#include <vector>

#include "src/core/sample.h"

namespace vrecon::perfmon {

struct ColumnPlan {
  std::vector<int> map;  // header cell (after the first) -> index in columns, or -1
  std::vector<SeriesKey> columns;
  std::vector<std::string> problems;  // one sentence per cell that could not be used
};

// A file with any Hyper-V Hypervisor object is a Hyper-V host log; one with esxtop objects
// (Group Cpu, Physical Cpu, Vcpu) is an esxtop batch capture: every column of such files is
// host-side. In other files VM Processor / VM Memory columns are VMware Tools counters.
ColumnPlan PlanColumns(const std::vector<std::string>& counter_paths);

}  // namespace vrecon::perfmon

#endif  // VRECON_ADAPTERS_PERFMON_PERFMON_COLUMNS_H_
