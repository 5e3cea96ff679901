// Reads each VM's ready / co-stop / run / wait series (vSphere, esxtop) or wait-per-dispatch
// (Hyper-V) out of the store and runs the pure Ready-Time analysis (models/ready_analysis.h).
#ifndef VRECON_SRC_ENGINE_READY_JOB_H_
#define VRECON_SRC_ENGINE_READY_JOB_H_

#include <optional>
#include <string>
#include <vector>

#include "models/ready_analysis.h"
#include "src/store/store.h"

namespace vrecon {

struct ReadyRequest {
  std::optional<std::string> vm;  // glob or name (domain suffix ignored); all VMs when unset
  std::optional<TimeNs> from, to;
  models::ReadyThresholds thresholds;
};

// One summary per VM and host-side source, by VM name. NotFound when --vm matches nothing.
StatusOr<std::vector<models::VmReadySummary>> RunReadyAnalysis(Store* store, const ReadyRequest& request);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_READY_JOB_H_
