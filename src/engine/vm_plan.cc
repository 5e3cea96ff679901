#include "src/engine/vm_plan.h"

#include <string>
#include <string_view>

#include "models/vm_identity.h"
#include "src/core/cycle_columns.h"

namespace vrecon {
namespace {

using models::HostSource;

bool IsPerCpuInstance(const SeriesKey& k) {
  return !k.instance.empty() && k.instance.find("_Total") == std::string::npos;
}

// A source's frequency-scaled counter (vSphere usage, esxtop % Used) and its time counter (run).
struct CounterSeries {
  const std::vector<const StoredSeries*>* series;
  std::string_view name;
};

// The host's figure from `usage` unless `want_run` (or usage is not stored) and run is: usage by
// default, as vCenter's charts and PowerCLI exports show it. True when both are stored, for the
// frequency-scaled flag.
bool ChooseUsageOrRun(CounterSeries usage, CounterSeries run, bool want_run, VmPlan* p) {
  const bool use_run = !run.series->empty() && (want_run || usage.series->empty());
  const CounterSeries& chosen = use_run ? run : usage;
  p->host_group = *chosen.series;
  p->host_counter = std::string(chosen.name);
  return !usage.series->empty() && !run.series->empty();
}

// The ETW readers' series (adapters/etw/event_series.h): object names as they store them.
void PlanEvents(const StoredSeries* s, VmPlan* p) {
  const SeriesKey& k = s->key;
  if (k.object == "ETW Processor") {
    if (k.instance == "_Total") {
      if (k.counter == "% Processor Time") p->event_total = s;
      if (k.counter == "% Unknown Time") p->event_unknown = s;
      if (k.counter == "% DPC Time") p->event_dpc = s;
      if (k.counter == "% Interrupt Time") p->event_isr = s;
    } else if (k.counter == "% Processor Time") {
      p->event_cpus.push_back(s);
    }
    return;
  }
  VmPlan::EventProcess& e = p->event_processes[k.instance];
  if (k.counter == "% Processor Time") e.cpu = s;
  if (k.counter == "% Bottleneck Time") e.bottleneck = s;
  if (k.counter == "% Queue Time") e.queue = s;
  if (k.counter == "Queued Switch-ins/sec") e.switch_ins = s;
  if (k.counter == "Queue Time p95") e.queue_p95 = s;
}

// The sampled profile's series (adapters/etw/profile_buckets.h).
void PlanProfile(const StoredSeries* s, VmPlan* p) {
  const SeriesKey& k = s->key;
  if (k.counter != "% Processor Time") return;
  if (k.object == "ETW Profile Process") {
    p->profile_processes[k.instance] = s;
  } else if (k.instance == "_Total") {
    p->profile_total = s;
  } else {
    p->profile_cpus.push_back(s);
  }
}

// The shares made of the agent's cycle counts (adapters/perfmon/cycle_shares.h); the counts
// themselves are not read.
void PlanCycles(const StoredSeries* s, VmPlan* p) {
  const SeriesKey& k = s->key;
  if (k.counter != kCyclesPctCounter) return;
  if (k.object == kProcessCyclesObject) {
    p->cycles_processes[k.instance] = s;
  } else if (k.instance == "_Total") {
    p->cycles_total = s;
  }
}

}  // namespace

std::vector<int64_t> VmPlan::AllIds() const {
  std::vector<int64_t> ids;
  auto add = [&](const StoredSeries* s) { ids.push_back(s->id); };
  if (guest_total) add(guest_total);
  for (auto* s : guest_cpus) add(s);
  for (auto& [n, s] : processes) add(s);
  if (event_total) add(event_total);
  for (auto& [n, e] : event_processes)
    if (e.cpu) add(e.cpu);
  if (profile_total) add(profile_total);
  for (auto& [n, s] : profile_processes) add(s);
  if (cycles_total) add(cycles_total);
  for (auto& [n, s] : cycles_processes) add(s);
  for (auto& [vp, v] : host_vps)
    for (auto* s : v) add(s);
  for (auto* s : host_group) add(s);
  return ids;
}

std::vector<int64_t> VmPlan::ReadIds() const {
  std::vector<int64_t> ids = AllIds();
  for (const StoredSeries* s :
       {guest_steal, guest_utility, guest_queue, guest_uptime, event_unknown, event_dpc, event_isr})
    if (s) ids.push_back(s->id);
  for (auto& [n, s] : process_ids) ids.push_back(s->id);
  for (const StoredSeries* s : event_cpus) ids.push_back(s->id);
  for (const StoredSeries* s : profile_cpus) ids.push_back(s->id);
  for (auto& [n, e] : event_processes)
    for (const StoredSeries* s : {e.bottleneck, e.queue, e.switch_ins, e.queue_p95})
      if (s) ids.push_back(s->id);
  for (const auto* list : {&host_ready, &host_costop, &host_dispatch_wait, &vsphere_usage, &vsphere_run, &esxtop_used,
                           &esxtop_run, &esxtop_system, &vmtools_cpus})
    for (const StoredSeries* s : *list) ids.push_back(s->id);
  return ids;
}

void PlanGuest(const std::vector<const StoredSeries*>& all, VmPlan* p) {
  // Processor(n) when the log has it, else Processor Information (NUMA-style "0,1" names).
  bool have_processor = false;
  for (const StoredSeries* s : all)
    if (s->key.source == SourceKind::kGuest && s->key.object == "Processor") have_processor = true;
  const std::string cpu_object = have_processor ? "Processor" : "Processor Information";
  for (const StoredSeries* s : all) {
    const SeriesKey& k = s->key;
    if (k.source == SourceKind::kGuest && k.object == cpu_object && k.counter == "% Steal Time" &&
        k.instance == "_Total") {
      p->guest_steal = s;
    } else if (k.source == SourceKind::kGuest && k.object == "Processor Information" &&
               k.counter == "% Processor Utility" && k.instance == "_Total") {
      p->guest_utility = s;
    } else if (k.source == SourceKind::kGuest && k.object == cpu_object && k.counter == "% Processor Time") {
      if (k.instance == "_Total") {
        p->guest_total = s;
      } else if (IsPerCpuInstance(k)) {
        p->guest_cpus.push_back(s);
      }
    } else if (k.source == SourceKind::kGuest && k.object == "System" && k.counter == "Processor Queue Length") {
      p->guest_queue = s;
    } else if (k.source == SourceKind::kGuest && k.object == "System" && k.counter == "System Up Time") {
      p->guest_uptime = s;
    } else if (k.source == SourceKind::kGuest && (k.object == "Process" || k.object == "Process V2")) {
      if (k.instance == "_Total" || k.instance == "Idle" || k.instance.starts_with("Idle:")) continue;
      if (k.counter == "% Processor Time") p->processes[k.instance] = s;
      if (k.counter == "ID Process") p->process_ids[k.instance] = s;
    } else if (k.source == SourceKind::kGuest && (k.object == "ETW Processor" || k.object == "ETW Process")) {
      PlanEvents(s, p);
    } else if (k.source == SourceKind::kGuest &&
               (k.object == "ETW Profile Processor" || k.object == "ETW Profile Process")) {
      PlanProfile(s, p);
    } else if (k.source == SourceKind::kGuest &&
               (k.object == kProcessCyclesObject || k.object == kProcessorCyclesObject)) {
      PlanCycles(s, p);
    } else if (k.source == SourceKind::kVmTools && k.object == "VM Processor" && k.counter == "% Processor Time" &&
               p->host == HostSource::kNone) {
      if (k.instance == "_Total") p->host_group.push_back(s);
      if (IsPerCpuInstance(k)) p->vmtools_cpus.push_back(s);
    }
  }
  // A process whose CPU series is not stored (a store written part-way) has nothing to show.
  std::erase_if(p->event_processes, [](const auto& e) { return e.second.cpu == nullptr; });
  if (!p->host_group.empty()) {
    p->host = HostSource::kVmTools;
    p->host_counter = "VM Processor(_Total)\\% Processor Time";
  } else {
    p->vmtools_cpus.clear();
  }
}

std::vector<std::vector<const StoredSeries*>> HostSourceGroups(const std::vector<const StoredSeries*>& all) {
  std::vector<const StoredSeries*> vsphere, esxtop;
  for (const StoredSeries* s : all) {
    if (s->key.source == SourceKind::kVsphere) vsphere.push_back(s);
    if (s->key.source == SourceKind::kEsxtop) esxtop.push_back(s);
  }
  if (vsphere.empty() || esxtop.empty() || vsphere.size() + esxtop.size() != all.size()) return {all};
  return {std::move(vsphere), std::move(esxtop)};
}

void PlanHost(const std::vector<const StoredSeries*>& all, const HostCounterChoice& choice, VmPlan* p) {
  const std::string_view vp_counter = CounterName(choice.hyperv);
  std::map<int, std::vector<const StoredSeries*>> vps;
  std::vector<const StoredSeries*> groups, group_runs, group_system, vsphere_usage, vsphere_runs;
  std::vector<const StoredSeries*> vs_ready, vs_costop, esx_ready, esx_costop;
  for (const StoredSeries* s : all) {
    const SeriesKey& k = s->key;
    if (k.source == SourceKind::kHyperV && k.counter == "CPU Wait Time Per Dispatch") {
      p->host_dispatch_wait.push_back(s);
    } else if (k.source == SourceKind::kHyperV && k.counter == vp_counter) {
      if (auto vp = models::ParseHyperVVpInstance(k.instance)) vps[vp->vp].push_back(s);
    } else if (k.source == SourceKind::kVsphere && k.instance.empty()) {
      if (k.counter == kVsphereUsageCounter) vsphere_usage.push_back(s);
      if (k.counter == kVsphereRunCounter) vsphere_runs.push_back(s);
      if (k.counter == "cpu.ready.summation") vs_ready.push_back(s);
      if (k.counter == "cpu.costop.summation") vs_costop.push_back(s);
    } else if (k.source == SourceKind::kEsxtop) {
      if (k.counter == kEsxtopUsedCounter) groups.push_back(s);
      if (k.counter == kEsxtopRunCounter) group_runs.push_back(s);
      if (k.counter == "% System") group_system.push_back(s);
      if (k.counter == "% Ready") esx_ready.push_back(s);
      if (k.counter == "% CoStop") esx_costop.push_back(s);
    }
  }
  p->host_ready = !vs_ready.empty() ? std::move(vs_ready) : std::move(esx_ready);
  p->host_costop = !vs_costop.empty() ? std::move(vs_costop) : std::move(esx_costop);
  if (!vps.empty()) {
    p->host = HostSource::kHyperV;
    p->host_vps = std::move(vps);
    p->host_group.clear();
    p->host_counter = std::string(vp_counter);
  } else if (!vsphere_usage.empty() || !vsphere_runs.empty()) {
    p->host = HostSource::kVsphere;
    if (ChooseUsageOrRun({&vsphere_usage, kVsphereUsageCounter}, {&vsphere_runs, kVsphereRunCounter},
                         choice.vsphere == VsphereCounter::kRun, p)) {
      p->vsphere_usage = std::move(vsphere_usage);
      p->vsphere_run = std::move(vsphere_runs);
    }
  } else if (!groups.empty() || !group_runs.empty()) {
    p->host = HostSource::kEsxtop;
    if (ChooseUsageOrRun({&groups, kEsxtopUsedCounter}, {&group_runs, kEsxtopRunCounter},
                         choice.esxtop == EsxtopCounter::kRun, p)) {
      p->esxtop_used = std::move(groups);
      p->esxtop_run = std::move(group_runs);
      p->esxtop_system = std::move(group_system);
    }
  }
}

}  // namespace vrecon
