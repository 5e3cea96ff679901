#include "src/engine/stored_corrections.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <utility>

#include "models/vm_identity.h"
#include "src/engine/ready_summaries.h"
#include "src/store/correction_rows.h"
#include "src/store/latest_window.h"
#include "src/store/retention.h"
#include "src/store/sample_reader.h"
#include "src/store/window_blocks.h"

namespace vrecon {
namespace {

// Per hour of window start: process name -> sums.
using HourAggregates = std::map<TimeNs, std::map<std::string, ProcessAggregate>>;

// What a window corrected from an ETW trace adds (ProcessAggregate's event sums).
void AddEventFigures(const models::ProcessResult& p, ProcessAggregate* a) {
  ++a->n_events;
  if (p.bottleneck_pct) {
    ++a->n_bottleneck;
    a->sum_bottleneck += *p.bottleneck_pct;
  }
  if (p.queue_ms_mean) {
    ++a->n_queue;
    a->sum_queue_ms += *p.queue_ms_mean;
  }
  if (p.queue_ms_p95) a->max_queue_p95 = std::max(a->max_queue_p95.value_or(*p.queue_ms_p95), *p.queue_ms_p95);
  if (p.sampled_pct && p.guest_pct) {
    ++a->n_paired;
    a->sum_sampled += *p.sampled_pct;
    a->sum_paired_events += *p.guest_pct;
  }
}

// An hour without a process gets no entry, so no row: LoadProcessAggregates reads a missing hour as
// an empty one, and a host-only VM (a vSphere fleet's) would otherwise write an empty row an hour.
void AddProcesses(const models::WindowResult& r, HourAggregates* hours) {
  if (r.processes.empty()) return;
  auto& hour = (*hours)[FloorTo(r.start, kNsPerHour)];
  for (const models::ProcessResult& p : r.processes) {
    ProcessAggregate& a = hour[p.name];
    a.name = p.name;
    if (p.guest_pct) {
      ++a.n_guest;
      a.sum_guest += *p.guest_pct;
    }
    if (p.corrected_pct) {
      ++a.n_corr;
      a.sum_corr += *p.corrected_pct;
      // A window without an interval adds no width: it is a point estimate. The interval may be
      // asymmetric (clamped at 0; CPU a partial process may have used unseen): its wider side.
      if (p.ci_lo && p.ci_hi) {
        const double hw = std::max(*p.ci_hi - *p.corrected_pct, *p.corrected_pct - *p.ci_lo);
        a.sum_hw2 += hw * hw;
      }
    }
    if (p.basis == models::Basis::kEvents) AddEventFigures(p, &a);
  }
}

// The window's processes as one-window aggregates (src/store/latest_window.h).
std::vector<ProcessAggregate> WindowProcesses(const models::WindowResult& r) {
  HourAggregates one;
  AddProcesses(r, &one);
  std::vector<ProcessAggregate> out;
  for (const models::ProcessResult& p : r.processes) out.push_back(one.begin()->second[p.name]);
  return out;
}

// Keeps the newest complete window of those just stored as the VM's latest.
Status PutNewestComplete(Store* store, int64_t vm_id, const std::vector<models::WindowResult>& windows,
                         const std::vector<StoredWindow>& stored, TimeNs from, TimeNs to) {
  for (size_t i = stored.size(); i-- > 0;) {
    if (!IsCompleteWindow(stored[i])) continue;
    const auto r = std::find_if(windows.begin(), windows.end(),
                                [&](const models::WindowResult& x) { return x.start == stored[i].start; });
    return PutLatestWindow(store, vm_id, stored[i], WindowProcesses(*r), from, to);
  }
  return Status::Ok();
}

// The VM's row as its windows give it.
CorrVm VmOf(const std::vector<models::WindowResult>& windows) {
  CorrVm vm;
  vm.vm = windows.front().vm;
  vm.vm_key = windows.front().vm_key;
  vm.vm_source = windows.front().vm_source;
  vm.host_counter = windows.front().host_counter;
  vm.guest_machine = windows.front().guest_machine;
  vm.host_source = models::HostSourceName(windows.front().host);
  for (const models::WindowResult& r : windows)
    if (r.vcpus) vm.vcpus = r.vcpus;
  return vm;
}

// A VM's windows in [from, to) and its process hours, given its id; how many windows.
StatusOr<int64_t> WriteVmWindows(Store* store, CorrectionRows* rows, int64_t id,
                                 const std::vector<models::WindowResult>& windows, TimeNs from, TimeNs to) {
  HourAggregates hours;
  std::vector<StoredWindow> stored;
  stored.reserve(windows.size());
  for (const models::WindowResult& r : windows) {
    if (r.start < from || r.start >= to) continue;  // outside the widened range
    stored.push_back(ToStoredWindow(r));
    AddProcesses(r, &hours);
  }
  std::vector<std::pair<TimeNs, std::vector<ProcessAggregate>>> process_hours;
  for (const auto& [hour, procs] : hours) {
    std::vector<ProcessAggregate>& list = process_hours.emplace_back(hour, std::vector<ProcessAggregate>{}).second;
    for (const auto& [name, a] : procs) list.push_back(a);
  }
  RETURN_IF_ERROR(rows->Replace(id, stored, process_hours));
  RETURN_IF_ERROR(PutNewestComplete(store, id, windows, stored, from, to));
  return static_cast<int64_t>(stored.size());
}

// VMs without a corr_vm row yet (a fleet's first round: all of them), held with their windows
// until 64 of them, or 8,192 windows, get their rows and ids in one statement: one upsert
// RETURNING each was a round trip per VM on PostgreSQL.
class NewVms {
 public:
  using Write = std::function<Status(int64_t id, const std::vector<models::WindowResult>& windows)>;
  // `write` stores a VM's windows once it has its id.
  NewVms(Store* store, std::map<std::string, int64_t>* ids, Write write)
      : store_(store), ids_(ids), write_(std::move(write)) {}

  Status Add(CorrVm vm, std::vector<models::WindowResult>&& windows) {
    for (const Held& h : held_)
      if (h.vm.vm_key == vm.vm_key) RETURN_IF_ERROR(Flush());  // one statement, one row each
    windows_ += windows.size();
    held_.push_back(Held{std::move(vm), std::move(windows)});
    return held_.size() < 64 && windows_ < 8192 ? Status::Ok() : Flush();
  }

  Status Flush() {
    if (held_.empty()) return Status::Ok();
    std::vector<CorrVm> vms;
    vms.reserve(held_.size());
    for (const Held& h : held_) vms.push_back(h.vm);
    ASSIGN_OR_RETURN(const auto ids, UpsertCorrVms(store_, vms));
    for (const Held& h : held_) {
      const int64_t id = ids.at(h.vm.vm_key);
      (*ids_)[h.vm.vm_key] = id;
      RETURN_IF_ERROR(write_(id, h.windows));
    }
    held_.clear();
    windows_ = 0;
    return Status::Ok();
  }

 private:
  struct Held {
    CorrVm vm;
    std::vector<models::WindowResult> windows;
  };
  Store* store_;
  std::map<std::string, int64_t>* ids_;
  Write write_;
  std::vector<Held> held_;
  size_t windows_ = 0;
};

// Recomputes `req`'s VMs over [from, to) and replaces their stored windows and process hours
// there; `ids` (vm_key -> corr_vm id) gains the new VMs' rows. How many windows were stored.
StatusOr<int64_t> StoreRange(Store* store, const CorrectionRequest& req, TimeNs from, TimeNs to,
                             std::map<std::string, int64_t>* ids) {
  if (from >= to) return 0;
  int64_t stored = 0;
  CorrectionRows rows(store, from, to);
  auto write = [&](int64_t id, const std::vector<models::WindowResult>& windows) -> Status {
    ASSIGN_OR_RETURN(const int64_t n, WriteVmWindows(store, &rows, id, windows, from, to));
    stored += n;
    return Status::Ok();
  };
  NewVms new_vms(store, ids, write);
  auto store_vm = [&](std::vector<models::WindowResult>&& windows) -> Status {
    if (windows.empty()) return Status::Ok();
    CorrVm vm = VmOf(windows);
    const auto known = ids->find(vm.vm_key);
    if (known == ids->end()) return new_vms.Add(std::move(vm), std::move(windows));
    RETURN_IF_ERROR(rows.SaveVm(vm, known->second));
    return write(known->second, windows);
  };
  RETURN_IF_ERROR(ForEachVmCorrection(store, req, store_vm));
  RETURN_IF_ERROR(new_vms.Flush());
  RETURN_IF_ERROR(rows.Flush());
  return stored;
}

// The request's VMs that may be recomputed from `from`, a window's start inside an hour, rather
// than from the hour's start (CorrectionRows keeps the hour's earlier windows): those without a
// guest log, which have no process figures, whose stored windows reach two windows past `from`.
// The last stored window then took every sample before `from` that a window before it needs: a
// sample weighs on the window before its own at most (the round's range starts a window early
// for that), so the stored windows up to `from` were computed with all their samples. A VM whose
// windows stop short (a round that stored samples but was stopped before its correction, or a
// new VM) is recomputed from the hour's start. None when the request names a VM by name.
StatusOr<std::set<std::string>> LateStartVms(Store* store, const CorrectionRequest& req, const VmView& view,
                                             const std::map<std::string, int64_t>& ids, TimeNs from) {
  std::set<std::string> keys;
  if (req.vm) return keys;
  std::map<int64_t, std::string> by_id;
  for (size_t i : view.dir.Select(std::nullopt, req.vm_keys)) {
    const VmEntry& e = view.dir.entry(i);
    if (!e.guests.empty()) continue;
    if (auto it = ids.find(e.key); it != ids.end()) by_id.emplace(it->second, e.key);
  }
  std::vector<int64_t> vm_ids;
  vm_ids.reserve(by_id.size());
  for (const auto& [id, key] : by_id) vm_ids.push_back(id);
  ASSIGN_OR_RETURN(const auto reach, CorrWindowReach(store, vm_ids));
  for (const auto& [id, end] : reach)
    if (end >= from + 2 * req.window) keys.insert(by_id.at(id));
  return keys;
}

}  // namespace

StoredWindow ToStoredWindow(const models::WindowResult& r) {
  StoredWindow w;
  w.start = r.start;
  w.end = r.end;
  w.vcpus = r.vcpus;
  w.guest_util = r.guest_util_pct;
  w.host_util = r.host_util_pct;
  w.w = r.w;
  w.steal = r.steal_pct;
  w.ready = r.ready_pct_per_vcpu;
  w.costop = r.costop_pct;
  w.clock_offset_s = r.clock_offset_s;
  w.guest_utility = r.guest_utility_pct;
  w.guest_cov = r.guest_coverage;
  w.host_cov = r.host_coverage;
  for (const models::Flag& f : r.flags) w.flags.push_back({f.code, f.severity, f.message});
  return w;
}

StatusOr<int64_t> StoreCorrections(Store* store, const CorrectionRequest& req) {
  const TimeNs unit = std::lcm(kNsPerHour, req.window > 0 ? req.window : kNsPerHour);
  CorrectionRequest widened = req;
  if (req.from) widened.from = FloorTo(*req.from, unit);
  if (req.to) widened.to = CeilTo(*req.to, unit);
  // Nothing before a prune's cutoff is computed again. Windows before the samples' cutoff cannot
  // be: what is stored for them stays (the first whole unit after it is the first that all
  // samples still cover); before the corrections' cutoff the user removed them, and the days of
  // the Ready-Time summaries there live on in their totals only.
  ASSIGN_OR_RETURN(const PruneHorizon pruned, PrunedBefore(store));
  std::optional<TimeNs> frozen_before = pruned.samples_before;
  if (pruned.corrections_before && (!frozen_before || *pruned.corrections_before > *frozen_before))
    frozen_before = pruned.corrections_before;
  if (frozen_before) {
    const TimeNs first_whole = CeilTo(*frozen_before, unit);
    if (!widened.from || *widened.from < first_whole) widened.from = first_whole;
  }
  const TimeNs del_from = widened.from.value_or(std::numeric_limits<TimeNs>::min());
  const TimeNs del_to = widened.to.value_or(std::numeric_limits<TimeNs>::max());

  // The correction reads inside this write transaction, one VM at a time, so a fleet's windows
  // never sit in memory together (new VMs' wait for their rows in bounded groups: NewVms).
  ASSIGN_OR_RETURN(Transaction tx, store->BeginTransaction());
  ASSIGN_OR_RETURN(std::vector<CorrVm> known, ListCorrVms(store, req.vm_keys));
  // The VMs' series and directory, read once for the correction and the Ready-Time update; a fleet
  // round's only what its VMs need (src/engine/vm_view.h).
  if (!widened.view) {
    ASSIGN_OR_RETURN(auto mappings, MergedMappings(store, req.mappings));
    ASSIGN_OR_RETURN(widened.view, ReadVmView(store, req.vm_keys, mappings));
  }
  std::map<std::string, int64_t> ids;  // vm_key -> corr_vm id
  for (const CorrVm& v : known) ids[v.vm_key] = v.id;

  // A fleet round's new samples touch the last window or two, late in an hour as often as early:
  // the VMs without process figures are recomputed from the window before the new samples, not
  // from the hour's start, so a round's cost does not grow through the hour.
  const bool windows_tile_hours = req.window > 0 && kNsPerHour % req.window == 0;
  const TimeNs window_from =
      req.from && windows_tile_hours ? std::max(del_from, FloorTo(*req.from, req.window)) : del_from;
  std::set<std::string> late_vms;
  if (window_from > del_from) {
    ASSIGN_OR_RETURN(late_vms, LateStartVms(store, req, *widened.view, ids, window_from));
  }
  int64_t stored = 0;
  if (late_vms.empty()) {
    ASSIGN_OR_RETURN(stored, StoreRange(store, widened, del_from, del_to, &ids));
  } else {
    CorrectionRequest rest = widened;
    rest.vm_keys.emplace();
    for (size_t i : widened.view->dir.Select(std::nullopt, req.vm_keys))
      if (!late_vms.contains(widened.view->dir.entry(i).key)) rest.vm_keys->insert(widened.view->dir.entry(i).key);
    if (!rest.vm_keys->empty()) {
      ASSIGN_OR_RETURN(stored, StoreRange(store, rest, del_from, del_to, &ids));
    }
    CorrectionRequest late = widened;
    late.from = window_from;
    late.vm_keys = std::move(late_vms);
    // Without a guest there is no guest clock to search: its look back (ReadBound) would only read
    // blocks that end before the range.
    late.align = false;
    ASSIGN_OR_RETURN(const int64_t n, StoreRange(store, late, window_from, del_to, &ids));
    stored += n;
  }

  ReadySummaryUpdate ready;
  ready.vm = req.vm;
  ready.vm_keys = req.vm_keys;
  ready.from = req.from;
  ready.kept_from = frozen_before;
  ready.new_from = req.new_samples_from;
  ready.view = widened.view;
  RETURN_IF_ERROR(UpdateReadySummaries(store, ready, &ids));
  RETURN_IF_ERROR(tx.Commit());
  return stored;
}

}  // namespace vrecon
