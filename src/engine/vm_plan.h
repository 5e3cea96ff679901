// The stored series one VM's correction reads, by role: picked from the guest logs of one of its
// guests and from the host-side series the directory (src/engine/vm_directory.h) says are its own.
#ifndef VRECON_SRC_ENGINE_VM_PLAN_H_
#define VRECON_SRC_ENGINE_VM_PLAN_H_

#include <map>
#include <string>
#include <vector>

#include "models/correction.h"
#include "src/core/host_counters.h"
#include "src/store/sample_reader.h"

namespace vrecon {

struct VmPlan {
  const StoredSeries* guest_total = nullptr;
  const StoredSeries* guest_steal = nullptr;    // Processor(_Total) % Steal Time (Linux guests)
  const StoredSeries* guest_utility = nullptr;  // Processor Information(_Total) % Processor Utility
  const StoredSeries* guest_queue = nullptr;    // System\Processor Queue Length (queue-on-idle flag)
  const StoredSeries* guest_uptime = nullptr;   // System\System Up Time, seconds (guest restarts)
  std::vector<const StoredSeries*> guest_cpus;
  std::map<std::string, const StoredSeries*> processes, process_ids;
  // ETW context-switch figures of the same guest (adapters/etw/event_series.h), exact where a
  // trace covers a window: _Total's busy, unknown, DPC and interrupt time, each CPU's busy time, and per process
  // ("name:pid") its five series.
  const StoredSeries* event_total = nullptr;
  const StoredSeries* event_unknown = nullptr;
  const StoredSeries* event_dpc = nullptr;  // _Total's % DPC Time and % Interrupt Time (xperf dumper text)
  const StoredSeries* event_isr = nullptr;
  std::vector<const StoredSeries*> event_cpus;
  struct EventProcess {
    const StoredSeries *cpu = nullptr, *bottleneck = nullptr, *queue = nullptr, *switch_ins = nullptr,
                       *queue_p95 = nullptr;
  };
  std::map<std::string, EventProcess> event_processes;
  // A sampled CPU profile of the same guest (WPA's CPU Usage (Sampled), adapters/etw/profile_buckets.h):
  // _Total's and each CPU's busy time, and each process's ("name:pid") CPU.
  const StoredSeries* profile_total = nullptr;
  std::vector<const StoredSeries*> profile_cpus;
  std::map<std::string, const StoredSeries*> profile_processes;
  // The agent's cycle counts as shares (adapters/perfmon/cycle_shares.h): _Total's busy share and
  // each process's ("name:pid").
  const StoredSeries* cycles_total = nullptr;
  std::map<std::string, const StoredSeries*> cycles_processes;
  models::HostSource host = models::HostSource::kNone;
  std::map<int, std::vector<const StoredSeries*>> host_vps;  // VP number -> series (one per host log)
  std::vector<const StoredSeries*> host_group;
  std::vector<const StoredSeries*> host_ready, host_costop;  // vSphere or esxtop, summed over vCPUs
  std::vector<const StoredSeries*> host_dispatch_wait;       // Hyper-V, one per VP (and host log)
  // vSphere: both utilization counters when both are stored (the frequency-scaled flag), whichever
  // of them host_group holds.
  std::vector<const StoredSeries*> vsphere_usage, vsphere_run;
  // esxtop: % Used, % Run and % System of the VM's group when % Used and % Run are both stored.
  std::vector<const StoredSeries*> esxtop_used, esxtop_run, esxtop_system;
  // VMware Tools: VM Processor(n)\% Processor Time, one per vCPU, beside _Total in host_group.
  std::vector<const StoredSeries*> vmtools_cpus;
  std::string host_counter;  // the counter host_group holds

  // The series whose samples place the VM's windows (those the times it has samples in come from).
  std::vector<int64_t> AllIds() const;
  // Every series a correction of the VM reads: AllIds() and the ones that only add to windows.
  std::vector<int64_t> ReadIds() const;
};

// `all`: every series of one guest machine.
void PlanGuest(const std::vector<const StoredSeries*>& all, VmPlan* p);
// A VM's host-side series by source where both esxtop and vSphere see it (the directory linked
// them): each source is planned and corrected on its own, then joined window by window
// (models/host_sources.h). One group, `all`, otherwise.
std::vector<std::vector<const StoredSeries*>> HostSourceGroups(const std::vector<const StoredSeries*>& all);
// `all`: every host-side series of one VM.
void PlanHost(const std::vector<const StoredSeries*>& all, const HostCounterChoice& choice, VmPlan* p);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_VM_PLAN_H_
