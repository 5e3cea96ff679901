// Reads what the store holds for each VM, aggregates it onto UTC windows and runs the pure
// correction engine (models/) on it.
#ifndef VRECON_SRC_ENGINE_CORRECTION_JOB_H_
#define VRECON_SRC_ENGINE_CORRECTION_JOB_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/correction.h"
#include "src/store/store.h"

namespace vrecon {

struct CorrectionRequest {
  std::optional<std::string> vm;  // a VM or guest name (glob allowed); all VMs when unset
  TimeNs window = 300 * kNsPerSec;
  std::optional<TimeNs> from, to;
  std::map<std::string, std::string> mappings;  // guest -> VM, on top of the stored ones
  bool hyperv_guest_run_time = false;           // % Guest Run Time instead of % Total Run Time
  models::CorrectionConfig config;
};

// Windows in VM order, then time order. NotFound when --vm matches nothing.
StatusOr<std::vector<models::WindowResult>> RunCorrection(Store* store, const CorrectionRequest& request);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CORRECTION_JOB_H_
