// `vrecon report --format csv|json|markdown`: the HTML report's content, machine-readable
// (docs/report.md describes every record and field).
#ifndef VRECON_SRC_REPORT_REPORT_DATA_H_
#define VRECON_SRC_REPORT_REPORT_DATA_H_

#include <ostream>

#include "src/report/report_model.h"

namespace vrecon::report {

// One CSV table (report_csv.cc); the first column, `record`, says what a row is: per VM its
// window rows (as they are read), then its vm, process, flag and hint rows, then the fleet-wide
// fleet, flag and host rows (written last: they are known once every VM has been read). Numbers
// are rounded to 4 decimals.
StatusOr<FleetReport> WriteReportCsv(std::ostream& os, Store* store, const ReportRequest& req);
// One JSON object: "vms" first (streamed), then the fleet-wide fields.
StatusOr<FleetReport> WriteReportJson(std::ostream& os, Store* store, const ReportRequest& req);
struct CapacityReport;
// A short summary for a ticket or chat message: the capacity answers first.
void WriteReportMarkdown(std::ostream& os, const FleetReport& r, const CapacityReport& capacity);

// Output buffered in 1 MiB pieces (report files reach tens of MB).
class Sink {
 public:
  explicit Sink(std::ostream& os) : os_(os) { buf_.reserve(1 << 20); }
  ~Sink() { Flush(); }
  Sink& operator<<(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= (1 << 20)) Flush();
    return *this;
  }
  Sink& operator<<(char c) {
    buf_.push_back(c);
    return *this;
  }
  void Flush() {
    os_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }
  bool ok() const { return static_cast<bool>(os_); }

 private:
  std::ostream& os_;
  std::string buf_;
};

// "2026-11-02T10:05:00Z"
std::string Iso(TimeNs t);
void AppendIso(std::string* out, TimeNs t);
std::string OptInt(const std::optional<int>& v);
// v rounded to 4 decimals, trailing zeros dropped ("" when missing): fast, for large CSVs.
void AppendFixed4(std::string* out, const std::optional<double>& v);

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_REPORT_DATA_H_
