// The hosts of host logs for `vrecon capacity` (docs/capacity.md): esxtop's `Physical Cpu` and
// Hyper-V's `Hyper-V Hypervisor Logical Processor`; a vCenter's hosts are in
// capacity_vsphere_hosts.cc.
#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <set>

#include "models/capacity.h"
#include "models/vm_identity.h"
#include "src/core/host_counters.h"
#include "src/core/text_util.h"
#include "src/engine/capacity_days.h"
#include "src/engine/capacity_parts.h"

namespace vrecon {
namespace {

// One host's series in host logs.
struct HostSeries {
  std::string machine, source;
  std::vector<int64_t> busy;      // _Total: percent of all its logical processors
  std::set<std::string> lps;      // the logical processors' instances
  bool core_util = false;         // esxtop writes % Core Util Time only with hyper-threading on
  std::vector<int64_t> vm_ready;  // each VM's ready (esxtop Group Cpu), % of a vCPU, summed
};

bool AllDigits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

void Classify(const StoredSeries& s, bool of_a_vm, HostSeries* h) {
  const SeriesKey& k = s.key;
  if (k.source == SourceKind::kEsxtop && k.object == "Physical Cpu") {
    if (k.instance == "_Total" && k.counter == "% Util Time") h->busy.push_back(s.id);
    if (k.instance == "_Total" && k.counter == "% Core Util Time") h->core_util = true;
    if (AllDigits(k.instance)) h->lps.insert(k.instance);
  } else if (k.source == SourceKind::kEsxtop && k.object == "Group Cpu" && k.counter == "% Ready" && of_a_vm) {
    h->vm_ready.push_back(s.id);
  } else if (k.source == SourceKind::kHyperV && k.object == "Hyper-V Hypervisor Logical Processor") {
    if (k.instance == "_Total" && k.counter == kHyperVTotalRunCounter) h->busy.push_back(s.id);
    if (k.instance.starts_with("Hv LP ")) h->lps.insert(k.instance);
  }
}

bool Selected(const CapacityRequest& req, const std::string& machine, const std::string& key) {
  if (req.names.empty()) return true;
  for (const std::string& n : req.names)
    if (GlobMatch(n, machine) || n == key) return true;
  return false;
}

// Busy logical processors plus the VMs' ready, in cores, per 5 minutes.
std::vector<models::DemandBin> HostDemand(const HostSeries& h, const Samples& samples, int threads) {
  std::vector<models::DemandBin> bins = models::FiveMinuteDemand(Joined(samples, h.busy, threads), {});
  for (int64_t id : h.vm_ready) {
    const std::vector<models::DemandBin> ready = models::FiveMinuteDemand(Joined(samples, {id}), {});
    auto at = ready.begin();
    for (models::DemandBin& b : bins) {
      while (at != ready.end() && at->start < b.start) ++at;
      if (at != ready.end() && at->start == b.start) b.cores += at->cores;
    }
  }
  return bins;
}

// The host's capacity from its log: its physical cores when esxtop says hyper-threading is on
// (its PCPUs are then the threads, two a core), else its logical processors.
std::optional<models::CapacityCores> CapacityOf(const HostSeries& h) {
  const auto threads = static_cast<int>(h.lps.size());
  models::HostProcessors p;
  p.threads = threads;
  if (h.source == "esxtop" && h.core_util) {
    p.hyperthreading = true;
    p.cores = threads / 2;
  }
  return models::HostCapacity(p);
}

using LogHosts = std::map<std::pair<std::string, std::string>, HostSeries>;  // (source, folded name)

LogHosts HostsOfLogs(const VmView& view) {
  LogHosts hosts;
  for (const StoredSeries& s : view.series) {
    if (s.key.source != SourceKind::kEsxtop && s.key.source != SourceKind::kHyperV) continue;
    HostSeries& h = hosts[{std::string(SourceKindName(s.key.source)), models::FoldVmName(s.key.machine)}];
    if (h.machine.empty()) {
      h.machine = s.key.machine;
      h.source = SourceKindName(s.key.source);
    }
    Classify(s, view.dir.HostEntryOf(s.key) >= 0, &h);
  }
  return hosts;
}

StatusOr<CapacityEntity> HostEntity(Store* store, const HostSeries& h, const CapacityRequest& req,
                                    const DayUpdate& update) {
  CapacityEntity e;
  e.scope = "host";
  e.name = h.machine;
  e.label = h.machine;
  e.key = h.source + ":" + models::FoldVmName(h.machine);
  e.source = h.source;
  const bool esxtop = h.source == "esxtop";
  e.demand_counter = esxtop ? "Physical Cpu % Util Time x LPs + VMs' % Ready"
                            : "Hyper-V Hypervisor Logical Processor % Total Run Time x LPs";
  if (h.lps.empty()) {
    e.flags.push_back({"lp-count-unknown", Severity::kWarning,
                       "the log has no per-processor instances to count (only _Total): no capacity or demand in "
                       "cores; log every instance of the object"});
    return e;
  }
  const int threads = static_cast<int>(h.lps.size());
  const std::optional<models::CapacityCores> cap = CapacityOf(h);
  DemandPlan plan;
  plan.entity = e.key;
  plan.source = h.source;
  plan.counter = e.demand_counter + " (" + std::to_string(threads) + " LPs)";
  plan.ids = h.busy;
  plan.ids.insert(plan.ids.end(), h.vm_ready.begin(), h.vm_ready.end());
  plan.bins = [&h, threads](const Samples& samples) { return HostDemand(h, samples, threads); };
  RETURN_IF_ERROR(AnswerFromPlan(store, req, update, plan, cap ? std::optional<double>(cap->cores) : std::nullopt, &e));
  if (cap && cap->logical)
    e.flags.push_back({"capacity-logical", Severity::kInfo,
                       "hyper-threading is not known: the capacity is the " + std::to_string(threads) +
                           " logical processors; with it on, the physical cores (about half) would be"});
  return e;
}

}  // namespace

StatusOr<std::vector<CapacityEntity>> HostCapacities(Store* store, const VmView& view, const CapacityRequest& req,
                                                     const DayUpdate& update) {
  const LogHosts hosts = HostsOfLogs(view);
  std::vector<CapacityEntity> out;
  for (const auto& [key, h] : hosts) {
    if (h.busy.empty() || !Selected(req, h.machine, h.source + ":" + key.second)) continue;
    ASSIGN_OR_RETURN(CapacityEntity e, HostEntity(store, h, req, update));
    out.push_back(std::move(e));
  }
  ASSIGN_OR_RETURN(std::vector<CapacityEntity> vsphere, VsphereHostCapacities(store, view, req, update));
  out.insert(out.end(), std::make_move_iterator(vsphere.begin()), std::make_move_iterator(vsphere.end()));
  return out;
}

std::map<std::string, int> LogHostCores(const VmView& view) {
  std::map<std::string, int> out;
  for (const auto& [key, h] : HostsOfLogs(view)) {
    const std::optional<models::CapacityCores> cap = CapacityOf(h);
    if (cap && cap->cores > 0) out[key.second] = std::max(out[key.second], static_cast<int>(cap->cores));
  }
  return out;
}

}  // namespace vrecon
