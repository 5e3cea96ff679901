#include "src/engine/ready_job.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "models/vm_identity.h"
#include "src/core/host_counters.h"
#include "src/core/text_util.h"
#include "src/engine/vm_directory.h"
#include "src/engine/vm_view.h"
#include "src/store/sample_reader.h"

namespace vrecon {
namespace {

using models::Interval;

struct Acc {
  std::string source;
  std::set<std::string> vcpu_ids;  // per-vCPU instances / VPs seen
  std::vector<std::pair<const StoredSeries*, std::vector<Interval> models::ReadyInput::*>> series;
};

using In = models::ReadyInput;

// Which input a host-side series feeds, and where its per-vCPU instances count; nullptr for none.
std::vector<Interval> In::*FieldOf(const SeriesKey& k, Acc* a) {
  if (k.source == SourceKind::kVsphere && (k.object == "cpu" || k.counter.starts_with("cpu."))) {
    if (!k.instance.empty()) {
      if (k.counter == "cpu.ready.summation") a->vcpu_ids.insert(k.instance);
      return nullptr;
    }
    if (k.counter == "cpu.ready.summation") return &In::ready;
    if (k.counter == "cpu.costop.summation") return &In::costop;
    if (k.counter == kVsphereRunCounter) return &In::run;
    if (k.counter == "cpu.wait.summation") return &In::wait;
    if (k.counter == kVsphereUsageCounter) return &In::usage;
  } else if (k.source == SourceKind::kEsxtop) {
    if (k.counter == "% Ready") return &In::ready;
    if (k.counter == "% CoStop") return &In::costop;
    if (k.counter == kEsxtopRunCounter) return &In::run;
    if (k.counter == "% Wait") return &In::wait;
    if (k.counter == kEsxtopUsedCounter) return &In::used;
  } else if (k.source == SourceKind::kHyperV && k.counter == "CPU Wait Time Per Dispatch") {
    if (auto vp = models::ParseHyperVVpInstance(k.instance)) a->vcpu_ids.insert(std::to_string(vp->vp));
    return &In::wait_per_dispatch_ns;
  }
  return nullptr;
}

// Each series' samples in the range appended to its input, in the order given (several series
// may feed one input), read in one go for all of them.
Status ReadInto(BlockReader* reader, const std::vector<std::pair<int64_t, std::vector<Interval>*>>& into,
                const TimeRange& range) {
  std::vector<int64_t> ids;
  ids.reserve(into.size());
  for (const auto& [id, dst] : into) ids.push_back(id);
  std::map<int64_t, std::vector<Interval>> read;
  Status s = reader->ForEachOf(ids, range, [&read](int64_t id, const SampleBlock& b) {
    if (b.values.empty()) return;
    std::vector<Interval>& out = read[id];
    for (size_t i = 0; i < b.starts.size(); ++i)
      if (!IsMissing(b.values[i])) out.push_back({b.starts[i], b.ends[i], b.values[i]});
  });
  reader->Forget();
  RETURN_IF_ERROR(s);
  for (const auto& [id, dst] : into)
    if (auto it = read.find(id); it != read.end()) dst->insert(dst->end(), it->second.begin(), it->second.end());
  return Status::Ok();
}

// The store's host-side series sorted by the VM and source they feed.
struct ReadySeries {
  VmViewPtr view;
  GuestCpus guest_cpus;  // a vCPU count for esxtop VMs the inventory does not know
  // Host load series by host machine: Hyper-V LP _Total % Total Run Time, esxtop Physical Cpu _Total.
  std::map<std::string, std::vector<const StoredSeries*>> host_load;
  std::map<std::pair<size_t, std::string>, Acc> vms;  // (entry, source) -> its series
};

StatusOr<std::unique_ptr<ReadySeries>> FindReadySeries(Store* store, const ReadyRequest& req) {
  auto out = std::make_unique<ReadySeries>();
  out->view = req.view;
  if (!out->view) {
    ASSIGN_OR_RETURN(auto mappings, store->Mappings());
    ASSIGN_OR_RETURN(out->view, ReadVmView(store, req.vm_keys, mappings));
  }
  const VmDirectory& dir = out->view->dir;
  out->guest_cpus = GuestCpuInstances(*out->view);
  for (const StoredSeries& s : out->view->series) {
    const SeriesKey& k = s.key;
    if ((k.source == SourceKind::kHyperV && k.object == "Hyper-V Hypervisor Logical Processor" &&
         k.instance == "_Total" && k.counter == kHyperVTotalRunCounter) ||
        (k.source == SourceKind::kEsxtop && k.object == "Physical Cpu" && k.instance == "_Total" &&
         k.counter == "% Util Time"))
      out->host_load[models::FoldVmName(k.machine)].push_back(&s);
    const int e = dir.HostEntryOf(k);
    if (e < 0) continue;
    Acc& a = out->vms[{static_cast<size_t>(e), std::string(SourceKindName(k.source))}];
    a.source = SourceKindName(k.source);
    if (auto field = FieldOf(k, &a)) a.series.push_back({&s, field});
  }
  return out;
}

// The host load series of the VM's hosts.
std::vector<const StoredSeries*> HostLoadOf(const ReadySeries& rs, const VmEntry& e) {
  std::vector<const StoredSeries*> out;
  for (const std::string& h : e.hosts)
    if (auto it = rs.host_load.find(models::FoldVmName(h)); it != rs.host_load.end())
      out.insert(out.end(), it->second.begin(), it->second.end());
  return out;
}

// A VM's input with its name, source, host and vCPUs, no samples yet.
models::ReadyInput EmptyInput(const ReadySeries& rs, const VmEntry& e, const Acc& a) {
  models::ReadyInput in;
  in.vm = e.name;
  in.source = a.source;
  in.host = Join(e.hosts, ", ");
  in.vcpus = VcpusOf(e, a.vcpu_ids.size(), rs.guest_cpus, rs.view->dir);
  return in;
}

using Todo = std::vector<std::pair<const VmEntry*, Acc*>>;

// Tells `before_batch` of VMs [k, end), then takes their ranges and reads their series ahead in
// two queries on PostgreSQL: those of the VMs whose ranges have a start (a fleet round's), or,
// when no range has one (a first round's new VMs), all of them. A VM read over its whole history
// beside VMs read from a start is read alone, not to read every VM's whole history.
Status StartBatch(const ReadySeries& rs, const Todo& todo, size_t k, size_t end, const ReadyRangeFn& range_of,
                  const ReadyBatchFn& before_batch, BlockReader* reader, std::vector<TimeRange>* ranges) {
  if (before_batch) {
    std::vector<std::pair<const VmEntry*, std::string>> vms_of_batch;
    for (size_t j = k; j < end; ++j) vms_of_batch.emplace_back(todo[j].first, todo[j].second->source);
    RETURN_IF_ERROR(before_batch(vms_of_batch));
  }
  constexpr TimeNs kWhole = std::numeric_limits<TimeNs>::min();
  bool all_whole = true;
  for (size_t j = k; j < end; ++j) {
    (*ranges)[j] = range_of(todo[j].first->key, todo[j].second->source);
    all_whole = all_whole && (*ranges)[j].from == kWhole;
  }
  TimeNs from = std::numeric_limits<TimeNs>::max();
  std::vector<int64_t> ids;
  for (size_t j = k; j < end; ++j) {
    if ((*ranges)[j].from == kWhole && !all_whole) continue;
    from = std::min(from, (*ranges)[j].from);
    for (const auto& [s, field] : todo[j].second->series) ids.push_back(s->id);
    for (const StoredSeries* s : HostLoadOf(rs, *todo[j].first)) ids.push_back(s->id);
  }
  return reader->Prefetch(ids, from);
}

}  // namespace

Status ForEachReadyInput(Store* store, const ReadyRequest& req, const ReadyRangeFn& range_of,
                         const ReadyInputVisitor& visit, const ReadyBatchFn& before_batch) {
  ASSIGN_OR_RETURN(const std::unique_ptr<ReadySeries> rs, FindReadySeries(store, req));
  const VmDirectory& dir = rs->view->dir;
  const std::vector<size_t> selected = dir.Select(req.vm, req.vm_keys);
  const std::set<size_t> wanted(selected.begin(), selected.end());
  Todo todo;
  for (auto& [key, a] : rs->vms)
    if (wanted.contains(key.first) && !a.series.empty()) todo.emplace_back(&dir.entry(key.first), &a);
  BlockReader reader(store);
  // A few dozen VMs at a time: what the caller reads of them first, then their samples.
  constexpr size_t kBatchVms = 64;
  std::vector<TimeRange> ranges(todo.size());
  for (size_t k = 0; k < todo.size(); ++k) {
    if (k % kBatchVms == 0)
      RETURN_IF_ERROR(
          StartBatch(*rs, todo, k, std::min(todo.size(), k + kBatchVms), range_of, before_batch, &reader, &ranges));
    const VmEntry& e = *todo[k].first;
    Acc& a = *todo[k].second;
    models::ReadyInput in = EmptyInput(*rs, e, a);
    std::vector<std::pair<int64_t, std::vector<Interval>*>> into;
    for (auto& [s, field] : a.series) into.emplace_back(s->id, &(in.*field));
    for (const StoredSeries* s : HostLoadOf(*rs, e)) into.emplace_back(s->id, &in.host_load);
    RETURN_IF_ERROR(ReadInto(&reader, into, ranges[k]));
    RETURN_IF_ERROR(visit(e, std::move(in)));
  }
  if (req.vm && todo.empty()) {
    return Status::NotFound("no VM named \"" + *req.vm + "\" with ready-time data in " + store->location() +
                            " (vrecon samples --counter '*Ready*' lists what the store holds)");
  }
  return Status::Ok();
}

StatusOr<std::vector<models::VmReadySummary>> RunReadyAnalysis(Store* store, const ReadyRequest& req) {
  TimeRange range;
  if (req.from) range.from = *req.from;
  if (req.to) range.to = *req.to;
  std::vector<models::VmReadySummary> out;
  RETURN_IF_ERROR(ForEachReadyInput(
      store, req, [&](const std::string&, const std::string&) { return range; },
      [&](const VmEntry& e, models::ReadyInput&& in) {
        models::VmReadySummary summary = models::AnalyzeVm(in, req.thresholds);
        summary.vm_key = e.key;
        summary.vm_source = e.source;
        summary.vm_name_shared = e.name_shared;
        out.push_back(std::move(summary));
        return Status::Ok();
      }));
  std::stable_sort(out.begin(), out.end(), [](const models::VmReadySummary& a, const models::VmReadySummary& b) {
    return std::make_tuple(models::NormalizeVmName(a.vm), a.vm_key, a.source) <
           std::make_tuple(models::NormalizeVmName(b.vm), b.vm_key, b.source);
  });
  return out;
}

}  // namespace vrecon
