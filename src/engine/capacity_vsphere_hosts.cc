// A collected vCenter's hosts for `vrecon capacity` (docs/capacity.md): each host's own counters
// (source vsphere-host, their aggregate): busy logical processors (cpu.utilization.average x its
// threads) plus the ready its VMs wait (the host's cpu.ready.summation, summed over its VMs'
// vCPUs), against its physical cores with hyper-threading active, else its logical processors,
// as the inventory gives them.
#include <algorithm>

#include "models/capacity.h"
#include "src/core/text_util.h"
#include "src/engine/capacity_days.h"
#include "src/engine/capacity_parts.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {
namespace {

bool Selected(const CapacityRequest& req, const StoredHost& h, const std::string& key) {
  if (req.names.empty()) return true;
  return std::any_of(req.names.begin(), req.names.end(),
                     [&](const std::string& n) { return GlobMatch(n, h.name) || n == key || n == h.moid; });
}

StatusOr<CapacityEntity> HostEntity(Store* store, const StoredHost& h, const VsphereHostSeries& s,
                                    const CapacityRequest& req, const DayUpdate& update) {
  CapacityEntity e;
  e.scope = "host";
  e.name = e.label = h.name;
  e.key = "vsphere-host:" + h.entity;
  e.source = "vsphere";
  e.demand_counter = "cpu.utilization.average x threads" + std::string(s.ready.empty() ? "" : " + cpu.ready.summation");
  const std::optional<int> threads = VsphereHostThreads(h);
  if (!threads) {
    e.flags.push_back({"lp-count-unknown", Severity::kWarning,
                       "the inventory gives no logical processor count for the host: no capacity or demand in cores"});
    return e;
  }
  const std::optional<models::CapacityCores> cap = models::HostCapacity(VsphereHostProcessors(h));
  DemandPlan plan;
  plan.entity = e.key;
  plan.source = e.source;
  plan.counter = e.demand_counter + " (" + std::to_string(*threads) + " threads)";
  plan.ids = s.utilization;
  plan.ids.insert(plan.ids.end(), s.ready.begin(), s.ready.end());
  plan.bins = [&s, t = *threads](const Samples& samples) { return VsphereHostBins(s, samples, t); };
  RETURN_IF_ERROR(AnswerFromPlan(store, req, update, plan, cap ? std::optional<double>(cap->cores) : std::nullopt, &e));
  if (cap && cap->logical)
    e.flags.push_back({"capacity-logical", Severity::kInfo,
                       "hyper-threading is not known: the capacity is the " + std::to_string(*threads) +
                           " logical processors; with it on, the physical cores would be"});
  return e;
}

}  // namespace

models::HostProcessors VsphereHostProcessors(const StoredHost& h) {
  models::HostProcessors p;
  if (h.cores > 0) p.cores = h.cores;
  if (h.threads > 0) p.threads = h.threads;
  p.hyperthreading = h.hyperthreading;
  return p;
}

std::optional<int> VsphereHostThreads(const StoredHost& h) {
  if (h.threads > 0) return h.threads;
  if (h.cores > 0 && h.hyperthreading == false) return h.cores;
  return std::nullopt;
}

std::map<std::string, VsphereHostSeries> VsphereHostSeriesOf(const VmView& view) {
  std::map<std::string, VsphereHostSeries> out;
  for (const StoredSeries& s : view.series) {
    const SeriesKey& k = s.key;
    if (k.source != SourceKind::kVsphereHost || !k.instance.empty() || k.entity.empty()) continue;
    if (k.counter == "cpu.utilization.average") out[k.entity].utilization.push_back(s.id);
    if (k.counter == "cpu.ready.summation") out[k.entity].ready.push_back(s.id);
  }
  return out;
}

std::vector<models::DemandBin> VsphereHostBins(const VsphereHostSeries& s, const Samples& samples, int threads) {
  // Utilization is a percent of all its logical processors: x threads is a percent of one.
  return models::FiveMinuteDemand(Joined(samples, s.utilization, threads), Joined(samples, s.ready));
}

StatusOr<std::vector<CapacityEntity>> VsphereHostCapacities(Store* store, const VmView& view,
                                                            const CapacityRequest& req, const DayUpdate& update) {
  const std::map<std::string, VsphereHostSeries> series = VsphereHostSeriesOf(view);
  std::vector<CapacityEntity> out;
  if (series.empty()) return out;
  ASSIGN_OR_RETURN(const std::vector<StoredHost> hosts, VsphereHosts(store));
  for (const StoredHost& h : hosts) {
    auto it = series.find(h.entity);
    if (h.entity.empty() || it == series.end() || it->second.utilization.empty()) continue;
    if (!Selected(req, h, "vsphere-host:" + h.entity)) continue;
    ASSIGN_OR_RETURN(CapacityEntity e, HostEntity(store, h, it->second, req, update));
    if (!req.digests_only) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace vrecon
