// `vrecon ready --format json` (docs/cli.md): the Ready-Time summaries per VM; `vrecon serve`'s
// /api/vms answers the same document.
#ifndef VRECON_SRC_REPORT_READY_JSON_H_
#define VRECON_SRC_REPORT_READY_JSON_H_

#include <optional>
#include <ostream>
#include <vector>

#include "models/ready_analysis.h"

namespace vrecon::report {

// The share of samples above the summary's i-th threshold; unknown without samples.
std::optional<double> ShareAbove(const models::Summary& s, size_t i);

void WriteReadyJson(std::ostream& os, const std::vector<models::VmReadySummary>& vms);

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_READY_JSON_H_
