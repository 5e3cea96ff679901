#include "src/engine/capacity_vm_demand.h"

#include "models/vm_identity.h"
#include "src/core/host_counters.h"

namespace vrecon {

void Classify(const StoredSeries& s, DemandSeries* d) {
  const SeriesKey& k = s.key;
  if (k.source == SourceKind::kVsphere) {
    if (!k.instance.empty()) {
      if (k.counter == "cpu.ready.summation") d->vcpu_instances.insert(k.instance);
      return;
    }
    if (k.counter == kVsphereRunCounter) d->run.push_back(s.id);
    if (k.counter == "cpu.ready.summation") d->ready.push_back(s.id);
    if (k.counter == kVsphereUsageCounter) d->usage.push_back(s.id);
    if (k.counter == "cpu.costop.summation") d->costop.push_back(s.id);
  } else if (k.source == SourceKind::kEsxtop) {
    if (k.counter == kEsxtopRunCounter) d->run.push_back(s.id);
    if (k.counter == "% Ready") d->ready.push_back(s.id);
    if (k.counter == "% CoStop") d->costop.push_back(s.id);
  } else if (k.source == SourceKind::kHyperV && k.object == "Hyper-V Hypervisor Virtual Processor" &&
             k.counter == kHyperVTotalRunCounter) {
    if (auto vp = models::ParseHyperVVpInstance(k.instance)) d->vp_run[vp->vp].push_back(s.id);
  }
}

std::string DemandCounter(const DemandSeries& d, std::optional<int> vcpus) {
  if (!d.vp_run.empty()) return "Hyper-V Hypervisor Virtual Processor % Total Run Time";
  const bool vsphere = d.source == "vsphere";
  const std::string plus_ready = d.ready.empty() ? "" : vsphere ? " + cpu.ready.summation" : " + % Ready";
  const std::string run(vsphere ? kVsphereRunCounter : kEsxtopRunCounter), usage(kVsphereUsageCounter);
  const std::string usage_x_vcpus = vcpus ? usage + " x " + std::to_string(*vcpus) + " vCPUs" : "";
  if (!d.run.empty() && vsphere && vcpus && !d.usage.empty())
    return run + " (else " + usage_x_vcpus + ", scaled to it)" + plus_ready;
  if (!d.run.empty()) return run + plus_ready;
  if (!vcpus) return "";
  return usage_x_vcpus + plus_ready;
}

std::vector<models::DemandBin> DemandOf(const DemandSeries& d, const Samples& samples, std::optional<int> vcpus) {
  const std::vector<models::Interval> ready = Joined(samples, d.ready);
  if (!d.vp_run.empty()) {
    std::vector<std::vector<models::DemandBin>> parts;
    for (const auto& [vp, ids] : d.vp_run) parts.push_back(models::FiveMinuteDemand(Joined(samples, ids), {}));
    return models::SumOfParts(parts);
  }
  if (!d.run.empty()) {
    // vCenter keeps cpu.run.summation's rollups only from statistics level 2 on: at the default
    // level 1 a backfill's days hold cpu.usage.average alone.
    if (d.source == "vsphere" && vcpus && !d.usage.empty())
      return models::FiveMinuteDemand(models::FilledFrom(Joined(samples, d.run), Joined(samples, d.usage, *vcpus)),
                                      ready);
    return models::FiveMinuteDemand(Joined(samples, d.run), ready);
  }
  if (!vcpus) return {};
  // cpu.usage.average is a percent of the VM's capacity: x vCPUs is a percent of one core.
  return models::FiveMinuteDemand(Joined(samples, d.usage, *vcpus), ready);
}

DemandPlan PlanOf(const DemandSeries& d, const std::string& key, std::optional<int> vcpus) {
  DemandPlan plan;
  plan.entity = key;
  plan.source = d.source;
  plan.counter = DemandCounter(d, vcpus);
  plan.ids = d.run;
  for (const std::vector<int64_t>* more : {&d.ready, &d.usage})
    plan.ids.insert(plan.ids.end(), more->begin(), more->end());
  for (const auto& [vp, vp_ids] : d.vp_run) plan.ids.insert(plan.ids.end(), vp_ids.begin(), vp_ids.end());
  plan.costop_ids = d.costop;
  plan.bins = [&d, vcpus](const Samples& samples) { return DemandOf(d, samples, vcpus); };
  return plan;
}

}  // namespace vrecon
