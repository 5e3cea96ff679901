// Reads what the store holds for each VM, aggregates it onto UTC windows and runs the pure
// correction engine (models/) on it.
#ifndef VRECON_SRC_ENGINE_CORRECTION_JOB_H_
#define VRECON_SRC_ENGINE_CORRECTION_JOB_H_

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/correction.h"
#include "models/interval_flags.h"
#include "models/sampling_bias.h"
#include "src/core/host_counters.h"
#include "src/engine/vm_view.h"
#include "src/store/store.h"

namespace vrecon {

struct CorrectionRequest {
  std::optional<std::string> vm;  // a vm_key, or a VM or guest name (glob allowed); all VMs when unset
  // Only these VMs (vm_keys) besides: a fleet round's, whose samples it stored. Unset: no limit.
  std::optional<std::set<std::string>> vm_keys;
  TimeNs window = 300 * kNsPerSec;
  std::optional<TimeNs> from, to;
  // The earliest end among the samples the caller just stored (a fleet round's, an ingest's):
  // StoreCorrections then adds to the stored Ready-Time days only what ends after their reach
  // (ReadySummaryUpdate::new_from). Unset: those days are read again from `from`.
  std::optional<TimeNs> new_samples_from;
  std::map<std::string, std::string> mappings;  // guest -> vm_key or VM name, on top of the stored ones
  // Which counter is the host's truth where a source stores two: Hyper-V's % Total Run Time or
  // % Guest Run Time; vSphere's cpu.usage.average (frequency-scaled: turbo lifts it,
  // hyper-threading discounts it) or cpu.run.summation (time, like the guest's ticks); esxtop's
  // group % Used (frequency-scaled, with the VM's % System) or % Run (time).
  HostCounterChoice host_counters;
  bool align = true;  // estimate the guest clock against the host's and shift guest times (--no-align: off)
  models::AlignmentConfig alignment;
  models::TimelineConfig timeline;
  models::CorrectionConfig config;
  // Tick-sampling bias per process, measured where an ETW trace and Perfmon both cover windows
  // (models/sampling_bias.h): flagged on the samples-only windows, applied with calibrate.
  models::SamplingBiasConfig bias;
  // The VMs' view when the caller has read it in its transaction (StoreCorrections reads it once
  // for the correction and the Ready-Time update); read here when null (src/engine/vm_view.h).
  VmViewPtr view;
};

// Windows in VM order, then time order. NotFound when --vm matches nothing.
// `clocks`, when given, receives each aligned VM's guest clock model, keyed by vm_key
// (the typed counters of src/engine/counter_job.h place the guest's other series with it).
StatusOr<std::vector<models::WindowResult>> RunCorrection(Store* store, const CorrectionRequest& request,
                                                          std::map<std::string, models::ClockModel>* clocks = nullptr);

// The same, one VM at a time: `fn` gets each VM's windows in time order and may write to the
// store (the run reads inside the caller's transaction when one is open). Memory stays that of
// one VM whatever the fleet's size. An error from `fn` ends the run and is returned.
using VmWindowsFn = std::function<Status(std::vector<models::WindowResult>&& vm_windows)>;
Status ForEachVmCorrection(Store* store, const CorrectionRequest& request, const VmWindowsFn& fn,
                           std::map<std::string, models::ClockModel>* clocks = nullptr);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_CORRECTION_JOB_H_
