// A vCenter's clusters for `vrecon capacity` (docs/capacity.md, "Definitions"): capacity from the
// inventory's hosts (physical cores with hyper-threading active, else logical processors) less
// the largest hosts held back for HA; demand the sum of its hosts' own (busy logical processors +
// their VMs' ready) when every host has its counters stored, else the sum of the 5-minute demand
// (run + ready) of the VMs on its hosts, without the hypervisor's own CPU (flag
// `demand-from-vms`).
#include <algorithm>
#include <map>

#include "models/capacity.h"
#include "src/core/text_util.h"
#include "src/engine/capacity_parts.h"
#include "src/engine/capacity_vm_demand.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {
namespace {

constexpr std::string_view kVspherePrefix = "vsphere:";

// A member VM's demand series and the vCPU count its usage is scaled by.
struct Member {
  DemandSeries series;
  std::optional<int> vcpus;
};

// The cluster's capacity from its hosts; flags what it assumed.
std::optional<double> CapacityOf(const StoredCluster& c, const CapacityRequest& req, CapacityEntity* e) {
  std::vector<double> cores;
  bool logical = false, unknown = false;
  for (const StoredHost& h : c.hosts) {
    const std::optional<models::CapacityCores> cap = models::HostCapacity(VsphereHostProcessors(h));
    if (!cap) {
      unknown = true;
      continue;
    }
    logical |= cap->logical;
    cores.push_back(cap->cores);
  }
  if (unknown) {
    e->flags.push_back({"host-cores-unknown", Severity::kWarning,
                        "the inventory gives no processor count for a host of the cluster: no capacity"});
    return std::nullopt;
  }
  if (logical)
    e->flags.push_back({"capacity-logical", Severity::kInfo,
                        "hyper-threading is unknown for a host of the cluster: its logical processors are counted"});
  // --ha-hosts, else what the cluster's HA admission control holds back, else the largest host.
  if (req.ha_hosts >= 0) return models::ClusterCapacity(cores, req.ha_hosts);
  if (c.ha_cpu_pct) {
    e->flags.push_back({"ha-reserve", Severity::kInfo,
                        "HA admission control holds back " + FormatFixed(*c.ha_cpu_pct, 0) + "% of the cluster's CPU"});
    return models::ClusterCapacityLessShare(cores, *c.ha_cpu_pct);
  }
  if (c.ha_hosts) {
    e->flags.push_back(
        {"ha-reserve", Severity::kInfo, "HA admission control holds back " + std::to_string(*c.ha_hosts) + " host(s)"});
    return models::ClusterCapacity(cores, *c.ha_hosts);
  }
  const int ha = models::DefaultHaHosts(cores.size());
  if (ha > 0)
    e->flags.push_back({"ha-assumed", Severity::kInfo,
                        "the cluster's HA admission control does not say what it holds back: its largest host is "
                        "(--ha-hosts says otherwise)"});
  return models::ClusterCapacity(cores, ha);
}

// Each host's own series and threads, when every host of the cluster has them.
std::optional<std::vector<std::pair<const VsphereHostSeries*, int>>> HostsWithCounters(
    const StoredCluster& c, const std::map<std::string, VsphereHostSeries>& hosts) {
  std::vector<std::pair<const VsphereHostSeries*, int>> out;
  for (const StoredHost& h : c.hosts) {
    auto it = hosts.find(h.entity);
    const std::optional<int> threads = VsphereHostThreads(h);
    if (h.entity.empty() || it == hosts.end() || it->second.utilization.empty() || !threads) return std::nullopt;
    out.emplace_back(&it->second, *threads);
  }
  return out;
}

// The cluster's demand from its hosts' own counters.
DemandPlan FromHosts(const std::string& key, const std::vector<std::pair<const VsphereHostSeries*, int>>& hosts) {
  DemandPlan plan;
  plan.entity = key;
  plan.source = "vsphere";
  plan.counter = "its hosts' cpu.utilization.average x threads + cpu.ready.summation";
  for (const auto& [s, threads] : hosts)
    for (const std::vector<int64_t>* ids : {&s->utilization, &s->ready})
      plan.ids.insert(plan.ids.end(), ids->begin(), ids->end());
  plan.bins = [hosts](const Samples& samples) {
    std::vector<std::vector<models::DemandBin>> parts;
    parts.reserve(hosts.size());
    for (const auto& [s, threads] : hosts) parts.push_back(VsphereHostBins(*s, samples, threads));
    return models::SumOfMembers(parts);
  };
  return plan;
}

// The cluster's demand from the VMs on its hosts (those with a demand counter).
DemandPlan FromVms(const std::string& key, const StoredCluster& c, const std::map<std::string, Member>& members,
                   size_t* vms) {
  std::vector<const Member*> in;
  for (const std::string& entity : c.vm_entities)
    if (auto it = members.find(entity); it != members.end() && it->second.series.HasRun() &&
                                        !DemandCounter(it->second.series, it->second.vcpus).empty())
      in.push_back(&it->second);
  *vms = in.size();
  DemandPlan plan;
  plan.entity = key;
  plan.source = "vsphere";
  plan.counter = "its VMs' cpu.run.summation (or cpu.usage.average x vCPUs) + cpu.ready.summation";
  for (const Member* m : in)
    for (const std::vector<int64_t>* ids : {&m->series.run, &m->series.ready, &m->series.usage})
      plan.ids.insert(plan.ids.end(), ids->begin(), ids->end());
  plan.bins = [in](const Samples& samples) {
    std::vector<std::vector<models::DemandBin>> parts;
    parts.reserve(in.size());
    for (const Member* m : in) parts.push_back(DemandOf(m->series, samples, m->vcpus));
    return models::SumOfMembers(parts);
  };
  return plan;
}

bool Selected(const CapacityRequest& req, const StoredCluster& c) {
  if (req.names.empty()) return true;
  return std::any_of(req.names.begin(), req.names.end(),
                     [&](const std::string& n) { return FoldCase(n) == FoldCase(c.name) || n == c.moid; });
}

}  // namespace

StatusOr<std::vector<CapacityEntity>> ClusterCapacities(Store* store, const VmView& view, const CapacityRequest& req,
                                                        const DayUpdate& update) {
  ASSIGN_OR_RETURN(const std::vector<StoredCluster> clusters, VsphereClusters(store));
  std::vector<CapacityEntity> out;
  if (clusters.empty()) return out;
  const std::map<std::string, VsphereHostSeries> host_series = VsphereHostSeriesOf(view);
  // Each vSphere VM's demand series, by its entity ("<vCenter id>/<moid>").
  const GuestCpus guest_cpus = GuestCpuInstances(view);
  std::map<std::string, Member> members;
  for (const StoredSeries& s : view.series) {
    if (s.key.source != SourceKind::kVsphere) continue;
    const int i = view.dir.HostEntryOf(s.key);
    if (i < 0 || !view.dir.entry(static_cast<size_t>(i)).key.starts_with(kVspherePrefix)) continue;
    Member& m = members[view.dir.entry(static_cast<size_t>(i)).key.substr(kVspherePrefix.size())];
    m.series.source = "vsphere";
    Classify(s, &m.series);
  }
  for (size_t i = 0; i < view.dir.entries().size(); ++i) {
    const VmEntry& vm = view.dir.entry(i);
    if (!vm.key.starts_with(kVspherePrefix)) continue;
    if (auto it = members.find(vm.key.substr(kVspherePrefix.size())); it != members.end())
      it->second.vcpus = VcpusOf(vm, it->second.series.vcpu_instances.size(), guest_cpus, view.dir);
  }
  for (const StoredCluster& c : clusters) {
    if (!Selected(req, c)) continue;
    CapacityEntity e;
    e.scope = "cluster";
    e.name = e.label = c.name;
    e.key = "vsphere-cluster:" + c.vcenter + "/" + c.moid;
    e.source = "vsphere";
    const auto hosts = HostsWithCounters(c, host_series);
    size_t vms = 0;
    const DemandPlan plan = hosts ? FromHosts(e.key, *hosts) : FromVms(e.key, c, members, &vms);
    e.demand_counter = plan.counter;
    if (!hosts)
      e.flags.push_back({"demand-from-vms", Severity::kInfo,
                         "the cluster's demand is its " + std::to_string(vms) + (vms == 1 ? " VM's" : " VMs'") +
                             " run + ready: the hypervisor's own CPU is not in it (not every host's own counters "
                             "are stored)"});
    const std::optional<double> capacity = CapacityOf(c, req, &e);
    if (!plan.ids.empty()) RETURN_IF_ERROR(AnswerFromPlan(store, req, update, plan, capacity, &e));
    if (!req.digests_only) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace vrecon
