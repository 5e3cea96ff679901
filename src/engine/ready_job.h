// Reads each VM's ready / co-stop / run / wait series (vSphere, esxtop) or wait-per-dispatch
// (Hyper-V) out of the store and runs the pure Ready-Time analysis (models/ready_analysis.h).
#ifndef VRECON_SRC_ENGINE_READY_JOB_H_
#define VRECON_SRC_ENGINE_READY_JOB_H_

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/ready_analysis.h"
#include "src/engine/vm_directory.h"
#include "src/engine/vm_view.h"
#include "src/store/sample_reader.h"
#include "src/store/store.h"

namespace vrecon {

struct ReadyRequest {
  std::optional<std::string> vm;                 // glob or name (domain suffix ignored); all VMs when unset
  std::optional<std::set<std::string>> vm_keys;  // only these VMs besides; unset: no limit
  std::optional<TimeNs> from, to;
  models::ReadyThresholds thresholds;
  VmViewPtr view;  // as CorrectionRequest::view
};

// One summary per VM and host-side source, by VM name. NotFound when --vm matches nothing.
StatusOr<std::vector<models::VmReadySummary>> RunReadyAnalysis(Store* store, const ReadyRequest& request);

// The samples read for a VM and source (`vm_key`, "vsphere" | "esxtop" | "hyperv").
using ReadyRangeFn = std::function<TimeRange(const std::string& vm_key, const std::string& source)>;
// Gets each VM and source's input in turn (its vm, source, host and vCPUs set), one at a time
// in memory. req.from/to are not used: range_of says what to read. NotFound as RunReadyAnalysis.
using ReadyInputVisitor = std::function<Status(const VmEntry& vm, models::ReadyInput&& in)>;
// `before_batch`, when set, is told each batch of VMs and sources (a few dozen) before they are
// visited, so that a caller can read what it needs of them in one go.
using ReadyBatchFn = std::function<Status(const std::vector<std::pair<const VmEntry*, std::string>>& batch)>;
Status ForEachReadyInput(Store* store, const ReadyRequest& req, const ReadyRangeFn& range_of,
                         const ReadyInputVisitor& visit, const ReadyBatchFn& before_batch = {});

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_READY_JOB_H_
