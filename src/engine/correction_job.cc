#include "src/engine/correction_job.h"

#include <algorithm>
#include <set>

#include "models/vm_identity.h"
#include "src/core/text_util.h"
#include "src/store/sample_reader.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {
namespace {

using models::HostSource;
using models::NormalizeVmName;

bool IsPerCpuInstance(const SeriesKey& k) {
  return !k.instance.empty() && k.instance.find("_Total") == std::string::npos;
}

// The series one VM needs, by role.
struct VmPlan {
  models::VmMatch match;
  const StoredSeries* guest_total = nullptr;
  const StoredSeries* guest_steal = nullptr;  // Processor(_Total) % Steal Time (Linux guests)
  std::vector<const StoredSeries*> guest_cpus;
  std::map<std::string, const StoredSeries*> processes, process_ids;
  HostSource host = HostSource::kNone;
  std::map<int, std::vector<const StoredSeries*>> host_vps;  // VP number -> series (one per host log)
  std::vector<const StoredSeries*> host_group;
  std::vector<const StoredSeries*> host_ready, host_costop;  // vSphere or esxtop, summed over vCPUs

  std::vector<int64_t> AllIds() const {
    std::vector<int64_t> ids;
    auto add = [&](const StoredSeries* s) { ids.push_back(s->id); };
    if (guest_total) add(guest_total);
    for (auto* s : guest_cpus) add(s);
    for (auto& [n, s] : processes) add(s);
    for (auto& [vp, v] : host_vps)
      for (auto* s : v) add(s);
    for (auto* s : host_group) add(s);
    return ids;
  }
};

void PlanGuest(const std::vector<StoredSeries>& all, const std::string& guest, VmPlan* p) {
  const std::string ng = NormalizeVmName(guest);
  // Processor(n) when the log has it, else Processor Information (NUMA-style "0,1" names).
  bool have_processor = false;
  for (const StoredSeries& s : all)
    if (s.key.source == SourceKind::kGuest && s.key.object == "Processor" && NormalizeVmName(s.key.machine) == ng)
      have_processor = true;
  const std::string cpu_object = have_processor ? "Processor" : "Processor Information";
  for (const StoredSeries& s : all) {
    const SeriesKey& k = s.key;
    if (NormalizeVmName(k.machine) != ng) continue;
    if (k.source == SourceKind::kGuest && k.object == cpu_object && k.counter == "% Steal Time" &&
        k.instance == "_Total") {
      p->guest_steal = &s;
    } else if (k.source == SourceKind::kGuest && k.object == cpu_object && k.counter == "% Processor Time") {
      if (k.instance == "_Total") {
        p->guest_total = &s;
      } else if (IsPerCpuInstance(k)) {
        p->guest_cpus.push_back(&s);
      }
    } else if (k.source == SourceKind::kGuest && (k.object == "Process" || k.object == "Process V2")) {
      if (k.instance == "_Total" || k.instance == "Idle" || k.instance.starts_with("Idle:")) continue;
      if (k.counter == "% Processor Time") p->processes[k.instance] = &s;
      if (k.counter == "ID Process") p->process_ids[k.instance] = &s;
    } else if (k.source == SourceKind::kVmTools && k.object == "VM Processor" && k.instance == "_Total" &&
               k.counter == "% Processor Time" && p->host == HostSource::kNone) {
      p->host_group.push_back(&s);
    }
  }
  if (!p->host_group.empty()) p->host = HostSource::kVmTools;
}

void PlanHost(const std::vector<StoredSeries>& all, const std::string& vm, bool guest_run_time, VmPlan* p) {
  const std::string nv = NormalizeVmName(vm);
  const std::string vp_counter = guest_run_time ? "% Guest Run Time" : "% Total Run Time";
  std::map<int, std::vector<const StoredSeries*>> vps;
  std::vector<const StoredSeries*> groups, vsphere_usage;
  std::vector<const StoredSeries*> vs_ready, vs_costop, esx_ready, esx_costop;
  for (const StoredSeries& s : all) {
    const SeriesKey& k = s.key;
    if (k.source == SourceKind::kHyperV && k.object == "Hyper-V Hypervisor Virtual Processor" && k.counter == vp_counter) {
      auto vp = models::ParseHyperVVpInstance(k.instance);
      if (vp && NormalizeVmName(vp->vm) == nv) vps[vp->vp].push_back(&s);
    } else if (k.source == SourceKind::kVsphere && k.counter == "cpu.usage.average" && k.instance.empty()) {
      if (NormalizeVmName(k.machine) == nv) vsphere_usage.push_back(&s);
    } else if (k.source == SourceKind::kEsxtop && k.object == "Group Cpu" && k.counter == "% Used") {
      auto g = models::ParseEsxtopGroupInstance(k.instance);
      if (g && NormalizeVmName(*g) == nv) groups.push_back(&s);
    }
    if (k.source == SourceKind::kVsphere && k.instance.empty() && NormalizeVmName(k.machine) == nv) {
      if (k.counter == "cpu.ready.summation") vs_ready.push_back(&s);
      if (k.counter == "cpu.costop.summation") vs_costop.push_back(&s);
    } else if (k.source == SourceKind::kEsxtop && k.object == "Group Cpu" &&
               (k.counter == "% Ready" || k.counter == "% CoStop")) {
      auto g = models::ParseEsxtopGroupInstance(k.instance);
      if (g && NormalizeVmName(*g) == nv) (k.counter == "% Ready" ? esx_ready : esx_costop).push_back(&s);
    }
  }
  p->host_ready = !vs_ready.empty() ? std::move(vs_ready) : std::move(esx_ready);
  p->host_costop = !vs_costop.empty() ? std::move(vs_costop) : std::move(esx_costop);
  if (!vps.empty()) {
    p->host = HostSource::kHyperV;
    p->host_vps = std::move(vps);
    p->host_group.clear();
  } else if (!vsphere_usage.empty()) {
    p->host = HostSource::kVsphere;
    p->host_group = std::move(vsphere_usage);
  } else if (!groups.empty()) {
    p->host = HostSource::kEsxtop;
    p->host_group = std::move(groups);
  }
}

std::vector<std::string> HostVmNames(const std::vector<StoredSeries>& all) {
  std::set<std::string> seen;
  std::vector<std::string> out;
  auto add = [&](const std::string& n) {
    if (seen.insert(NormalizeVmName(n)).second) out.push_back(n);
  };
  for (const StoredSeries& s : all) {
    if (s.key.source == SourceKind::kHyperV && s.key.object == "Hyper-V Hypervisor Virtual Processor") {
      if (auto vp = models::ParseHyperVVpInstance(s.key.instance)) add(vp->vm);
    } else if (s.key.source == SourceKind::kEsxtop && s.key.object == "Group Cpu" && s.key.counter == "% Used") {
      if (auto g = models::ParseEsxtopGroupInstance(s.key.instance)) add(*g);
    } else if (s.key.source == SourceKind::kVsphere && s.key.counter == "cpu.usage.average") {
      add(s.key.machine);
    }
  }
  return out;
}

Status Fill(Database* db, const StoredSeries* s, const TimeRange& range, models::WindowSeries* w) {
  return ForEachSample(db, s->id, range, [w](TimeNs a, TimeNs b, double v) {
    if (!IsMissing(v)) w->Add(a, b, v);
  });
}

}  // namespace

StatusOr<std::vector<models::WindowResult>> RunCorrection(Store* store, const CorrectionRequest& req) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(std::vector<StoredSeries> all, FindSeries(db, SeriesFilter{}));
  // The vSphere inventory knows each VM's guest host name: a mapping the user need not give,
  // which stored and --map mappings override. Keys are normalized here so that precedence holds
  // whatever case or domain suffix each layer spells the guest with.
  ASSIGN_OR_RETURN(std::vector<StoredVm> inventory, VsphereVms(db));
  std::map<std::string, std::string> mappings;
  std::map<std::string, int> inventory_vcpus;  // normalized VM name -> vCPUs
  for (const StoredVm& v : inventory) {
    if (!v.guest_hostname.empty()) mappings[NormalizeVmName(v.guest_hostname)] = v.name;
    if (v.num_cpu > 0) inventory_vcpus[NormalizeVmName(v.name)] = v.num_cpu;
  }
  ASSIGN_OR_RETURN(auto stored_mappings, store->Mappings());
  for (const auto& [g, v] : stored_mappings) mappings[NormalizeVmName(g)] = v;
  for (const auto& [g, v] : req.mappings) mappings[NormalizeVmName(g)] = v;

  std::set<std::string> guest_seen;
  std::vector<std::string> guests;
  for (const StoredSeries& s : all) {
    const SeriesKey& k = s.key;
    if (k.source == SourceKind::kGuest && (k.object == "Processor" || k.object == "Processor Information" ||
                                           k.object == "Process" || k.object == "Process V2")) {
      if (guest_seen.insert(NormalizeVmName(k.machine)).second) guests.push_back(k.machine);
    }
  }
  std::vector<models::VmMatch> matches = models::MatchVms(guests, HostVmNames(all), mappings);
  if (req.vm) {
    const std::string want = NormalizeVmName(*req.vm);
    std::erase_if(matches, [&](const models::VmMatch& m) {
      auto hit = [&](const std::string& n) { return GlobMatch(*req.vm, n) || NormalizeVmName(n) == want; };
      return !(hit(m.vm) || (m.guest && hit(*m.guest)));
    });
    if (matches.empty()) {
      return Status::NotFound("no VM or guest named \"" + *req.vm + "\" in " + db->path() +
                              " (vrecon samples --object Processor lists the guests it holds)");
    }
  }

  std::vector<models::WindowResult> out;
  for (const models::VmMatch& m : matches) {
    VmPlan plan;
    plan.match = m;
    if (m.guest) PlanGuest(all, *m.guest, &plan);
    PlanHost(all, m.vm, req.hyperv_guest_run_time, &plan);
    const std::vector<int64_t> ids = plan.AllIds();
    ASSIGN_OR_RETURN(std::optional<TimeRange> span, SeriesSpan(db, ids));
    if (!span) continue;
    TimeRange range = *span;
    if (req.from) range.from = std::max(range.from, *req.from);
    if (req.to) range.to = std::min(range.to, *req.to);
    if (range.to <= range.from) continue;
    const models::WindowGrid grid = models::WindowGrid::Covering(range.from, range.to, req.window);

    models::VmSeries vm;
    vm.vm = m.vm;
    vm.guest_machine = m.guest.value_or("");
    vm.host = plan.host;
    auto make = [&](const StoredSeries* s) -> StatusOr<models::WindowSeries> {
      models::WindowSeries w(grid);
      RETURN_IF_ERROR(Fill(db, s, range, &w));
      return w;
    };
    if (plan.guest_total) {
      ASSIGN_OR_RETURN(vm.guest_total, make(plan.guest_total));
    }
    if (plan.guest_steal) {
      ASSIGN_OR_RETURN(vm.guest_steal, make(plan.guest_steal));
    }
    for (const StoredSeries* s : plan.guest_cpus) {
      ASSIGN_OR_RETURN(models::WindowSeries w, make(s));
      vm.guest_cpus.push_back(std::move(w));
    }
    for (const auto& [name, s] : plan.processes) {
      ASSIGN_OR_RETURN(models::WindowSeries w, make(s));
      vm.processes.emplace(name, std::move(w));
    }
    for (const auto& [name, s] : plan.process_ids) {
      ASSIGN_OR_RETURN(models::WindowSeries w, make(s));
      vm.process_ids.emplace(name, std::move(w));
    }
    for (const auto& [vp, series] : plan.host_vps) {
      models::WindowSeries w(grid);  // one VP seen by several host logs (migration) is one series
      for (const StoredSeries* s : series) RETURN_IF_ERROR(Fill(db, s, range, &w));
      vm.host_vps.push_back(std::move(w));
    }
    if (!plan.host_vps.empty()) vm.host_vcpus = static_cast<int>(plan.host_vps.size());
    if (auto it = inventory_vcpus.find(NormalizeVmName(m.vm)); it != inventory_vcpus.end()) vm.host_vcpus = it->second;
    if (!plan.host_group.empty()) {
      models::WindowSeries w(grid);
      for (const StoredSeries* s : plan.host_group) RETURN_IF_ERROR(Fill(db, s, range, &w));
      vm.host_group = std::move(w);
    }
    for (auto [series, dst] : {std::pair{&plan.host_ready, &vm.host_ready}, std::pair{&plan.host_costop, &vm.host_costop}}) {
      if (series->empty()) continue;
      models::WindowSeries w(grid);
      for (const StoredSeries* s : *series) RETURN_IF_ERROR(Fill(db, s, range, &w));
      *dst = std::move(w);
    }
    std::vector<models::WindowResult> r = models::CorrectVm(vm, grid, req.config);
    std::move(r.begin(), r.end(), std::back_inserter(out));
  }
  return out;
}

}  // namespace vrecon
