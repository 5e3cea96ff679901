// `vrecon capacity`'s outputs (docs/capacity.md, "Output"): JSON, CSV (one row per entity, the
// daily forecast in a second CSV), and a table, worst first.
#ifndef VRECON_SRC_REPORT_CAPACITY_OUTPUT_H_
#define VRECON_SRC_REPORT_CAPACITY_OUTPUT_H_

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "src/engine/capacity_job.h"

namespace vrecon::report {

struct CapacityHeader {
  std::optional<TimeNs> as_of;  // --as-of, else the latest end of the entities' data
  models::Risk risk = models::Risk::kConservative;
  double buffer_pct = 10;
};

// An entity's flag codes, `sep` between them (";" in CSV cells, ", " in HTML).
std::string FlagCodes(const std::vector<models::Flag>& flags, std::string_view sep = ";");
// A count as a number cell's value (unset stays unset).
std::optional<double> AsNumber(const std::optional<int>& v);
// A count (days, vCPUs) as table text: "-" when unset.
std::string CountText(const std::optional<int>& v);

void WriteCapacityJson(std::ostream& os, const CapacityHeader& h, const std::vector<CapacityEntity>& entities);
void WriteCapacityCsv(std::ostream& os, const std::vector<CapacityEntity>& entities);
// scope,key,name,date,lower,mid,upper: one row per entity and forecast day.
void WriteCapacityForecastCsv(std::ostream& os, const std::vector<CapacityEntity>& entities);
void WriteCapacityTable(std::ostream& os, const std::vector<CapacityEntity>& entities);

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_CAPACITY_OUTPUT_H_
