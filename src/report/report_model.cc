#include "src/report/report_model.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "models/vm_identity.h"
#include "src/core/text_util.h"
#include "src/report/output.h"
#include "src/store/retention.h"
#include "src/store/window_blocks.h"

namespace vrecon::report {
namespace {

void Worst(std::optional<double>* acc, const std::optional<double>& v) {
  if (v && (!*acc || *v > **acc)) *acc = v;
}

void AddFlag(std::map<std::string, FlagStat>* flags, const StoredFlag& f, TimeNs start, int64_t n, TimeNs first,
             TimeNs last) {
  auto [it, fresh] = flags->try_emplace(f.code);
  FlagStat& s = it->second;
  if (fresh) {
    s.severity = f.severity;
    s.message = f.message;
    s.first = first;
    s.last = last;
  }
  s.windows += n;
  s.first = std::min(s.first, first);
  s.last = std::max(s.last, last);
  (void)start;
}

std::string MissingText(const VmStats& s) {
  if (s.windows == 0) return "no corrected windows in this period";
  if (s.with_guest == 0) return "no guest data (Perfmon/procfs): guest-reported CPU and w unknown";
  if (s.with_host == 0) return "no host-side data (Hyper-V, vSphere, esxtop, VMware Tools): real CPU and w unknown";
  return "";
}

std::vector<size_t> RankBy(const FleetReport& r, const std::function<std::optional<double>(const VmReport&)>& key) {
  std::vector<size_t> idx;
  for (size_t i = 0; i < r.vms.size(); ++i)
    if (key(r.vms[i])) idx.push_back(i);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return *key(r.vms[a]) > *key(r.vms[b]); });
  return idx;
}

// Retention (src/store/retention.h): what the report shows of a pruned range, in words.
Status AddPruneNotes(Store* store, const ReportRequest& req, FleetReport* r) {
  ASSIGN_OR_RETURN(const PruneHorizon pruned, PrunedBefore(store));
  auto day = [](TimeNs t) { return FormatIso(t, false).substr(0, 10); };
  if (pruned.samples_before && r->windows > 0 && r->first < *pruned.samples_before) {
    r->notes.push_back("samples before " + FormatIso(*pruned.samples_before, false) + " were pruned on " +
                       day(*pruned.samples_pruned_at) +
                       ": the windows before then are the corrections stored before the prune (they cannot be "
                       "recomputed)");
  }
  if (pruned.corrections_before && (!req.from || *req.from < *pruned.corrections_before)) {
    r->notes.push_back("stored corrections before " + FormatIso(*pruned.corrections_before, false) +
                       " were pruned on " + day(*pruned.corrections_pruned_at) + ": nothing before then is reported");
  }
  return Status::Ok();
}

}  // namespace

void VmStats::Add(const StoredWindow& win) {
  if (windows == 0 || win.start < first) first = win.start;
  if (windows == 0 || win.end > last) last = win.end;
  ++windows;
  if (win.w) ++with_w;
  if (win.guest_cov > 0) ++with_guest;
  if (win.host_cov > 0) ++with_host;
  guest.Add(win.guest_util);
  host.Add(win.host_util);
  w.Add(win.w);
  if (win.guest_util && win.host_util) gap.Add(*win.host_util - *win.guest_util);
  ready.Add(win.ready);
  costop.Add(win.costop);
  clock_offset.Add(win.clock_offset_s);
  steal.Add(win.steal);
  guest_cov.Add(win.guest_cov);
  host_cov.Add(win.host_cov);
  utility.Add(win.guest_utility);
  Worst(&max_ready, win.ready);
  Worst(&max_costop, win.costop);
  for (const StoredFlag& f : win.flags) AddFlag(&flags, f, win.start, 1, win.start, win.end);
}

namespace {

// The stored VMs `req.vm` names (a vm_key, or a glob of VM or guest names), each with the label
// people see; all of them without it.
Status SelectVms(Store* store, const ReportRequest& req, FleetReport* r) {
  ASSIGN_OR_RETURN(std::vector<CorrVm> all, ListCorrVms(store));
  std::map<std::string, int> names;
  for (const CorrVm& v : all) ++names[models::FoldVmName(v.vm)];
  const std::string want = req.vm ? models::NormalizeVmName(*req.vm) : "";
  const bool by_key =
      req.vm && std::any_of(all.begin(), all.end(), [&](const CorrVm& v) { return v.vm_key == *req.vm; });
  for (CorrVm& v : all) {
    if (by_key && v.vm_key != *req.vm) continue;
    if (req.vm && !by_key) {
      auto hit = [&](const std::string& n) {
        return !n.empty() && (GlobMatch(*req.vm, n) || models::NormalizeVmName(n) == want);
      };
      if (!hit(v.vm) && !hit(v.guest_machine)) continue;
    }
    VmReport& added = r->vms.emplace_back();
    added.label = VmLabel(v.vm, v.vm_source, names[models::FoldVmName(v.vm)] > 1);
    added.vm = std::move(v);
  }
  if (req.vm && r->vms.empty())
    return Status::NotFound("no VM or guest named \"" + *req.vm + "\" in the stored corrections of " +
                            store->location());
  return Status::Ok();
}

// Each VM's windows in the period (streamed to on_window, or held for visit), Ready-Time
// summaries and process aggregates, one VM at a time.
Status ReadVms(Store* store, const ReportRequest& req, const VmVisitor& visit, const WindowVisitor& on_window,
               FleetReport* r) {
  const TimeNs from = req.from.value_or(std::numeric_limits<TimeNs>::min());
  const TimeNs to = req.to.value_or(std::numeric_limits<TimeNs>::max());
  std::vector<StoredWindow> windows;
  for (size_t i = 0; i < r->vms.size(); ++i) {
    VmReport& v = r->vms[i];
    windows.clear();
    RETURN_IF_ERROR(ForEachCorrWindow(store, v.vm.id, from, to, [&](const StoredWindow& w) {
      v.stats.Add(w);
      if (on_window) {
        on_window(i, v, w);
      } else if (visit) {
        windows.push_back(w);
      }
      return true;
    }));
    ASSIGN_OR_RETURN(v.ready, LoadReady(store, v.vm.id));
    ASSIGN_OR_RETURN(v.processes, LoadProcessAggregates(store, v.vm.id, from, to));
    if (v.processes.size() > req.top_processes) v.processes.resize(req.top_processes);
    v.missing = MissingText(v.stats);
    if (visit) RETURN_IF_ERROR(visit(i, v, windows));
  }
  return Status::Ok();
}

// The fleet's span, counts and flags over its VMs, and each host's worst load, busiest first.
void SumFleet(FleetReport* r) {
  std::map<std::string, HostLoad> hosts;
  bool any_first = false;
  for (VmReport& v : r->vms) {
    const VmStats& s = v.stats;
    if (s.windows) {
      if (!any_first || s.first < r->first) r->first = s.first;
      if (!any_first || s.last > r->last) r->last = s.last;
      any_first = true;
    }
    r->windows += s.windows;
    r->with_w += s.with_w;
    r->with_guest += s.with_guest;
    r->with_host += s.with_host;
    for (const auto& [code, f] : s.flags) {
      auto [it, fresh] = r->flags.try_emplace(code, f);
      if (!fresh) {
        it->second.windows += f.windows;
        it->second.first = std::min(it->second.first, f.first);
        it->second.last = std::max(it->second.last, f.last);
      }
    }
    for (const StoredReady& rd : v.ready) {
      if (rd.host.empty()) continue;
      HostLoad& h = hosts[rd.host];
      h.host = rd.host;
      ++h.vms;
      Worst(&h.load_mean, rd.host_load_mean);
      Worst(&h.load_p95, rd.host_load_p95);
    }
  }
  for (auto& [name, h] : hosts) r->hosts.push_back(h);
  std::stable_sort(r->hosts.begin(), r->hosts.end(), [](const HostLoad& a, const HostLoad& b) {
    if (a.load_p95.has_value() != b.load_p95.has_value()) return a.load_p95.has_value();
    return a.load_p95 && *a.load_p95 > *b.load_p95;
  });
}

// What the reader of the report should know about what is missing.
void AddNotes(FleetReport* r) {
  if (r->windows == 0) r->notes.push_back("no corrected windows in the requested period");
  else if (r->with_guest == 0)
    r->notes.push_back("no guest data in this period: guest-reported CPU, w and corrected processes are unknown");
  else if (r->with_host == 0)
    r->notes.push_back("no host-side data in this period: real CPU, w and corrected processes are unknown");
  if (r->windows > 0 && r->with_w < r->windows)
    r->notes.push_back(std::to_string(r->windows - r->with_w) + " of " + std::to_string(r->windows) +
                       " windows have no w (see the flags for why)");
  if (r->hosts.empty())
    r->notes.push_back("no host load data (Ready-Time analysis needs vSphere, esxtop or Hyper-V host counters)");
}

}  // namespace

StatusOr<FleetReport> BuildFleetReport(Store* store, const ReportRequest& req, const VmVisitor& visit,
                                       const WindowVisitor& on_window) {
  FleetReport r;
  r.db = store->label();  // no directories or hosts: reports get handed on
  r.from = req.from;
  r.to = req.to;
  RETURN_IF_ERROR(SelectVms(store, req, &r));
  RETURN_IF_ERROR(ReadVms(store, req, visit, on_window, &r));
  SumFleet(&r);
  AddNotes(&r);
  RETURN_IF_ERROR(AddPruneNotes(store, req, &r));
  return r;
}

std::vector<size_t> RankByGap(const FleetReport& r) {
  return RankBy(r, [](const VmReport& v) -> std::optional<double> {
    auto g = v.stats.gap.value();
    return g ? std::optional<double>(std::fabs(*g)) : std::nullopt;
  });
}
std::vector<size_t> RankByReady(const FleetReport& r) {
  return RankBy(r, [](const VmReport& v) { return v.stats.ready.value(); });
}
std::vector<size_t> RankByCostop(const FleetReport& r) {
  return RankBy(r, [](const VmReport& v) { return v.stats.costop.value(); });
}

}  // namespace vrecon::report
