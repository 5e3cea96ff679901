#include "src/engine/capacity_job.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "models/capacity_demand.h"
#include "models/vm_identity.h"
#include "src/core/text_util.h"
#include "src/engine/capacity_parts.h"
#include "src/engine/vm_view.h"
#include "src/store/sample_reader.h"

namespace vrecon {
namespace {

// One VM's host-side series of one source that say what it used.
struct DemandSeries {
  std::string source;
  std::vector<int64_t> run, ready, usage, costop;
  std::map<int, std::vector<int64_t>> vp_run;  // Hyper-V: each virtual processor's (one per host log)
  std::set<std::string> vcpu_instances;        // vSphere's per-vCPU ready instances
  bool HasRun() const { return !run.empty() || !usage.empty() || !vp_run.empty(); }
};

// Which part of a VM's demand a host-side series is, when it is one.
void Classify(const StoredSeries& s, DemandSeries* d) {
  const SeriesKey& k = s.key;
  if (k.source == SourceKind::kVsphere) {
    if (!k.instance.empty()) {
      if (k.counter == "cpu.ready.summation") d->vcpu_instances.insert(k.instance);
      return;
    }
    if (k.counter == "cpu.run.summation") d->run.push_back(s.id);
    if (k.counter == "cpu.ready.summation") d->ready.push_back(s.id);
    if (k.counter == "cpu.usage.average") d->usage.push_back(s.id);
    if (k.counter == "cpu.costop.summation") d->costop.push_back(s.id);
  } else if (k.source == SourceKind::kEsxtop) {
    if (k.counter == "% Run") d->run.push_back(s.id);
    if (k.counter == "% Ready") d->ready.push_back(s.id);
    if (k.counter == "% CoStop") d->costop.push_back(s.id);
  } else if (k.source == SourceKind::kHyperV && k.object == "Hyper-V Hypervisor Virtual Processor" &&
             k.counter == "% Total Run Time") {
    if (auto vp = models::ParseHyperVVpInstance(k.instance)) d->vp_run[vp->vp].push_back(s.id);
  }
}

// The VM's 5-minute demand and the counter it comes from; empty when it cannot be told (a
// vSphere usage without a vCPU count).
std::vector<models::DemandBin> DemandOf(const DemandSeries& d, const Samples& samples, std::optional<int> vcpus,
                                        std::string* counter) {
  const std::vector<models::Interval> ready = Joined(samples, d.ready);
  if (!d.vp_run.empty()) {
    *counter = "Hyper-V Hypervisor Virtual Processor % Total Run Time";
    std::vector<std::vector<models::DemandBin>> parts;
    for (const auto& [vp, ids] : d.vp_run) parts.push_back(models::FiveMinuteDemand(Joined(samples, ids), {}));
    return models::SumOfParts(parts);
  }
  const bool vsphere = d.source == "vsphere";
  const std::string plus_ready = ready.empty() ? "" : vsphere ? " + cpu.ready.summation" : " + % Ready";
  if (!d.run.empty()) {
    *counter = (vsphere ? "cpu.run.summation" : "% Run") + plus_ready;
    return models::FiveMinuteDemand(Joined(samples, d.run), ready);
  }
  if (!vcpus) return {};
  // cpu.usage.average is a percent of the VM's capacity: x vCPUs is a percent of one core.
  *counter = "cpu.usage.average x vCPUs" + plus_ready;
  return models::FiveMinuteDemand(Joined(samples, d.usage, *vcpus), ready);
}

// Co-stop per vCPU over the last 30 days above the Ready-Time analysis' threshold: more vCPUs
// would wait longer to be scheduled together (models/ready_analysis.h).
bool CostopHigh(const DemandSeries& d, const Samples& samples, std::optional<int> vcpus, TimeNs as_of) {
  if (d.costop.empty() || !vcpus || *vcpus <= 0) return false;
  double sum = 0, seconds = 0;
  for (const models::Interval& v : Joined(samples, d.costop)) {
    if (v.end <= as_of - 30 * 86400 * kNsPerSec) continue;
    const double s = static_cast<double>(v.end - v.start) / kNsPerSec;
    sum += v.value * s;
    seconds += s;
  }
  return seconds > 0 && sum / seconds / *vcpus > models::ReadyThresholds{}.costop_pct;
}

// The answers every entity gets, then a VM's right size.
void Answer(const CapacityRequest& req, const std::vector<models::DemandBin>& bins, bool costop_high,
            CapacityEntity* e) {
  const std::optional<double> capacity = e->vcpus ? std::optional<double>(*e->vcpus) : std::nullopt;
  AnswerFromDemand(req, bins, capacity, e);
  if (!e->as_of) return;
  if (!e->vcpus)
    e->flags.push_back({"vcpus-unknown", Severity::kInfo,
                        "no source gives the VM's vCPU count: no capacity, time remaining or right size"});
  if (e->demand_p95_cores) {
    models::VcpuAdvice advice =
        models::RecommendVcpus(*e->demand_p95_cores, req.target_util_pct, std::nullopt, e->vcpus, costop_high);
    if (e->vcpus) e->recommended_vcpus = advice.recommended;
    for (models::Flag& h : advice.hints) e->flags.push_back(std::move(h));
  }
}

bool Worse(const CapacityEntity& a, const CapacityEntity& b) {
  constexpr int kNever = 1 << 30;
  const int ta = a.time_remaining_days.value_or(kNever), tb = b.time_remaining_days.value_or(kNever);
  if (ta != tb) return ta < tb;
  return a.name < b.name;
}

// One VM's entity from one source's series.
StatusOr<CapacityEntity> VmEntity(Store* store, const VmView& view, const VmEntry& vm, const DemandSeries& d,
                                  const GuestCpus& guest_cpus, const CapacityRequest& req, const TimeRange& range) {
  CapacityEntity e;
  e.scope = "vm";
  e.name = vm.name;
  e.key = vm.key;
  e.host = Join(vm.hosts, ", ");
  e.source = d.source;
  // Hyper-V's virtual processors, else vSphere's per-vCPU instances.
  e.vcpus = VcpusOf(vm, d.vp_run.empty() ? d.vcpu_instances.size() : d.vp_run.size(), guest_cpus, view.dir);
  std::vector<int64_t> ids = d.run;
  for (const std::vector<int64_t>* more : {&d.ready, &d.usage, &d.costop})
    ids.insert(ids.end(), more->begin(), more->end());
  for (const auto& [vp, vp_ids] : d.vp_run) ids.insert(ids.end(), vp_ids.begin(), vp_ids.end());
  Samples samples;
  RETURN_IF_ERROR(ReadSamples(store, ids, range, &samples));
  const std::vector<models::DemandBin> bins = DemandOf(d, samples, e.vcpus, &e.demand_counter);
  const bool costop_high = !bins.empty() && CostopHigh(d, samples, e.vcpus, bins.back().start + models::kDemandBinNs);
  Answer(req, bins, costop_high, &e);
  return e;
}

// The VMs with host-side CPU data that `req.names` selects, each from one source: vSphere, else
// esxtop, else Hyper-V.
StatusOr<std::vector<CapacityEntity>> VmCapacities(Store* store, const VmView& view, const CapacityRequest& req,
                                                   const TimeRange& range) {
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
  if (req.names.empty()) {
    for (size_t i = 0; i < dir.entries().size(); ++i) selected.insert(i);
  } else {
    for (const std::string& n : req.names)
      for (size_t i : dir.Select(n, std::nullopt)) selected.insert(i);
  }
  const GuestCpus guest_cpus = GuestCpuInstances(view);
  std::vector<CapacityEntity> out;
  std::set<size_t> done;
  for (const char* source : {"vsphere", "esxtop", "hyperv"}) {
    for (const auto& [key, d] : by_vm) {
      if (key.second != source || !selected.contains(key.first) || done.contains(key.first) || !d.HasRun()) continue;
      ASSIGN_OR_RETURN(CapacityEntity e, VmEntity(store, view, dir.entry(key.first), d, guest_cpus, req, range));
      if (!e.as_of) continue;  // no demand in the range
      done.insert(key.first);
      out.push_back(std::move(e));
    }
  }
  return out;
}

}  // namespace

StatusOr<std::vector<CapacityEntity>> RunCapacity(Store* store, const CapacityRequest& req) {
  std::vector<CapacityEntity> out;
  if (req.scope == "cluster") return out;  // clusters: a vCenter's inventory, not collected yet
  ASSIGN_OR_RETURN(auto mappings, store->Mappings());
  ASSIGN_OR_RETURN(VmViewPtr view, ReadVmView(store, std::nullopt, mappings));
  TimeRange range;
  if (req.as_of) range.to = *req.as_of;
  if (req.scope == "all" || req.scope == "host") {
    ASSIGN_OR_RETURN(out, HostCapacities(store, *view, req, range));
  }
  if (req.scope == "all" || req.scope == "vm") {
    ASSIGN_OR_RETURN(std::vector<CapacityEntity> vms, VmCapacities(store, *view, req, range));
    out.insert(out.end(), std::make_move_iterator(vms.begin()), std::make_move_iterator(vms.end()));
  }
  if (!req.names.empty() && out.empty())
    return Status::NotFound("nothing named " + Join(req.names, " or ") + " with host-side CPU data in " +
                            store->location() + " (vrecon correct lists the VMs)");
  std::sort(out.begin(), out.end(), Worse);
  return out;
}

}  // namespace vrecon
