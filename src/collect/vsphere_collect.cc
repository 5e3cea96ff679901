#include "src/collect/vsphere_collect.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "adapters/vsphere/vsphere_units.h"
#include "src/core/text_util.h"
#include "src/store/block_writer.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {
namespace {

using vsphere::CounterInfo;
using vsphere::EntityMetrics;
using vsphere::QuerySpec;

constexpr TimeNs kRealtimeKeep = 3600 * kNsPerSec;  // vCenter keeps realtime samples about an hour

struct Batch {
  std::vector<QuerySpec> specs;
  std::set<std::string> vms;
};

struct BatchResult {
  size_t index = 0;
  StatusOr<std::vector<EntityMetrics>> metrics = Status::Unavailable("not run");
};

// Stores one batch in one transaction; marks move only with it.
class BatchWriter {
 public:
  BatchWriter(Store* store, std::string vcenter, const std::map<int, CounterInfo>& counters,
              const std::map<std::string, vsphere::VmInfo>& vms, std::map<MarkKey, TimeNs>* marks)
      : store_(store), vcenter_(std::move(vcenter)), counters_(counters), vms_(vms), marks_(marks) {}

  Status Write(const std::vector<EntityMetrics>& metrics, const std::vector<QuerySpec>& asked,
               VsphereCollectResult* result) {
    ASSIGN_OR_RETURN(Transaction tx, Transaction::Begin(store_->db()));
    std::map<MarkKey, TimeNs> moved;
    int64_t samples = 0;
    std::vector<ImportIssue> issues;
    for (const EntityMetrics& em : metrics) RETURN_IF_ERROR(WriteEntity(em, &moved, &samples, &issues));
    // A counter the server answered for without usable values (none, or a series that could
    // not be paired with its times) was still asked up to the VM's newest sample: its mark moves
    // there too, or every later round would ask for it from --since again.
    for (const QuerySpec& q : asked) {
      for (const EntityMetrics& em : metrics) {
        if (em.entity.value != q.entity || em.ends.empty()) continue;
        for (int id : q.counter_ids) {
          auto c = counters_.find(id);
          if (c == counters_.end()) continue;
          TimeNs& m = moved[MarkKey{q.entity, c->second.name, q.interval_id}];
          m = std::max(m, em.ends.back());
        }
      }
    }
    for (const auto& [key, t] : moved) RETURN_IF_ERROR(SetVsphereMark(store_->db(), vcenter_, key, t));
    RETURN_IF_ERROR(tx.Commit());
    for (const auto& [key, t] : moved) (*marks_)[key] = std::max((*marks_)[key], t);
    result->samples += samples;
    for (ImportIssue& i : issues) result->issues.push_back(std::move(i));
    return Status::Ok();
  }

 private:
  Status WriteEntity(const EntityMetrics& em, std::map<MarkKey, TimeNs>* moved, int64_t* samples,
                     std::vector<ImportIssue>* issues) {
    auto vm_it = vms_.find(em.entity.value);
    const std::string vm_name = vm_it != vms_.end() ? vm_it->second.name : em.entity.value;
    const std::string where = vcenter_ + " " + vm_name;
    std::vector<ImportIssue> own;
    for (const std::string& p : em.problems) own.push_back(ImportIssue{vcenter_, 0, Severity::kWarning, "perf-series-mismatch", p});

    std::vector<SeriesKey> columns;
    std::vector<const vsphere::MetricSeries*> series;
    std::vector<vsphere::RawUnit> units;
    for (const vsphere::MetricSeries& ms : em.series) {
      auto c = counters_.find(ms.counter_id);
      if (c == counters_.end()) continue;
      const vsphere::RawUnit unit = vsphere::ApiUnit(c->second.unit_key);
      SeriesKey k;
      k.source = SourceKind::kVsphere;
      k.machine = vm_name;
      k.object = vsphere::CounterGroup(c->second.name);
      k.instance = ms.instance;
      k.counter = c->second.name;
      k.unit = vsphere::Convert(k.counter, 0, unit, 20)->unit;
      k.original = c->second.name;
      columns.push_back(std::move(k));
      series.push_back(&ms);
      units.push_back(unit);
    }
    FileRecord file;
    const std::string fingerprint = "vsphere|" + vcenter_ + "|" + em.entity.value;
    ASSIGN_OR_RETURN(auto found, store_->FindFile(fingerprint));
    if (found) file = *found;
    file.fingerprint = fingerprint;
    file.path = vcenter_;
    file.format = "vsphere-api";
    file.kinds = "vsphere";
    file.machines = vm_name;
    file.consumed_line_hash = file.consumed_line_hash.empty() ? "0" : file.consumed_line_hash;
    if (file.id == 0) RETURN_IF_ERROR(store_->SaveFile(&file));

    BlockWriter writer(store_);
    writer.set_file_id(file.id);
    if (!columns.empty()) RETURN_IF_ERROR(writer.DeclareColumns(columns));
    std::vector<double> row(columns.size());
    for (size_t i = 0; i < em.ends.size() && !columns.empty(); ++i) {
      const int interval = em.intervals_s[i];
      bool any = false;
      for (size_t c = 0; c < columns.size(); ++c) {
        row[c] = kMissing;
        const MarkKey key{em.entity.value, columns[c].counter, interval};
        auto mark = marks_->find(key);
        // Already stored by an earlier round (servers repeat the sample at startTime).
        if (mark != marks_->end() && em.ends[i] <= mark->second) continue;
        auto v = vsphere::Convert(columns[c].counter, series[c]->values[i], units[c], interval);
        if (!v) continue;
        row[c] = v->value;
        any = true;
        ++*samples;
        TimeNs& m = (*moved)[key];
        m = std::max(m, em.ends[i]);
      }
      if (!any) continue;
      RETURN_IF_ERROR(writer.AddRow(em.ends[i] - static_cast<TimeNs>(interval) * kNsPerSec, em.ends[i], row));
      ++file.rows;
      if (!file.first_end || em.ends[i] < *file.first_end) file.first_end = em.ends[i];
      if (!file.last_end || em.ends[i] > *file.last_end) file.last_end = em.ends[i];
    }
    for (ImportIssue& i : own) writer.AddIssue(i);
    RETURN_IF_ERROR(writer.Finish());
    file.issues += static_cast<int64_t>(own.size());
    RETURN_IF_ERROR(store_->SaveFile(&file));
    for (ImportIssue& i : own) {
      i.message = where + ": " + i.message;
      issues->push_back(std::move(i));
    }
    return Status::Ok();
  }

  Store* store_;
  std::string vcenter_;
  const std::map<int, CounterInfo>& counters_;
  const std::map<std::string, vsphere::VmInfo>& vms_;
  std::map<MarkKey, TimeNs>* marks_;
};

}  // namespace

StatusOr<VsphereCollectResult> CollectVsphere(Store* store, const VsphereCollectOptions& opt) {
  VsphereCollectResult result;
  const std::string vcenter = opt.client.transport.url;
  ASSIGN_OR_RETURN(std::unique_ptr<vsphere::VsphereClient> client, vsphere::VsphereClient::Connect(opt.client));
  result.server = client->service_content().full_name;
  ASSIGN_OR_RETURN(const TimeNs now, client->CurrentTime());

  ASSIGN_OR_RETURN(std::vector<CounterInfo> all_counters, client->PerfCounters());
  std::map<std::string, const CounterInfo*> by_name;
  for (const CounterInfo& c : all_counters) by_name.emplace(c.name, &c);
  std::map<int, CounterInfo> wanted;
  for (const std::string& name : opt.counters) {
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      result.issues.push_back(ImportIssue{vcenter, 0, Severity::kWarning, "counter-missing",
                                          vcenter + " has no performance counter " + name + "; it is not collected"});
      continue;
    }
    wanted[it->second->key] = *it->second;
  }
  if (wanted.empty()) return Status::NotFound(vcenter + " offers none of the CPU counters vrecon collects");

  ASSIGN_OR_RETURN(std::vector<vsphere::VmInfo> vm_list, client->VirtualMachines());
  ASSIGN_OR_RETURN(std::vector<vsphere::HostInfo> hosts, client->Hosts());
  result.batch_limit = client->MaxQueryMetrics(/*unlimited=*/256);
  {
    ASSIGN_OR_RETURN(Transaction tx, Transaction::Begin(store->db()));
    for (const auto& h : hosts) RETURN_IF_ERROR(SaveVsphereHost(store->db(), StoredHost{vcenter, h.moid, h.name, h.cores, h.mhz}));
    for (const auto& v : vm_list)
      RETURN_IF_ERROR(SaveVsphereVm(store->db(), StoredVm{vcenter, v.moid, v.name, v.host_moid, v.power_state,
                                                          v.guest_hostname, v.num_cpu}));
    RETURN_IF_ERROR(tx.Commit());
  }

  std::map<std::string, vsphere::VmInfo> vms;
  for (const auto& v : vm_list) {
    if (!GlobMatch(opt.vm_glob, v.name)) continue;
    if (v.power_state != "poweredOn") {
      ++result.vms_skipped;
      continue;
    }
    vms[v.moid] = v;
  }
  result.vms_selected = static_cast<int>(vms.size());

  // Realtime keeps about an hour; older ranges need the 300 s historical rollup.
  const bool historical = opt.historical || opt.since > kRealtimeKeep;
  const int interval = historical ? 300 : 20;
  result.interval_s = interval;
  const TimeNs lookback = historical ? 3600 * kNsPerSec : 60 * kNsPerSec;  // late data
  ASSIGN_OR_RETURN(auto marks, VsphereMarks(store->db(), vcenter));
  result.to = now;
  result.from = now;

  // Every (VM, counter) pair is one metric of the server's per-query limit.
  std::vector<Batch> batches;
  Batch current;
  int in_batch = 0;
  for (const auto& [moid, vm] : vms) {
    TimeNs start = now - opt.since;
    // One start per VM, from its oldest mark. A counter without a mark (never stored, e.g. its
    // part of a VM split across batches failed) is the oldest of all: start from --since, or
    // that counter would keep a gap behind its siblings' marks.
    std::optional<TimeNs> oldest_mark;
    bool every_counter_marked = true;
    for (const auto& [id, c] : wanted) {
      auto m = marks.find(MarkKey{moid, c.name, interval});
      if (m == marks.end()) every_counter_marked = false;
      else oldest_mark = std::min(oldest_mark.value_or(m->second), m->second);
    }
    if (oldest_mark && every_counter_marked) start = std::max(start, *oldest_mark - lookback);
    if (!historical) start = std::max(start, now - kRealtimeKeep + interval * kNsPerSec);
    result.from = std::min(result.from, start);
    const int max_sample = static_cast<int>((now - start) / (interval * kNsPerSec)) + 1;
    for (const auto& [id, c] : wanted) {
      if (current.specs.empty() || current.specs.back().entity != moid) {
        QuerySpec q;
        q.entity = moid;
        q.interval_id = interval;
        q.start = start;
        q.end = now;
        q.max_sample = max_sample;
        current.specs.push_back(std::move(q));
      }
      current.specs.back().counter_ids.push_back(id);
      current.vms.insert(moid);
      if (++in_batch == result.batch_limit) {
        batches.push_back(std::move(current));
        current = Batch{};
        in_batch = 0;
      }
    }
  }
  if (!current.specs.empty()) batches.push_back(std::move(current));
  result.batches = static_cast<int>(batches.size());

  // Workers query; this thread stores, so SQLite has one writer. The queue is bounded so
  // answers do not pile up in memory when storing is slower than fetching.
  const int workers = std::max(1, std::min<int>(opt.concurrency, static_cast<int>(batches.size())));
  std::mutex mu;
  std::condition_variable cv;
  std::deque<BatchResult> ready;
  size_t next = 0;
  int running = workers;
  std::vector<std::unique_ptr<vsphere::VsphereClient>> clients;
  clients.push_back(std::move(client));
  for (int i = 1; i < workers; ++i) {
    ASSIGN_OR_RETURN(auto c, clients.front()->Clone());
    clients.push_back(std::move(c));
  }
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      while (true) {
        size_t i;
        {
          std::unique_lock<std::mutex> lock(mu);
          cv.wait(lock, [&] { return ready.size() < static_cast<size_t>(2 * workers); });
          if (next >= batches.size()) break;
          i = next++;
        }
        BatchResult r;
        r.index = i;
        r.metrics = clients[w]->QueryPerf(batches[i].specs);
        std::lock_guard<std::mutex> lock(mu);
        ready.push_back(std::move(r));
        cv.notify_all();
      }
      std::lock_guard<std::mutex> lock(mu);
      --running;
      cv.notify_all();
    });
  }
  BatchWriter writer(store, vcenter, wanted, vms, &marks);
  std::set<std::string> failed_vms;
  int done = 0;
  while (true) {
    BatchResult r;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return !ready.empty() || running == 0; });
      if (ready.empty()) break;
      r = std::move(ready.front());
      ready.pop_front();
      cv.notify_all();
    }
    Status s = r.metrics.ok() ? writer.Write(*r.metrics, batches[r.index].specs, &result) : r.metrics.status();
    if (!s.ok()) {
      ++result.batches_failed;
      result.errors.push_back(s.message());
      failed_vms.insert(batches[r.index].vms.begin(), batches[r.index].vms.end());
    }
    if (opt.progress) opt.progress(++done, result.batches);
  }
  for (std::thread& t : threads) t.join();
  result.vms_collected = result.vms_selected - static_cast<int>(failed_vms.size());
  for (const auto& c : clients) {
    result.relogins += c->relogins();
    result.transport.requests += c->stats().requests;
    result.transport.bytes_sent += c->stats().bytes_sent;
    result.transport.bytes_received += c->stats().bytes_received;
  }
  Status logout = clients.front()->Logout();
  if (!logout.ok()) result.errors.push_back("logout: " + logout.message());
  result.transport.requests += 1;
  return result;
}

}  // namespace vrecon
