// What every `vrecon report` format shows, computed from the stored corrections
// (src/store/correction_tables.h) in one streaming pass over the windows: per-VM statistics,
// rankings, flag counts, hosts by load, hints, coverage. Writers see each VM's windows once,
// through a visitor, so memory stays bounded by one VM's windows.
#ifndef VRECON_SRC_REPORT_REPORT_MODEL_H_
#define VRECON_SRC_REPORT_REPORT_MODEL_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/core/severity.h"
#include "src/store/correction_tables.h"

namespace vrecon::report {

// A running mean that ignores unknown values.
struct Mean {
  int64_t n = 0;
  double sum = 0;
  void Add(const std::optional<double>& v) {
    if (v) {
      ++n;
      sum += *v;
    }
  }
  std::optional<double> value() const { return n ? std::optional<double>(sum / static_cast<double>(n)) : std::nullopt; }
};

struct FlagStat {
  Severity severity = Severity::kWarning;
  std::string message;  // of the first window that raised it
  int64_t windows = 0;
  TimeNs first = 0, last = 0;
};

struct VmStats {
  int64_t windows = 0, with_w = 0, with_guest = 0, with_host = 0;
  TimeNs first = 0, last = 0;
  Mean guest, host, w, gap, ready, costop, clock_offset, steal, guest_cov, host_cov;
  Mean utility;  // Processor Information's % Processor Utility (frequency-scaled, never divided by w)
  std::optional<double> max_ready, max_costop;
  std::map<std::string, FlagStat> flags;  // by code
  void Add(const StoredWindow& w);
};

struct VmReport {
  CorrVm vm;
  VmStats stats;
  std::vector<StoredReady> ready;
  std::vector<ProcessAggregate> processes;  // largest mean corrected first
  // What is missing for this VM, in words ("" when both sides are there).
  std::string missing;
  // The name people see: with vm.vm_source beside it when another stored VM has the same name.
  std::string label;
};

struct HostLoad {
  std::string host;
  int vms = 0;
  std::optional<double> load_mean, load_p95;  // worst (largest) over the host's VMs' summaries
};

struct FleetReport {
  std::string db;                  // the store's file name
  std::optional<TimeNs> from, to;  // as asked
  TimeNs first = 0, last = 0;      // the windows' span
  int64_t windows = 0, with_w = 0, with_guest = 0, with_host = 0;
  std::vector<VmReport> vms;              // by VM name
  std::map<std::string, FlagStat> flags;  // over the fleet, by code
  std::vector<HostLoad> hosts;            // largest load first, unknown last
  std::vector<std::string> notes;         // what is missing, fleet-wide
};

struct ReportRequest {
  std::optional<std::string> vm;  // name or glob (domain suffix ignored)
  std::optional<TimeNs> from, to;
  size_t top_processes = 10;
};

// Called once per VM, in name order, when its statistics are complete, with its windows in the
// range (time order); the vector is released afterwards, so memory holds one VM's windows.
using VmVisitor = std::function<Status(size_t index, const VmReport& vm, const std::vector<StoredWindow>& windows)>;

// Called for every window as it is read (VM in name order, then time), before that VM's
// statistics are complete. With it, `visit` gets an empty window list (nothing is kept).
using WindowVisitor = std::function<void(size_t index, const VmReport& vm, const StoredWindow& w)>;

// One pass over the stored windows. NotFound when req.vm matches no stored VM.
StatusOr<FleetReport> BuildFleetReport(Store* store, const ReportRequest& req, const VmVisitor& visit = nullptr,
                                       const WindowVisitor& on_window = nullptr);

// Rankings: indexes into report.vms, largest first, VMs without the value left out.
std::vector<size_t> RankByGap(const FleetReport& r);     // |mean host - mean guest| utilization
std::vector<size_t> RankByReady(const FleetReport& r);   // mean ready % per vCPU
std::vector<size_t> RankByCostop(const FleetReport& r);  // mean co-stop % per vCPU

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_REPORT_MODEL_H_
