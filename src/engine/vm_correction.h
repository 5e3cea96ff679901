// One VM's correction from the series a plan names: read them, estimate the guest clock, put
// both sides on the window grid and run the models (correction_job.cc runs it VM after VM).
#ifndef VRECON_SRC_ENGINE_VM_CORRECTION_H_
#define VRECON_SRC_ENGINE_VM_CORRECTION_H_

#include <map>
#include <string>
#include <vector>

#include "models/clock_alignment.h"
#include "models/correction.h"
#include "src/engine/correction_job.h"
#include "src/engine/vm_directory.h"
#include "src/engine/vm_plan.h"
#include "src/store/sample_reader.h"

namespace vrecon {

// What one run shares across its VMs: the request, the reader and buffers reused VM after VM,
// and the clock events ingest recorded.
struct RunContext {
  const CorrectionRequest& req;
  BlockReader reader;
  std::map<std::string, std::vector<models::ClockEvent>> recorded;
  std::vector<models::TimedValue> guest_ref, host_ref, buffer;
};

// One VM's windows over `range` from the series `plan` names (one guest's logs and the VM's host
// side): reads them, estimates the guest clock, aggregates onto the grid and corrects.
// `host_interval_s`, when given, receives the host side's typical sample length.
StatusOr<std::vector<models::WindowResult>> CorrectPlanned(RunContext* ctx, const VmPlan& plan, const VmEntry& entry,
                                                           const std::string& guest, const TimeRange& range,
                                                           std::map<std::string, models::ClockModel>* clocks,
                                                           std::optional<double>* host_interval_s = nullptr);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_VM_CORRECTION_H_
