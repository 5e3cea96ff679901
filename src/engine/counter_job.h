// Types and treats every other counter of a corrected VM's guest log per window (seed 003,
// docs/counter-types.md): reads the guest's series and the Hyper-V host's disk latency from the
// store and runs models/counter_windows on the correction's windows and w.
#ifndef VRECON_SRC_ENGINE_COUNTER_JOB_H_
#define VRECON_SRC_ENGINE_COUNTER_JOB_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/clock_alignment.h"
#include "models/correction.h"
#include "models/counter_windows.h"
#include "src/engine/correction_job.h"
#include "src/store/store.h"

namespace vrecon {

struct CounterRequest {
  TimeNs window = 300 * kNsPerSec;  // the width of the correction's windows
  // The host LogicalDisk/PhysicalDisk instance that holds the VM's virtual disk (e.g. "D:");
  // unset: the host's only disk instance other than _Total, else none.
  std::optional<std::string> host_disk;
  // vm_key -> the guest clock's map to host time, from the
  // alignment. A VM without one is treated as not aligned (identity).
  std::map<std::string, models::ToTrueTime> clocks;
};

// Fills request->clocks from the models RunCorrection estimated (its `clocks` output); a model
// none of whose segments could be estimated is the identity and is left out (not aligned).
void UseClocks(const std::map<std::string, models::ClockModel>& clocks, CounterRequest* request);

// One list per element of `windows`, in the same order: the typed counters of that window's
// guest (none when the window has no guest). The correction's own inputs, Process(p) % Processor
// Time, are left out: the correction reports them as processes.
StatusOr<std::vector<std::vector<models::CounterValue>>> RunCounters(Store* store,
                                                                     const std::vector<models::WindowResult>& windows,
                                                                     const CounterRequest& request);

// The correction's windows and, one list per window, their typed counters.
struct CorrectedCounters {
  std::vector<models::WindowResult> windows;
  std::vector<std::vector<models::CounterValue>> counters;
};

// RunCorrection, then RunCounters on its windows with its window width and clock models (what
// `vrecon counters` and `correct --counters` print). host_disk as in CounterRequest.
StatusOr<CorrectedCounters> RunCorrectionWithCounters(Store* store, const CorrectionRequest& request,
                                                      std::optional<std::string> host_disk);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_COUNTER_JOB_H_
