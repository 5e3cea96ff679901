// `vrecon report --format pdh-csv`: corrected counters as a PDH-CSV 4.0 file that Perfmon, relog
// and PAL open next to the original log, and that `vrecon ingest` reads back unchanged.
// Naming (docs/report.md): the original counter path with " (corrected)" appended to the counter
// name, e.g. \\WEB01\Process(sqlservr)\% Processor Time (corrected); Processor(_Total) carries the
// host-measured utilization (what the guest's % Processor Time should have been). Times are UTC
// (header zone "Coordinated Universal Time", bias 0); a row stands at each window's end, with a
// blank row at the start of a run of windows so every value covers its whole window.
#ifndef VRECON_SRC_REPORT_PDH_EXPORT_H_
#define VRECON_SRC_REPORT_PDH_EXPORT_H_

#include <ostream>
#include <string>
#include <vector>

#include "models/correction.h"
#include "src/core/status.h"

namespace vrecon::report {

inline constexpr const char* kCorrectedSuffix = " (corrected)";

// Windows in VM order, then time order (as RunCorrection returns them).
Status WritePdhCsv(std::ostream& os, const std::vector<models::WindowResult>& windows);

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_PDH_EXPORT_H_
