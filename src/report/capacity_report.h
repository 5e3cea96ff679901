// The report's Capacity section (docs/report.md, "Capacity"): `vrecon capacity`'s answers with
// the defaults (conservative risk, 10% buffer, 70% target utilization, a year's horizon), as of
// the report's --to, for the VMs --vm selects; the hosts' and clusters' daily history kept for
// the charts. Every format writes it from one CapacityReport.
#ifndef VRECON_SRC_REPORT_CAPACITY_REPORT_H_
#define VRECON_SRC_REPORT_CAPACITY_REPORT_H_

#include <optional>
#include <string>
#include <vector>

#include "src/engine/capacity_job.h"
#include "src/report/report_model.h"

namespace vrecon::report {

struct CapacityReport {
  std::optional<TimeNs> as_of;  // --to, else the latest end of the entities' data
  models::Risk risk = models::Risk::kConservative;
  double buffer_pct = 10, target_util_pct = 70;
  std::vector<CapacityEntity> entities;  // worst first
  std::vector<std::string> notes;        // what the section cannot answer, in words
};

// `keep_digests`: store the day digests brought up to date (a report does; the web view, which
// only reads, does not).
StatusOr<CapacityReport> BuildCapacityReport(Store* store, const ReportRequest& req, bool keep_digests = true);

// Hosts and clusters, worst first (time remaining, then name).
std::vector<const CapacityEntity*> HostsAndClusters(const CapacityReport& r);
// VMs whose recommended vCPUs differ from their vCPUs, or that run out within the horizon: worst
// first (time remaining), then by how far their size is off.
std::vector<const CapacityEntity*> VmsToResize(const CapacityReport& r);
// The VMs with growth drivers, worst first.
std::vector<const CapacityEntity*> VmsWithGrowth(const CapacityReport& r);
// The entity's right-sizing hint (fewer-vcpus, more-vcpus), or null.
const models::Flag* ResizeHint(const CapacityEntity& e);

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_CAPACITY_REPORT_H_
