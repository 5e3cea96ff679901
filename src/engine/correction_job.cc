#include "src/engine/correction_job.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "models/vm_identity.h"
#include "src/engine/clock_events.h"
#include "models/window_flags.h"
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
  const StoredSeries* guest_queue = nullptr;  // System\Processor Queue Length (queue-on-idle flag)
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
    } else if (k.source == SourceKind::kGuest && k.object == "System" && k.counter == "Processor Queue Length") {
      p->guest_queue = &s;
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

// The clock as a constant guest -> host shift (ns) when it is one: no clock is no shift, and one
// segment without drift (the usual model) shifts every time alike.
std::optional<TimeNs> ConstantShift(const models::ClockModel* clock) {
  if (!clock) return 0;
  if (clock->segments.size() == 1 && (!clock->segments[0].estimated || clock->segments[0].drift_ppm == 0))
    return clock->ToHost(0);
  return std::nullopt;
}

// One VM's guest time blocks as its series share them, by time block id: the block's times on
// the host clock when the clock drifts (else the stored ones plus a constant shift), and where
// they fall on the VM's grid.
struct SharedBlock {
  std::vector<TimeNs> starts, ends;  // empty: the stored times, shifted
  models::BlockPlan plan;
};
using BlockPlans = std::unordered_map<int64_t, SharedBlock>;

// Streams one series into `w`; guest series go through `clock` (guest -> host time) when set.
// With `plans`, whole time blocks are mapped and planned once and shared by the series that
// read them (a guest log's 53 series); parts of blocks cut to the range are added directly.
Status Fill(BlockReader* reader, const StoredSeries* s, const TimeRange& range, models::WindowSeries* w,
            const models::ClockModel* clock = nullptr, BlockPlans* plans = nullptr) {
  const std::optional<TimeNs> shift = ConstantShift(clock);
  std::vector<TimeNs> starts, ends;  // a drifting clock's mapped times for a part of a block
  auto map = [&](const SampleBlock& b, std::vector<TimeNs>* ms, std::vector<TimeNs>* me) {
    ms->resize(b.starts.size());
    me->resize(b.ends.size());
    for (size_t i = 0; i < b.starts.size(); ++i) {
      (*ms)[i] = clock->ToHost(b.starts[i]);
      (*me)[i] = clock->ToHost(b.ends[i]);
    }
  };
  return reader->ForEach(s->id, range, [&](const SampleBlock& b) {
    if (plans && b.time_block >= 0) {
      auto it = plans->find(b.time_block);
      if (it == plans->end()) {
        SharedBlock sb;
        if (shift) {
          sb.plan = w->Plan(b.starts, b.ends, *shift);
        } else {
          map(b, &sb.starts, &sb.ends);
          sb.plan = w->Plan(sb.starts, sb.ends, 0);
        }
        it = plans->emplace(b.time_block, std::move(sb)).first;
      }
      const SharedBlock& sb = it->second;
      if (shift) {
        w->AddPlanned(sb.plan, b.starts, b.ends, b.values, *shift, b.complete);
      } else {
        w->AddPlanned(sb.plan, sb.starts, sb.ends, b.values, 0, b.complete);
      }
      return;
    }
    if (shift) {
      w->AddAll(b.starts, b.ends, b.values, *shift);
      return;
    }
    // A drifting clock: the times mapped one by one, then added as one block (AddAll skips
    // missing values and keeps its one-window fast path).
    map(b, &starts, &ends);
    w->AddAll(starts, ends, b.values);
  });
}

// Reads one series into `out` (missing values left out), for the alignment and the window.
Status ReadInto(BlockReader* reader, const StoredSeries* s, const TimeRange& range,
                std::vector<models::TimedValue>* out) {
  return reader->ForEach(s->id, range, [out](const SampleBlock& b) {
    for (size_t i = 0; i < b.values.size(); ++i)
      if (!IsMissing(b.values[i])) out->push_back(models::TimedValue{b.starts[i], b.ends[i], b.values[i]});
  });
}

bool ByStart(const models::TimedValue& a, const models::TimedValue& b) { return a.start < b.start; }

}  // namespace

Status ForEachVmCorrection(Store* store, const CorrectionRequest& req, const VmWindowsFn& fn,
                           std::map<std::string, models::ClockModel>* clocks) {
  Database* db = store->db();
  // One read transaction for the run: one snapshot of the store (collectors may write meanwhile),
  // and no lock round trip per query. Not taken when the caller already has a transaction open.
  struct ReadSnapshot {
    Database* db;
    bool open;
    ~ReadSnapshot() {
      if (!open) return;
      db->ResetCached();
      if (!db->Exec("COMMIT").ok()) (void)db->Exec("ROLLBACK");  // it only read: either ends it
    }
  } snapshot{db, db->Exec("BEGIN").ok()};
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

  std::map<std::string, std::vector<models::ClockEvent>> recorded;
  ASSIGN_OR_RETURN(recorded, RecordedClockEvents(store));  // the interval flags need them, aligned or not

  // Series by the normalized name they can belong to (machine, and the VM a Hyper-V VP or esxtop
  // group instance names), so that planning a VM looks at its own series, not the whole fleet's.
  std::unordered_map<std::string, std::vector<StoredSeries>> by_owner;
  for (const StoredSeries& s : all) {
    const std::string machine = NormalizeVmName(s.key.machine);
    by_owner[machine].push_back(s);
    std::optional<std::string> vm;
    if (s.key.source == SourceKind::kHyperV) {
      if (auto vp = models::ParseHyperVVpInstance(s.key.instance)) vm = vp->vm;
    } else if (s.key.source == SourceKind::kEsxtop) {
      vm = models::ParseEsxtopGroupInstance(s.key.instance);
    }
    if (vm && NormalizeVmName(*vm) != machine) by_owner[NormalizeVmName(*vm)].push_back(s);
  }

  std::vector<models::TimedValue> guest_ref, host_ref, buffer;  // reused across VMs
  BlockReader reader(db);
  for (const models::VmMatch& m : matches) {
    reader.Forget();
    VmPlan plan;
    plan.match = m;
    if (m.guest) PlanGuest(by_owner[NormalizeVmName(*m.guest)], *m.guest, &plan);
    PlanHost(by_owner[NormalizeVmName(m.vm)], m.vm, req.hyperv_guest_run_time, &plan);
    const std::vector<int64_t> ids = plan.AllIds();
    ASSIGN_OR_RETURN(std::optional<TimeRange> span, reader.Span(ids));
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

    // Host side first, each series read once into a buffer: the windows take it and the clock
    // estimate matches the guest's total against it.
    host_ref.clear();
    auto host_series = [&](const std::vector<const StoredSeries*>& series) -> StatusOr<models::WindowSeries> {
      models::WindowSeries w(grid);  // one VP seen by several host logs (migration) is one series
      for (const StoredSeries* s : series) {
        buffer.clear();
        RETURN_IF_ERROR(ReadInto(&reader, s, range, &buffer));
        for (const models::TimedValue& x : buffer) w.Add(x.start, x.end, x.value);
        host_ref.insert(host_ref.end(), buffer.begin(), buffer.end());
      }
      return w;
    };
    for (const auto& [vp, series] : plan.host_vps) {
      ASSIGN_OR_RETURN(models::WindowSeries w, host_series(series));
      vm.host_vps.push_back(std::move(w));
    }
    if (!plan.host_group.empty()) {
      ASSIGN_OR_RETURN(vm.host_group, host_series(plan.host_group));
    }

    // The guest's clock: its total's timestamps, what ingest recorded, and (aligned) the offset
    // against the host. Guest series are read over a range widened by the largest offset searched
    // so that samples shifted into the range are not lost.
    const TimeNs lag = req.align ? static_cast<TimeNs>(req.alignment.max_lag_s * kNsPerSec) : 0;
    const TimeRange guest_range{range.from - lag, range.to + lag};
    guest_ref.clear();
    if (plan.guest_total) RETURN_IF_ERROR(ReadInto(&reader, plan.guest_total, guest_range, &guest_ref));
    for (auto* v : {&guest_ref, &host_ref})  // usually sorted already
      if (!std::is_sorted(v->begin(), v->end(), ByStart)) std::stable_sort(v->begin(), v->end(), ByStart);
    std::vector<TimeNs> ends;
    ends.reserve(guest_ref.size());
    for (const models::TimedValue& x : guest_ref) ends.push_back(x.end);
    if (!std::is_sorted(ends.begin(), ends.end())) std::sort(ends.begin(), ends.end());  // usually sorted
    std::span<const models::ClockEvent> events;
    if (auto it = recorded.find(NormalizeVmName(vm.guest_machine)); m.guest && it != recorded.end()) events = it->second;
    models::GuestTimeline timeline = models::AnalyzeGuestTimes(ends, events, req.timeline);
    const bool aligned = req.align && !guest_ref.empty() && !host_ref.empty();
    std::vector<models::RangeEstimate> ranges;
    if (aligned) {
      vm.clock = models::AlignGuestClock(&timeline, guest_ref, host_ref, req.alignment, req.timeline, &ranges);
      if (clocks) (*clocks)[NormalizeVmName(m.vm)] = *vm.clock;
    }
    const models::ClockModel* clock = aligned ? &*vm.clock : nullptr;
    vm.interval_flags = models::IntervalFlags(timeline, clock ? *clock : models::ClockModel{}, ranges, grid, aligned,
                                              req.timeline);

    BlockPlans plans;  // this VM's grid and clock, its reader's time blocks
    auto make = [&](const StoredSeries* s) -> StatusOr<models::WindowSeries> {
      models::WindowSeries w(grid);
      RETURN_IF_ERROR(Fill(&reader, s, guest_range, &w, clock, &plans));
      return w;
    };
    if (plan.guest_total) {
      models::WindowSeries w(grid);
      if (const std::optional<TimeNs> shift = ConstantShift(clock)) {
        for (const models::TimedValue& x : guest_ref) w.Add(x.start + *shift, x.end + *shift, x.value);
      } else {
        for (const models::TimedValue& x : guest_ref) w.Add(clock->ToHost(x.start), clock->ToHost(x.end), x.value);
      }
      vm.guest_total = std::move(w);
    }
    if (plan.guest_steal) {
      ASSIGN_OR_RETURN(vm.guest_steal, make(plan.guest_steal));
    }
    if (plan.guest_queue) {
      ASSIGN_OR_RETURN(vm.guest_queue, make(plan.guest_queue));
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
    if (!plan.host_vps.empty()) vm.host_vcpus = static_cast<int>(plan.host_vps.size());
    if (auto it = inventory_vcpus.find(NormalizeVmName(m.vm)); it != inventory_vcpus.end()) vm.host_vcpus = it->second;
    for (auto [series, dst] : {std::pair{&plan.host_ready, &vm.host_ready}, std::pair{&plan.host_costop, &vm.host_costop}}) {
      if (series->empty()) continue;
      models::WindowSeries w(grid);
      for (const StoredSeries* s : *series) RETURN_IF_ERROR(Fill(&reader, s, range, &w));
      *dst = std::move(w);
    }
    std::vector<models::WindowResult> r = models::CorrectVm(vm, grid, req.config);
    models::AddWindowFlags(vm, grid, models::WindowFlagConfig{}, &r);
    RETURN_IF_ERROR(fn(std::move(r)));
  }
  return Status::Ok();
}

StatusOr<std::vector<models::WindowResult>> RunCorrection(Store* store, const CorrectionRequest& req,
                                                          std::map<std::string, models::ClockModel>* clocks) {
  std::vector<models::WindowResult> out;
  RETURN_IF_ERROR(ForEachVmCorrection(
      store, req,
      [&out](std::vector<models::WindowResult>&& r) {
        std::move(r.begin(), r.end(), std::back_inserter(out));
        return Status::Ok();
      },
      clocks));
  return out;
}

}  // namespace vrecon
