// Writes corrected windows as a table for people, CSV for spreadsheets, JSON for programs.
// The CSV and JSON shapes are a contract (docs/cli.md).
#ifndef VRECON_SRC_REPORT_CORRECTION_REPORT_H_
#define VRECON_SRC_REPORT_CORRECTION_REPORT_H_

#include <ostream>
#include <vector>

#include "models/correction.h"
#include "src/report/output.h"

namespace vrecon {

// top > 0 limits the processes shown per window in the table (CSV and JSON show all).
void WriteCorrection(std::ostream& os, const std::vector<models::WindowResult>& windows, OutputFormat format,
                     int top);

}  // namespace vrecon

#endif  // VRECON_SRC_REPORT_CORRECTION_REPORT_H_
