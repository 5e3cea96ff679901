#include "src/collect/vsphere_collect.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "adapters/vsphere/vsphere_units.h"
#include "src/collect/vsphere_batch_writer.h"
#include "src/core/text_util.h"
#include "src/core/vsphere_entity.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {
namespace {

using vsphere::CounterInfo;
using vsphere::EntityMetrics;
using vsphere::QuerySpec;

constexpr TimeNs kRealtimeKeep = 3600 * kNsPerSec;  // vCenter keeps realtime samples about an hour
constexpr int kRollupS = 300;                       // the first historical rollup's interval...
constexpr TimeNs kRollupKeep = 86400 * kNsPerSec;   // ...kept a day by default

struct Batch {
  std::vector<QuerySpec> specs;
  std::set<std::string> vms;
};

struct BatchResult {
  size_t index = 0;
  StatusOr<std::vector<EntityMetrics>> metrics = Status::Unavailable("not run");
};

bool Selected(const VsphereCollectOptions& opt, const std::string& name) {
  for (const std::string& g : opt.exclude_globs)
    if (GlobMatch(g, name)) return false;
  if (opt.include_globs.empty()) return GlobMatch(opt.vm_glob, name);
  for (const std::string& g : opt.include_globs)
    if (GlobMatch(g, name)) return true;
  return false;
}

}  // namespace

StatusOr<VsphereCollectResult> CollectVsphere(Store* store, const VsphereCollectOptions& opt) {
  VsphereCollectResult result;
  const std::string vcenter = opt.client.transport.url;
  ASSIGN_OR_RETURN(std::unique_ptr<vsphere::VsphereClient> client, vsphere::VsphereClient::Connect(opt.client));
  result.server = client->service_content().full_name;
  const std::string reported_id = VcenterId(client->service_content().instance_uuid, vcenter);
  ASSIGN_OR_RETURN(const std::string vcenter_id, RecordVcenter(store, vcenter, reported_id));
  if (vcenter_id != reported_id) {
    result.issues.push_back(ImportIssue{vcenter, 0, Severity::kWarning, "vcenter-uuid-shared",
                                        vcenter + " reports instanceUuid " + reported_id +
                                            ", as another vCenter in this store does; its VMs are "
                                            "kept apart as vsphere:" +
                                            vcenter_id +
                                            "/<moid>. If both URLs reach one server, collect it by one URL"});
  }
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
    ASSIGN_OR_RETURN(Transaction tx, store->BeginTransaction());
    for (const auto& h : hosts)
      RETURN_IF_ERROR(SaveVsphereHost(store, StoredHost{vcenter, h.moid, h.name, h.cores, h.mhz}));
    for (const auto& v : vm_list)
      RETURN_IF_ERROR(SaveVsphereVm(store, StoredVm{vcenter, v.moid, v.name, v.host_moid, v.power_state,
                                                    v.guest_hostname, v.num_cpu, VsphereEntity(vcenter_id, v.moid)}));
    RETURN_IF_ERROR(tx.Commit());
  }

  std::map<std::string, vsphere::VmInfo> vms;
  for (const auto& v : vm_list) {
    if (!Selected(opt, v.name)) continue;
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
  ASSIGN_OR_RETURN(auto marks, VsphereMarks(store, vcenter));
  // Rollup ranges earlier rounds planned and did not store (a failed batch, a stopped round).
  ASSIGN_OR_RETURN(auto due, RollupsDue(store, vcenter));
  result.to = now;
  result.from = now;

  // Every (VM, counter) pair is one metric of the server's per-query limit.
  std::vector<Batch> batches, catch_up;
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
    if (!historical) {
      const TimeNs realtime_first = now - kRealtimeKeep + interval * kNsPerSec;
      // Catch-up: the collector was away longer than realtime keeps. The part the server no
      // longer holds at 20 s comes from the 300 s rollup, up to one rollup into the realtime
      // range so the two meet without a gap (a little overlap, weighted away by the windows).
      const auto owed = due.find(moid);
      const bool gap = oldest_mark && every_counter_marked && *oldest_mark < realtime_first;
      if (gap || owed != due.end()) {
        TimeNs hist_start = gap ? std::max(*oldest_mark, now - kRollupKeep) : now;
        TimeNs hist_end = gap ? realtime_first + kRollupS * kNsPerSec : now - kRollupKeep;
        if (owed != due.end()) {
          hist_start = std::min(hist_start, std::max(owed->second.from, now - kRollupKeep));
          hist_end = std::max(hist_end, owed->second.to);
        }
        for (const auto& [id, c] : wanted) {
          auto h = marks.find(MarkKey{moid, c.name, kRollupS});
          if (h != marks.end()) hist_start = std::max(hist_start, h->second);
        }
        if (hist_start < hist_end) {
          Batch rollup;
          QuerySpec q;
          q.entity = moid;
          q.interval_id = kRollupS;
          q.start = hist_start;
          q.end = hist_end;
          q.max_sample = static_cast<int>((hist_end - hist_start) / (kRollupS * kNsPerSec)) + 1;
          for (const auto& [id, c] : wanted) q.counter_ids.push_back(id);
          rollup.specs.push_back(std::move(q));
          rollup.vms.insert(moid);
          catch_up.push_back(std::move(rollup));
          ++result.vms_caught_up;
          result.from = std::min(result.from, hist_start);
          // Owed until a round stores it: a failed rollup beside a stored realtime batch would
          // otherwise leave a gap that no later round asks for.
          RETURN_IF_ERROR(SetRollupDue(store, vcenter, moid, RollupDue{hist_start, hist_end}));
        } else if (owed != due.end()) {
          if (owed->second.to <= now - kRollupKeep) ++result.rollups_expired;
          RETURN_IF_ERROR(ClearRollupDue(store, vcenter, moid));
        }
      }
      start = std::max(start, realtime_first);
    }
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
  // Rollup queries for the VMs catching up, packed into batches of the same limit and asked
  // first: a round stopped part-way then leaves those VMs' realtime marks old, so the next
  // round still sees the gap (from the rollup marks on) instead of losing it.
  std::vector<Batch> rollups;
  Batch packed;
  int packed_metrics = 0;
  for (Batch& b : catch_up) {
    const int n = static_cast<int>(b.specs.front().counter_ids.size());
    if (!packed.specs.empty() && packed_metrics + n > result.batch_limit) {
      rollups.push_back(std::move(packed));
      packed = Batch{};
      packed_metrics = 0;
    }
    packed.specs.push_back(std::move(b.specs.front()));
    packed.vms.insert(b.vms.begin(), b.vms.end());
    packed_metrics += n;
  }
  if (!packed.specs.empty()) rollups.push_back(std::move(packed));
  batches.insert(batches.begin(), std::make_move_iterator(rollups.begin()), std::make_move_iterator(rollups.end()));
  result.batches = static_cast<int>(batches.size());

  // Workers query; this thread stores, so SQLite has one writer. The queue is bounded so
  // answers do not pile up in memory when storing is slower than fetching.
  const int workers = std::max(1, std::min<int>(opt.concurrency, static_cast<int>(batches.size())));
  std::mutex mu;
  std::condition_variable cv;
  std::deque<BatchResult> ready;
  size_t next = 0;
  bool stopped = false;
  int running = workers;
  std::vector<std::unique_ptr<vsphere::VsphereClient>> clients;
  clients.push_back(std::move(client));
  for (int i = 1; i < workers; ++i) {
    ASSIGN_OR_RETURN(auto c, clients.front()->Clone());
    clients.push_back(std::move(c));
  }
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      while (true) {
        size_t i;
        {
          std::unique_lock<std::mutex> lock(mu);
          cv.wait(lock, [&] { return ready.size() < 2 * static_cast<size_t>(workers); });
          if (next >= batches.size()) break;
          if (opt.stop && opt.stop->load()) {
            stopped = true;
            break;
          }
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
  VsphereBatchWriter writer(store, vcenter, vcenter_id, wanted, vms, &marks);
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
    } else {
      for (const QuerySpec& q : batches[r.index].specs) {
        if (q.interval_id != kRollupS || historical) continue;
        Status cleared = ClearRollupDue(store, vcenter, q.entity);
        if (!cleared.ok()) result.errors.push_back(cleared.message());
      }
    }
    if (opt.progress) opt.progress(++done, result.batches);
  }
  for (std::thread& t : threads) t.join();
  result.stopped = stopped;
  if (stopped) {
    std::set<std::string> unasked;
    for (size_t i = next; i < batches.size(); ++i) unasked.insert(batches[i].vms.begin(), batches[i].vms.end());
    failed_vms.insert(unasked.begin(), unasked.end());
  }
  result.vms_collected = result.vms_selected - static_cast<int>(failed_vms.size());
  ASSIGN_OR_RETURN(auto still_due, RollupsDue(store, vcenter));
  result.rollups_due = static_cast<int>(still_due.size());
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
