#include "src/collect/vsphere_collect.h"

#include <algorithm>
#include <map>
#include <set>

#include "adapters/vsphere/vsphere_units.h"
#include "src/collect/query_pool.h"
#include "src/collect/vsphere_batch_plan.h"
#include "src/collect/vsphere_batch_writer.h"
#include "src/collect/vsphere_rollups.h"
#include "src/core/text_util.h"
#include "src/core/vsphere_entity.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {
namespace {

using vsphere::CounterInfo;
using vsphere::QuerySpec;
using vsphere::VsphereClient;

// A store error ends the collection at once with the store's message: retrying it with the
// network's backoff would not help (a PostgreSQL connection lost is kUnavailable, and still the
// store's: the next round opens a new one).
Status FromStore(const Status& s) { return s.ok() ? s : Status::IOError(s.message()); }
template <typename T>
StatusOr<T> FromStore(StatusOr<T>&& s) {
  if (s.ok()) return std::move(s);
  return Status::IOError(s.status().message());
}

bool Selected(const VsphereCollectOptions& opt, const std::string& name) {
  for (const std::string& g : opt.exclude_globs)
    if (GlobMatch(g, name)) return false;
  if (opt.include_globs.empty()) return GlobMatch(opt.vm_glob, name);
  for (const std::string& g : opt.include_globs)
    if (GlobMatch(g, name)) return true;
  return false;
}

// The id this vCenter's VMs are stored under (src/store/vsphere_tables.h, RecordVcenter).
StatusOr<std::string> IdentifyVcenter(Store* store, const VsphereClient& client, const std::string& vcenter,
                                      VsphereCollectResult* result) {
  const std::string reported_id = VcenterId(client.service_content().instance_uuid, vcenter);
  ASSIGN_OR_RETURN(const std::string vcenter_id, RecordVcenter(store, vcenter, reported_id));
  if (vcenter_id != reported_id) {
    result->issues.push_back(ImportIssue{vcenter, 0, Severity::kWarning, "vcenter-uuid-shared",
                                         vcenter + " reports instanceUuid " + reported_id +
                                             ", as another vCenter in this store does; its VMs are kept apart as "
                                             "vsphere:" +
                                             vcenter_id +
                                             "/<moid>. If both URLs reach one server, collect it by one URL"});
  }
  return vcenter_id;
}

struct Wanted {
  std::map<int, CounterInfo> vm, host;
};

// The counters asked for that the server has, by id; a missing VM counter is an issue, none an
// error; the hosts' are asked where the server has them.
StatusOr<Wanted> WantedCounters(VsphereClient* client, const VsphereCollectOptions& opt, const std::string& vcenter,
                                VsphereCollectResult* result) {
  ASSIGN_OR_RETURN(std::vector<CounterInfo> all, client->PerfCounters());
  std::map<std::string, const CounterInfo*> by_name;
  for (const CounterInfo& c : all) by_name.emplace(c.name, &c);
  Wanted wanted;
  for (const std::string& name : opt.counters) {
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      result->issues.push_back(ImportIssue{vcenter, 0, Severity::kWarning, "counter-missing",
                                           vcenter + " has no performance counter " + name + "; it is not collected"});
      continue;
    }
    wanted.vm[it->second->key] = *it->second;
  }
  if (wanted.vm.empty()) return Status::NotFound(vcenter + " offers none of the CPU counters vrecon collects");
  // A host's demand needs its utilization: without it the others are not asked for.
  if (!by_name.contains("cpu.utilization.average")) return wanted;
  for (const std::string& name : opt.host_counters)
    if (auto it = by_name.find(name); it != by_name.end()) wanted.host[it->second->key] = *it->second;
  return wanted;
}

Status SaveInventory(Store* store, const std::string& vcenter, const std::string& vcenter_id,
                     const std::vector<vsphere::VmInfo>& vms, const std::vector<vsphere::HostInfo>& hosts,
                     const std::vector<vsphere::ClusterInfo>& clusters) {
  ASSIGN_OR_RETURN(Transaction tx, store->BeginTransaction());
  for (const auto& h : hosts)
    RETURN_IF_ERROR(SaveVsphereHost(
        store, StoredHost{vcenter, h.moid, h.name, h.cores, h.mhz, h.threads, h.hyperthreading, h.cluster_moid, ""}));
  for (const auto& c : clusters)
    RETURN_IF_ERROR(
        SaveVsphereCluster(store, StoredCluster{vcenter, c.moid, c.name, c.ha.hosts, c.ha.cpu_pct, {}, {}}));
  std::vector<StoredVm> stored;
  stored.reserve(vms.size());
  for (const auto& v : vms)
    stored.push_back(StoredVm{vcenter, v.moid, v.name, v.host_moid, v.power_state, v.guest_hostname, v.num_cpu,
                              VsphereEntity(vcenter_id, v.moid)});
  RETURN_IF_ERROR(SaveVsphereVms(store, stored));
  return tx.Commit();
}

// The VMs the options select that can have performance data (powered on), by moid.
std::map<std::string, vsphere::VmInfo> SelectVms(const VsphereCollectOptions& opt,
                                                 const std::vector<vsphere::VmInfo>& all,
                                                 VsphereCollectResult* result) {
  std::map<std::string, vsphere::VmInfo> vms;
  for (const auto& v : all) {
    if (!Selected(opt, v.name)) continue;
    if (v.power_state != "poweredOn") {
      ++result->vms_skipped;
      continue;
    }
    vms[v.moid] = v;
  }
  result->vms_selected = static_cast<int>(vms.size());
  return vms;
}

// The plan's rollup ranges are owed from now until a batch stores them: a failed rollup beside a
// stored realtime batch would otherwise leave a gap that no later round asks for.
Status RecordOwed(Store* store, const std::string& vcenter, const BatchPlan& plan) {
  for (const auto& [moid, due] : plan.owe) RETURN_IF_ERROR(SetRollupDue(store, vcenter, moid, due));
  for (const std::string& moid : plan.forgive) RETURN_IF_ERROR(ClearRollupDue(store, vcenter, moid));
  return Status::Ok();
}

StatusOr<std::vector<std::unique_ptr<VsphereClient>>> Clients(std::unique_ptr<VsphereClient> first, int n) {
  std::vector<std::unique_ptr<VsphereClient>> clients;
  clients.push_back(std::move(first));
  for (int i = 1; i < n; ++i) {
    ASSIGN_OR_RETURN(auto c, clients.front()->Clone());
    clients.push_back(std::move(c));
  }
  return clients;
}

void Tally(std::vector<std::unique_ptr<VsphereClient>>& clients, VsphereCollectResult* result) {
  for (const auto& c : clients) {
    result->relogins += c->relogins();
    result->transport.requests += c->stats().requests;
    result->transport.bytes_sent += c->stats().bytes_sent;
    result->transport.bytes_received += c->stats().bytes_received;
  }
  Status logout = clients.front()->Logout();
  if (!logout.ok()) result->errors.push_back("logout: " + logout.message());
  result->transport.requests += 1;
}

// The plan's input but for the store's marks and owed ranges and the server's rollups.
PlanInput PlanFor(const VsphereCollectOptions& opt, TimeNs now, const Wanted& wanted,
                  const std::map<std::string, vsphere::VmInfo>& vms,
                  const std::map<std::string, vsphere::HostInfo>& hosts, int batch_limit) {
  PlanInput in;
  in.now = now;
  in.since = opt.since;
  in.historical = opt.historical;
  in.backfill = opt.backfill;
  in.batch_limit = batch_limit;
  for (const auto& [id, c] : wanted.vm) in.counters[id] = c.name;
  for (const auto& [moid, vm] : vms) in.vms.push_back(moid);
  for (const auto& [id, c] : wanted.host) in.host_counters[id] = c.name;
  for (const auto& [moid, h] : hosts) in.hosts.push_back(moid);
  for (const auto* side : {&wanted.vm, &wanted.host})
    for (const auto& [id, c] : *side) in.counter_levels[id] = c.level;
  return in;
}

// The entities whose backfill batches were all asked and stored, and a warning for the others.
void CountBackfills(const BatchPlan& plan, size_t asked, std::set<std::string> failed, const std::string& vcenter,
                    VsphereCollectResult* result) {
  std::set<std::string> vms, hosts;
  for (size_t i = 0; i < plan.batches.size(); ++i) {
    const Batch& b = plan.batches[i];
    if (!b.backfill) continue;
    vms.insert(b.vms.begin(), b.vms.end());
    hosts.insert(b.hosts.begin(), b.hosts.end());
    if (i >= asked) {
      failed.insert(b.vms.begin(), b.vms.end());
      failed.insert(b.hosts.begin(), b.hosts.end());
    }
  }
  for (const std::string& moid : failed) vms.erase(moid), hosts.erase(moid);
  result->vms_backfilled = static_cast<int>(vms.size());
  result->hosts_backfilled = static_cast<int>(hosts.size());
  result->backfill_failed = static_cast<int>(failed.size());
  if (failed.empty()) return;
  result->issues.push_back(
      ImportIssue{vcenter, 0, Severity::kWarning, "backfill-failed",
                  "the backfill from " + vcenter + "'s historical rollups failed for " + std::to_string(failed.size()) +
                      " VMs and hosts (first " + *failed.begin() +
                      "); a later round asks again only for those of them this round stored nothing of"});
}

}  // namespace

StatusOr<VsphereCollectResult> CollectVsphere(Store* store, const VsphereCollectOptions& opt) {
  VsphereCollectResult result;
  const std::string vcenter = opt.client.transport.url;
  ASSIGN_OR_RETURN(std::unique_ptr<VsphereClient> client, VsphereClient::Connect(opt.client));
  result.server = client->service_content().full_name;
  ASSIGN_OR_RETURN(const std::string vcenter_id, IdentifyVcenter(store, *client, vcenter, &result));
  ASSIGN_OR_RETURN(const TimeNs now, client->CurrentTime());
  ASSIGN_OR_RETURN(const auto wanted, WantedCounters(client.get(), opt, vcenter, &result));
  ASSIGN_OR_RETURN(std::vector<vsphere::VmInfo> vm_list, client->VirtualMachines());
  ASSIGN_OR_RETURN(std::vector<vsphere::HostInfo> hosts, client->Hosts());
  ASSIGN_OR_RETURN(std::vector<vsphere::ClusterInfo> clusters, client->Clusters());
  result.batch_limit = client->MaxQueryMetrics(/*unlimited=*/256);
  RETURN_IF_ERROR(FromStore(SaveInventory(store, vcenter, vcenter_id, vm_list, hosts, clusters)));
  const std::map<std::string, vsphere::VmInfo> vms = SelectVms(opt, vm_list, &result);
  const std::map<std::string, vsphere::HostInfo> selected_hosts =
      wanted.host.empty() ? std::map<std::string, vsphere::HostInfo>{} : HostsToAsk(vms, hosts);
  result.hosts_selected = static_cast<int>(selected_hosts.size());

  PlanInput in = PlanFor(opt, now, wanted, vms, selected_hosts, result.batch_limit);
  ASSIGN_OR_RETURN(in.marks, FromStore(VsphereMarks(store, vcenter)));
  ASSIGN_OR_RETURN(in.owed, FromStore(RollupsDue(store, vcenter)));
  if (NeedsBackfill(in) || NeedsCatchUp(in)) in.rollups = ServerRollups(client.get(), vcenter, &result.issues);
  const BatchPlan plan = PlanBatches(in);
  std::map<int, CounterInfo> counters = wanted.vm;
  counters.insert(wanted.host.begin(), wanted.host.end());
  if (auto issue = RollupsNotKeptIssue(plan, in.rollups, counters, vcenter)) result.issues.push_back(*issue);
  RETURN_IF_ERROR(FromStore(RecordOwed(store, vcenter, plan)));
  result.interval_s = plan.interval_s;
  result.from = plan.from;
  result.to = now;
  result.vms_caught_up = plan.vms_caught_up;
  result.rollups_expired = plan.rollups_expired;
  result.batches = static_cast<int>(plan.batches.size());

  const int workers = std::max(1, std::min<int>(opt.concurrency, result.batches));
  ASSIGN_OR_RETURN(auto clients, Clients(std::move(client), workers));
  VsphereBatchWriter writer(store, vcenter, vcenter_id, counters, vms, selected_hosts, &in.marks);
  std::set<std::string> failed_vms, failed_hosts, backfill_failed;
  int done = 0;
  auto ask = [&](int w, size_t i) { return clients[w]->QueryPerf(plan.batches[i].specs); };
  Status store_failure;  // the first: no batch is stored after it
  auto keep = [&](size_t i, QueryAnswer answer) {
    const Batch& batch = plan.batches[i];
    if (!store_failure.ok()) return false;
    if (answer.ok()) {
      if (Status s = writer.Write(*answer, batch.specs, &result); !s.ok()) {
        store_failure = s;
        return false;
      }
    }
    Status s = answer.status();
    if (!s.ok()) {
      ++result.batches_failed;
      result.errors.push_back(s.message());
      failed_vms.insert(batch.vms.begin(), batch.vms.end());
      failed_hosts.insert(batch.hosts.begin(), batch.hosts.end());
      if (batch.backfill) {
        backfill_failed.insert(batch.vms.begin(), batch.vms.end());
        backfill_failed.insert(batch.hosts.begin(), batch.hosts.end());
      }
    } else if (plan.interval_s != kRollupS) {
      for (const QuerySpec& q : batch.specs) {
        if (q.interval_id != kRollupS) continue;
        if (Status cleared = ClearRollupDue(store, vcenter, q.entity); !cleared.ok()) {
          store_failure = cleared;
          return false;
        }
      }
    }
    if (opt.progress) opt.progress(++done, result.batches);
    return true;
  };
  const PoolRun run = RunQueryPool(plan.batches.size(), workers, ask, keep, opt.stop);
  result.stopped = run.stopped;
  for (size_t i = run.asked; i < plan.batches.size(); ++i) {  // never asked: stopped
    failed_vms.insert(plan.batches[i].vms.begin(), plan.batches[i].vms.end());
    failed_hosts.insert(plan.batches[i].hosts.begin(), plan.batches[i].hosts.end());
  }
  CountBackfills(plan, run.asked, backfill_failed, vcenter, &result);
  result.vms_collected = result.vms_selected - static_cast<int>(failed_vms.size());
  result.hosts_collected = result.hosts_selected - static_cast<int>(failed_hosts.size());
  Tally(clients, &result);  // logs out: before any return, or the vCenter keeps the sessions
  RETURN_IF_ERROR(FromStore(store_failure));
  ASSIGN_OR_RETURN(auto still_due, FromStore(RollupsDue(store, vcenter)));
  result.rollups_due = static_cast<int>(still_due.size());
  return result;
}

}  // namespace vrecon
