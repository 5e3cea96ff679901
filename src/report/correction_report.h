// Writes corrected windows as a table for people, CSV for spreadsheets, JSON for programs.
// The CSV and JSON shapes are a contract (docs/cli.md).
#ifndef VRECON_SRC_REPORT_CORRECTION_REPORT_H_
#define VRECON_SRC_REPORT_CORRECTION_REPORT_H_

#include <ostream>
#include <string>
#include <vector>

#include "models/correction.h"
#include "models/counter_windows.h"
#include "src/report/output.h"

namespace vrecon {

// top > 0 limits the processes shown per window in the table (CSV and JSON show all).
// `counters` (correct --counters; counters[i] belongs to windows[i]) adds each JSON window's
// "counters" array (src/report/counter_report.h); the other formats ignore it.
void WriteCorrection(std::ostream& os, const std::vector<models::WindowResult>& windows, OutputFormat format, int top,
                     const std::vector<std::vector<models::CounterValue>>* counters = nullptr);

// The same output written as the windows come, a chunk at a time (a fleet's VMs one by one, so
// memory holds one VM's windows): the bytes are those of WriteCorrection on all the chunks.
// Nothing is written before the first Add or Finish, so an error found first leaves stdout empty.
class CorrectionWriter {
 public:
  CorrectionWriter(std::ostream& os, OutputFormat format, int top) : os_(os), format_(format), top_(top) {}
  void Add(const std::vector<models::WindowResult>& windows,
           const std::vector<std::vector<models::CounterValue>>* counters = nullptr);
  void Finish();  // closes the JSON document
  size_t windows() const { return count_; }

 private:
  void Start();  // the CSV header, the JSON document's opening

  std::ostream& os_;
  OutputFormat format_;
  int top_;
  bool started_ = false;
  size_t count_ = 0;
  std::string rows_;  // a window's CSV rows
};

}  // namespace vrecon

#endif  // VRECON_SRC_REPORT_CORRECTION_REPORT_H_
