// Writes corrected windows as a table for people, CSV for spreadsheets, JSON for programs.
// The CSV and JSON shapes are a contract (docs/cli.md).
#ifndef VRECON_SRC_REPORT_CORRECTION_REPORT_H_
#define VRECON_SRC_REPORT_CORRECTION_REPORT_H_

#include <ostream>
#include <vector>

#include "models/correction.h"
#include "models/counter_windows.h"
#include "src/report/output.h"

namespace vrecon {

// top > 0 limits the processes shown per window in the table (CSV and JSON show all).
// `counters` (correct --counters; counters[i] belongs to windows[i]) adds each JSON window's
// "counters" array (src/report/counter_report.h); the other formats ignore it.
void WriteCorrection(std::ostream& os, const std::vector<models::WindowResult>& windows, OutputFormat format,
                     int top, const std::vector<std::vector<models::CounterValue>>* counters = nullptr);

}  // namespace vrecon

#endif  // VRECON_SRC_REPORT_CORRECTION_REPORT_H_
