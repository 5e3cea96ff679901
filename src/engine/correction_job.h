// Reads what the store holds for each VM, aggregates it onto UTC windows and runs the pure
// correction engine (models/) on it.
#ifndef VRECON_SRC_ENGINE_CORRECTION_JOB_H_
#define VRECON_SRC_ENGINE_CORRECTION_JOB_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/correction.h"
#include "models/interval_flags.h"
#include "src/store/store.h"

namespace vrecon {

struct CorrectionRequest {
  std::optional<std::string> vm;  // a VM or guest name (glob allowed); all VMs when unset
  TimeNs window = 300 * kNsPerSec;
  std::optional<TimeNs> from, to;
  std::map<std::string, std::string> mappings;  // guest -> VM, on top of the stored ones
  bool hyperv_guest_run_time = false;           // % Guest Run Time instead of % Total Run Time
  bool align = true;  // estimate the guest clock against the host's and shift guest times (--no-align: off)
  models::AlignmentConfig alignment;
  models::TimelineConfig timeline;
  models::CorrectionConfig config;
};

// Windows in VM order, then time order. NotFound when --vm matches nothing.
// `clocks`, when given, receives each aligned VM's guest clock model, keyed by NormalizeVmName(vm)
// (the typed counters of src/engine/counter_job.h place the guest's other series with it).
StatusOr<std::vector<models::WindowResult>> RunCorrection(Store* store, const CorrectionRequest& request,
                                                          std::map<std::string, models::ClockModel>* clocks = nullptr);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CORRECTION_JOB_H_
