#include "src/engine/ready_job.h"

#include <map>
#include <set>

#include "models/vm_identity.h"
#include "src/core/text_util.h"
#include "src/store/sample_reader.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {
namespace {

using models::Interval;
using models::NormalizeVmName;

struct Acc {
  std::string vm, source, host;
  std::set<std::string> vcpu_ids;  // per-vCPU instances / VPs seen
  std::vector<std::pair<const StoredSeries*, std::vector<Interval> models::ReadyInput::*>> series;
};

}  // namespace

StatusOr<std::vector<models::VmReadySummary>> RunReadyAnalysis(Store* store, const ReadyRequest& req) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(std::vector<StoredSeries> all, FindSeries(db, SeriesFilter{}));
  ASSIGN_OR_RETURN(std::vector<StoredVm> inventory, VsphereVms(db));
  std::map<std::string, int> inventory_vcpus;
  for (const StoredVm& v : inventory)
    if (v.num_cpu > 0) inventory_vcpus[NormalizeVmName(v.name)] = v.num_cpu;
  // Guests' Processor(n) instances, a vCPU count for esxtop VMs the inventory does not know.
  std::map<std::string, std::set<std::string>> guest_cpus;
  // Host load series by host machine: Hyper-V LP _Total % Total Run Time, esxtop Physical Cpu _Total.
  std::map<std::string, std::vector<const StoredSeries*>> host_load;
  for (const StoredSeries& s : all) {
    const SeriesKey& k = s.key;
    if (k.source == SourceKind::kGuest && k.object == "Processor" && k.counter == "% Processor Time" &&
        !k.instance.empty() && k.instance.find("_Total") == std::string::npos)
      guest_cpus[NormalizeVmName(k.machine)].insert(k.instance);
    if ((k.source == SourceKind::kHyperV && k.object == "Hyper-V Hypervisor Logical Processor" &&
         k.instance == "_Total" && k.counter == "% Total Run Time") ||
        (k.source == SourceKind::kEsxtop && k.object == "Physical Cpu" && k.instance == "_Total" &&
         k.counter == "% Util Time"))
      host_load[k.machine].push_back(&s);
  }

  using In = models::ReadyInput;
  std::map<std::pair<std::string, std::string>, Acc> vms;  // (normalized VM, source) -> series
  auto acc = [&](const std::string& vm, const char* source) -> Acc& {
    Acc& a = vms[{NormalizeVmName(vm), source}];
    if (a.vm.empty()) a.vm = vm, a.source = source;
    return a;
  };
  for (const StoredSeries& s : all) {
    const SeriesKey& k = s.key;
    if (k.source == SourceKind::kVsphere && (k.object == "cpu" || k.counter.starts_with("cpu."))) {
      std::vector<Interval> In::*field = nullptr;
      if (k.counter == "cpu.ready.summation") field = &In::ready;
      else if (k.counter == "cpu.costop.summation") field = &In::costop;
      else if (k.counter == "cpu.run.summation") field = &In::run;
      else if (k.counter == "cpu.wait.summation") field = &In::wait;
      else if (k.counter == "cpu.usage.average") field = &In::usage;
      if (!field) continue;
      Acc& a = acc(k.machine, "vsphere");
      if (k.instance.empty()) a.series.push_back({&s, field});
      else if (k.counter == "cpu.ready.summation") a.vcpu_ids.insert(k.instance);
    } else if (k.source == SourceKind::kEsxtop && k.object == "Group Cpu") {
      std::vector<Interval> In::*field = nullptr;
      if (k.counter == "% Ready") field = &In::ready;
      else if (k.counter == "% CoStop") field = &In::costop;
      else if (k.counter == "% Run") field = &In::run;
      else if (k.counter == "% Wait") field = &In::wait;
      else if (k.counter == "% Used") field = &In::used;
      auto g = models::ParseEsxtopGroupInstance(k.instance);
      if (!field || !g) continue;
      Acc& a = acc(*g, "esxtop");
      a.host = k.machine;
      a.series.push_back({&s, field});
    } else if (k.source == SourceKind::kHyperV && k.object == "Hyper-V Hypervisor Virtual Processor") {
      auto vp = models::ParseHyperVVpInstance(k.instance);
      if (!vp) continue;
      if (k.counter == "CPU Wait Time Per Dispatch") {
        Acc& a = acc(vp->vm, "hyperv");
        a.host = k.machine;
        a.series.push_back({&s, &In::wait_per_dispatch_ns});
        a.vcpu_ids.insert(std::to_string(vp->vp));
      }
    }
  }

  std::vector<models::VmReadySummary> out;
  TimeRange range;
  if (req.from) range.from = *req.from;
  if (req.to) range.to = *req.to;
  for (auto& [key, a] : vms) {
    if (req.vm && !(GlobMatch(*req.vm, a.vm) || NormalizeVmName(a.vm) == NormalizeVmName(*req.vm))) continue;
    models::ReadyInput in;
    in.vm = a.vm;
    in.source = a.source;
    in.host = a.host;
    if (auto it = inventory_vcpus.find(key.first); it != inventory_vcpus.end()) {
      in.vcpus = it->second;
    } else if (!a.vcpu_ids.empty()) {
      in.vcpus = static_cast<int>(a.vcpu_ids.size());
    } else if (auto g = guest_cpus.find(key.first); g != guest_cpus.end()) {
      in.vcpus = static_cast<int>(g->second.size());
    }
    for (auto& [s, field] : a.series) {
      std::vector<Interval>* dst = &(in.*field);
      RETURN_IF_ERROR(ForEachSample(db, s->id, range, [dst](TimeNs b, TimeNs e, double v) {
        if (!IsMissing(v)) dst->push_back({b, e, v});
      }));
    }
    if (!a.host.empty()) {
      if (auto it = host_load.find(a.host); it != host_load.end()) {
        for (const StoredSeries* s : it->second) {
          RETURN_IF_ERROR(ForEachSample(db, s->id, range, [&in](TimeNs b, TimeNs e, double v) {
            if (!IsMissing(v)) in.host_load.push_back({b, e, v});
          }));
        }
      }
    }
    out.push_back(models::AnalyzeVm(in, req.thresholds));
  }
  if (req.vm && out.empty()) {
    return Status::NotFound("no VM named \"" + *req.vm + "\" with ready-time data in " + db->path() +
                            " (vrecon samples --counter '*Ready*' lists what the store holds)");
  }
  return out;
}

}  // namespace vrecon
