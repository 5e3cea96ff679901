// One window's processes, for CorrectVm (models/correction.cc): their means over the guest's
// seconds, their corrected figures with 95% intervals (models/interval.h), and the flags they
// raise. Called in this order for each window.
#ifndef VRECON_MODELS_PROCESS_WINDOWS_H_
#define VRECON_MODELS_PROCESS_WINDOWS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/correction.h"

namespace vrecon::models {

// A VM's process series in name order, indexable: the map's nodes are walked once, not per window.
using ProcessList = std::vector<std::pair<const std::string*, const WindowSeries*>>;

// A process with data in the window.
struct ProcessMean {
  double key;                  // guest % (-1 without a value: only samples without length)
  uint32_t index;              // into the ProcessList
  std::optional<double> mean;  // over the guest's covered seconds (ProcessResult::guest_pct)
  double present_s;
};

// The processes with data in window w (of `windows`) into *means, cleared first so that one
// vector serves every window. Returns the sum of their means. Flags a sample above what `vcpus`
// can give.
double ProcessMeans(const ProcessList& procs, int w, int windows, double guest_covered_s, std::optional<int> vcpus,
                    const CorrectionConfig& cfg, std::vector<ProcessMean>* means, WindowResult* r);

// r->processes from *means, by guest % descending with ties in name order (what a stable sort by
// guest % gives; *means is sorted so). Each is corrected by r->w, or by 1 where the guest's steal
// clock already did (r->steal_pct), with its 95% interval where the vCPU count is known. Flags a
// corrected figure above what the vCPUs can give. `exact`: the guest's figures are an event
// trace's, without tick-sampling error.
void CorrectProcesses(const VmSeries& vm, const ProcessList& procs, const WindowSeries* guest_total, bool exact, int w,
                      std::optional<int> vcpus, double guest_covered_s, const CorrectionConfig& cfg,
                      std::vector<ProcessMean>* means, WindowResult* r);

// "processes-exceed-total": the processes' sum above the guest's total beyond sampling tolerance.
void FlagProcessSum(double process_sum, bool any_process, std::optional<int> vcpus, const CorrectionConfig& cfg,
                    WindowResult* r);

// "instance-slot-reuse": a process instance whose ID Process changed within window w.
void FlagSlotReuse(const VmSeries& vm, int w, WindowResult* r);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_PROCESS_WINDOWS_H_
