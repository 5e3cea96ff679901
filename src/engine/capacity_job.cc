#include "src/engine/capacity_job.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "models/capacity_demand.h"
#include "models/vm_identity.h"
#include "src/core/text_util.h"
#include "src/engine/capacity_days.h"
#include "src/engine/capacity_parts.h"
#include "src/engine/capacity_vm_demand.h"
#include "src/engine/vm_view.h"
#include "src/store/correction_tables.h"
#include "src/store/retention.h"
#include "src/store/sample_reader.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {
namespace {

// The cores of the hosts VMs run on: a vSphere VM's host from the inventory (by the VM's entity),
// a host log's from its processors (by the host's folded name).
struct HostCores {
  std::map<std::string, int> vsphere, logs;
};

// The cores of the host the VM ran on last; nullopt when no source says.
std::optional<int> HostCoresOf(const VmEntry& vm, const HostCores& cores) {
  constexpr std::string_view kVsphere = "vsphere:";
  if (vm.key.starts_with(kVsphere))
    if (auto it = cores.vsphere.find(vm.key.substr(kVsphere.size())); it != cores.vsphere.end()) return it->second;
  for (auto h = vm.hosts.rbegin(); h != vm.hosts.rend(); ++h)
    if (auto it = cores.logs.find(models::FoldVmName(*h)); it != cores.logs.end()) return it->second;
  return std::nullopt;
}

// The answers every entity gets, then a VM's right size. Co-stop per vCPU over the last 30 days
// above the Ready-Time analysis' threshold counts against more vCPUs: they would wait longer to
// be scheduled together (models/ready_analysis.h).
Status Answer(Store* store, const CapacityRequest& req, const DayUpdate& update, const DemandPlan& plan,
              std::optional<int> host_cores, CapacityEntity* e) {
  const std::optional<double> capacity = e->vcpus ? std::optional<double>(*e->vcpus) : std::nullopt;
  DemandHistory h;
  RETURN_IF_ERROR(AnswerFromPlan(store, req, update, plan, capacity, e, &h));
  if (!e->as_of) return Status::Ok();
  if (!e->vcpus)
    e->flags.push_back({"vcpus-unknown", Severity::kInfo,
                        "no source gives the VM's vCPU count: no capacity, time remaining or right size"});
  const bool costop_high = e->vcpus && *e->vcpus > 0 && h.recent_costop_pct &&
                           *h.recent_costop_pct / *e->vcpus > models::ReadyThresholds{}.costop_pct;
  if (e->demand_p95_cores) {
    models::VcpuAdvice advice =
        models::RecommendVcpus(*e->demand_p95_cores, req.target_util_pct, host_cores, e->vcpus, costop_high);
    if (e->vcpus) e->recommended_vcpus = advice.recommended;
    for (models::Flag& h : advice.hints) e->flags.push_back(std::move(h));
  }
  return Status::Ok();
}

bool Worse(const CapacityEntity& a, const CapacityEntity& b) {
  constexpr int kNever = 1 << 30;
  const int ta = a.time_remaining_days.value_or(kNever), tb = b.time_remaining_days.value_or(kNever);
  if (ta != tb) return ta < tb;
  return a.name < b.name;
}

// One VM's entity from one source's series.
StatusOr<CapacityEntity> VmEntity(Store* store, const VmView& view, const VmEntry& vm, const DemandSeries& d,
                                  const GuestCpus& guest_cpus, const HostCores& cores, const CapacityRequest& req,
                                  const DayUpdate& update) {
  CapacityEntity e;
  e.scope = "vm";
  e.name = vm.name;
  e.label = vm.name_shared ? vm.name + " [" + vm.source + "]" : vm.name;
  e.key = vm.key;
  e.host = Join(vm.hosts, ", ");
  e.source = d.source;
  // Hyper-V's virtual processors, else vSphere's per-vCPU instances.
  e.vcpus = VcpusOf(vm, d.vp_run.empty() ? d.vcpu_instances.size() : d.vp_run.size(), guest_cpus, view.dir);
  const DemandPlan plan = PlanOf(d, vm.key, e.vcpus);
  e.demand_counter = plan.counter;
  if (plan.counter.empty()) return e;  // no demand can be told
  RETURN_IF_ERROR(Answer(store, req, update, plan, HostCoresOf(vm, cores), &e));
  return e;
}

// The VMs with host-side CPU data that `req.names` selects, each from one source: vSphere, else
// esxtop, else Hyper-V.
StatusOr<std::vector<CapacityEntity>> VmCapacities(Store* store, const VmView& view, const CapacityRequest& req,
                                                   const DayUpdate& update) {
  const VmDirectory& dir = view.dir;
  std::map<std::pair<size_t, std::string>, DemandSeries> by_vm;
  for (const StoredSeries& s : view.series) {
    const int e = dir.HostEntryOf(s.key);
    if (e < 0) continue;
    DemandSeries& d = by_vm[{static_cast<size_t>(e), std::string(SourceKindName(s.key.source))}];
    d.source = SourceKindName(s.key.source);
    Classify(s, &d);
  }
  std::set<size_t> selected;
  if (req.vm_keys) {
    for (size_t i = 0; i < dir.entries().size(); ++i)
      if (req.vm_keys->contains(dir.entry(i).key)) selected.insert(i);
  } else if (req.names.empty()) {
    for (size_t i = 0; i < dir.entries().size(); ++i) selected.insert(i);
  } else {
    for (const std::string& n : req.names)
      for (size_t i : dir.Select(n, std::nullopt)) selected.insert(i);
  }
  const GuestCpus guest_cpus = GuestCpuInstances(view);
  HostCores cores;
  std::map<std::string, int64_t> corr_ids;  // vm_key -> corr_vm id, of the VMs with stored corrections
  if (!req.digests_only) {
    ASSIGN_OR_RETURN(cores.vsphere, VsphereVmHostCores(store));
    cores.logs = LogHostCores(view);
    ASSIGN_OR_RETURN(const std::vector<CorrVm> stored, ListCorrVms(store));
    for (const CorrVm& v : stored) corr_ids[v.vm_key] = v.id;
  }
  std::vector<CapacityEntity> out;
  std::set<size_t> done;
  for (const char* source : {"vsphere", "esxtop", "hyperv"}) {
    for (const auto& [key, d] : by_vm) {
      if (key.second != source || !selected.contains(key.first) || done.contains(key.first) || !d.HasRun()) continue;
      ASSIGN_OR_RETURN(CapacityEntity e,
                       VmEntity(store, view, dir.entry(key.first), d, guest_cpus, cores, req, update));
      if (!e.as_of) continue;  // no demand in the range
      // Growth drivers read 60 days of process hours: for the VMs asked for by name, and those
      // that run out within the horizon.
      if (auto id = corr_ids.find(e.key); id != corr_ids.end() && (!req.names.empty() || e.time_remaining_days)) {
        ASSIGN_OR_RETURN(e.growth_drivers, GrowthDriversOf(store, id->second, *e.as_of));
      }
      done.insert(key.first);
      out.push_back(std::move(e));
    }
  }
  return out;
}

}  // namespace

StatusOr<std::vector<CapacityEntity>> RunCapacity(Store* store, const CapacityRequest& req) {
  std::vector<CapacityEntity> out;
  VmViewPtr view = req.view;
  if (!view) {
    ASSIGN_OR_RETURN(auto mappings, store->Mappings());
    ASSIGN_OR_RETURN(view, ReadVmView(store, req.vm_keys, mappings));
  }
  // The day digests are brought up to date as the entities are answered, in one transaction; a
  // read-only store's are computed and not kept.
  DayUpdate update;
  update.persist = req.keep_digests && !store->read_only_reason();
  update.then_read = !req.digests_only;
  BlockReader reader(store);
  update.reader = &reader;
  ASSIGN_OR_RETURN(const PruneHorizon pruned, PrunedBefore(store));
  update.kept_from = pruned.samples_before;
  std::optional<Transaction> tx;
  if (update.persist) {
    ASSIGN_OR_RETURN(Transaction t, store->BeginTransaction());
    tx.emplace(std::move(t));
  }
  if ((req.scope == "all" || req.scope == "host") && !req.vm_keys) {
    ASSIGN_OR_RETURN(out, HostCapacities(store, *view, req, update));
  }
  if ((req.scope == "all" || req.scope == "cluster") && !req.vm_keys) {
    ASSIGN_OR_RETURN(std::vector<CapacityEntity> clusters, ClusterCapacities(store, *view, req, update));
    out.insert(out.end(), std::make_move_iterator(clusters.begin()), std::make_move_iterator(clusters.end()));
  }
  if (req.scope == "all" || req.scope == "vm") {
    ASSIGN_OR_RETURN(std::vector<CapacityEntity> vms, VmCapacities(store, *view, req, update));
    out.insert(out.end(), std::make_move_iterator(vms.begin()), std::make_move_iterator(vms.end()));
  }
  if (tx) RETURN_IF_ERROR(tx->Commit());
  if (req.digests_only) return std::vector<CapacityEntity>();
  if (!req.names.empty() && out.empty())
    return Status::NotFound("nothing named " + Join(req.names, " or ") + " with host-side CPU data in " +
                            store->location() + " (vrecon correct lists the VMs)");
  std::sort(out.begin(), out.end(), Worse);
  return out;
}

Status RefreshCapacityDigests(Store* store, const std::optional<std::set<std::string>>& vm_keys, VmViewPtr view) {
  CapacityRequest req;
  req.digests_only = true;
  req.vm_keys = vm_keys;
  req.view = std::move(view);
  return RunCapacity(store, req).status();
}

}  // namespace vrecon
