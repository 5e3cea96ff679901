#include "src/store/vsphere_tables.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <vector>

#include "models/vm_identity.h"
#include "src/core/text_util.h"
#include "src/store/keyed_query.h"

namespace vrecon {
namespace {

constexpr const char* kVmColumns =
    "SELECT vcenter, moid, name, num_cpu, host_moid, power_state, guest_hostname, entity FROM vsphere_vm";

// Appends the rows of `q` (kVmColumns) not in `seen` (vcenter, moid).
Status TakeVms(Statement* q, std::set<std::pair<std::string, std::string>>* seen, std::vector<StoredVm>* out) {
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    StoredVm v;
    v.vcenter = q->ColumnText(0);
    v.moid = q->ColumnText(1);
    if (!seen->emplace(v.vcenter, v.moid).second) continue;
    v.name = q->ColumnText(2);
    v.num_cpu = static_cast<int>(q->ColumnInt(3));
    v.host_moid = q->ColumnText(4);
    v.power_state = q->ColumnText(5);
    v.guest_hostname = q->ColumnText(6);
    v.entity = q->ColumnText(7);
    out->push_back(std::move(v));
  }
  return Status::Ok();
}

// Moves every vSphere series (a VM's or a host's) stored under entity prefix `from` + "/" to
// `to` + "/"; a series that exists under both keeps the existing row and takes the other's blocks.
Status RekeySeries(Database* db, const std::string& from, const std::string& to) {
  ASSIGN_OR_RETURN(Statement q,
                   db->Prepare("SELECT id, source, machine, object, instance, counter, entity FROM series "
                               "WHERE source IN ('vsphere', 'vsphere-host') AND substr(entity, 1, ?2) = ?1"));
  q.Bind(1, from + "/").Bind(2, static_cast<int64_t>(from.size() + 1));
  struct Row {
    int64_t id;
    std::string source, machine, object, instance, counter, entity;
  };
  std::vector<Row> rows;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    rows.push_back({q.ColumnInt(0), q.ColumnText(1), q.ColumnText(2), q.ColumnText(3), q.ColumnText(4), q.ColumnText(5),
                    to + q.ColumnText(6).substr(from.size())});
  }
  ASSIGN_OR_RETURN(Statement find, db->Prepare("SELECT id FROM series WHERE source = ?6 AND machine = ?1 AND "
                                               "object = ?2 AND instance = ?3 AND counter = ?4 AND entity = ?5"));
  ASSIGN_OR_RETURN(Statement rename, db->Prepare("UPDATE series SET entity = ?1 WHERE id = ?2"));
  ASSIGN_OR_RETURN(Statement move, db->Prepare("UPDATE value_block SET series_id = ?1 WHERE series_id = ?2"));
  ASSIGN_OR_RETURN(Statement drop, db->Prepare("DELETE FROM series WHERE id = ?1"));
  for (const Row& r : rows) {
    find.Bind(1, r.machine)
        .Bind(2, r.object)
        .Bind(3, r.instance)
        .Bind(4, r.counter)
        .Bind(5, r.entity)
        .Bind(6, r.source);
    ASSIGN_OR_RETURN(bool exists, find.Step());
    const int64_t existing = exists ? find.ColumnInt(0) : 0;
    find.Reset();
    if (!exists) {
      RETURN_IF_ERROR(rename.Bind(1, r.entity).Bind(2, r.id).Run());
      continue;
    }
    RETURN_IF_ERROR(move.Bind(1, existing).Bind(2, r.id).Run());
    RETURN_IF_ERROR(drop.Bind(1, r.id).Run());
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::string> RecordVcenter(Store* store, const std::string& url, const std::string& vcenter_id) {
  Database* db = store->db();
  // The lookups below decide the id: they run in the transaction that records it, and on
  // PostgreSQL after the lock on the reported id, so two collectors starting on two servers that
  // report one instanceUuid cannot both take it (their VMs would merge).
  ASSIGN_OR_RETURN(Transaction tx, Transaction::Begin(db));
  RETURN_IF_ERROR(store->SerializeWriters("vcenter " + vcenter_id));
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT vcenter_id FROM vsphere_server WHERE url = ?1"));
  q.Bind(1, url);
  ASSIGN_OR_RETURN(bool known, q.Step());
  const std::string before = known ? q.ColumnText(0) : UrlHost(url);
  q.Reset();
  // Another URL already reported this instanceUuid: a clone (a DR vCenter restored from a backup
  // of production keeps its uuid, and its moids) or the same server by another name. Merging
  // would mix two estates' VMs, so the newcomer's VMs are told apart by its URL host.
  ASSIGN_OR_RETURN(Statement other, db->Prepare("SELECT url FROM vsphere_server WHERE vcenter_id = ?1 AND url != ?2"));
  other.Bind(1, vcenter_id).Bind(2, url);
  ASSIGN_OR_RETURN(bool shared, other.Step());
  const std::string id = shared && vcenter_id != UrlHost(url) ? vcenter_id + "@" + UrlHost(url) : vcenter_id;
  other.Reset();
  // Only data keyed by the URL's host moves: a vCenter whose instanceUuid changed is another
  // server, whose moids name other VMs.
  if (before == UrlHost(url) && before != id) {
    RETURN_IF_ERROR(RekeySeries(db, before, id));
    ASSIGN_OR_RETURN(Statement inv, db->Prepare("UPDATE vsphere_vm SET entity = ?1 || '/' || moid WHERE vcenter = ?2"));
    RETURN_IF_ERROR(inv.Bind(1, id).Bind(2, url).Run());
  }
  ASSIGN_OR_RETURN(Statement save,
                   db->Prepare("INSERT INTO vsphere_server(url, vcenter_id, seen_at) VALUES(?1, ?2, ?3) "
                               "ON CONFLICT(url) DO UPDATE SET vcenter_id = excluded.vcenter_id, "
                               "seen_at = excluded.seen_at"));
  RETURN_IF_ERROR(save.Bind(1, url).Bind(2, id).Bind(3, NowIso()).Run());
  RETURN_IF_ERROR(tx.Commit());
  return id;
}

StatusOr<std::map<std::string, std::string>> VcenterUrls(Store* store) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT url, vcenter_id FROM vsphere_server ORDER BY url"));
  std::map<std::string, std::string> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out.emplace(q.ColumnText(1), q.ColumnText(0));
  }
  return out;
}

Status SaveVsphereVm(Store* store, const StoredVm& v) { return SaveVsphereVms(store, {v}); }

// Many VMs to a statement: a fleet round saves its whole inventory, and on PostgreSQL each
// statement costs the server more than the row it writes.
Status SaveVsphereVms(Store* store, const std::vector<StoredVm>& vms) {
  constexpr size_t kPerInsert = 64;
  // One statement may not touch a row twice (ON CONFLICT): a moid listed twice keeps its last.
  std::map<std::pair<std::string, std::string>, const StoredVm*> last;
  for (const StoredVm& v : vms) last[{v.vcenter, v.moid}] = &v;
  std::vector<const StoredVm*> rows;
  rows.reserve(last.size());
  for (const auto& [key, v] : last) rows.push_back(v);
  const std::string now = NowIso();
  for (size_t first = 0; first < rows.size(); first += kPerInsert) {
    const size_t n = std::min(kPerInsert, rows.size() - first);
    std::string sql =
        "INSERT INTO vsphere_vm(vcenter, moid, name, num_cpu, host_moid, power_state, guest_hostname, "
        "seen_at, entity, name_key, host_key) VALUES";
    for (size_t i = 0; i < n; ++i) sql += i == 0 ? "(?,?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?,?)";
    sql +=
        " ON CONFLICT(vcenter, moid) DO UPDATE SET name = excluded.name, num_cpu = excluded.num_cpu, "
        "host_moid = excluded.host_moid, power_state = excluded.power_state, guest_hostname = "
        "excluded.guest_hostname, seen_at = excluded.seen_at, entity = excluded.entity, name_key = "
        "excluded.name_key, host_key = excluded.host_key"
        // A VM as it was is written again only on its first round of a UTC day (seen_at's first
        // ten characters), so seen_at still tells the last day a collection saw it: a row
        // version and index entries a VM and round for nothing, on PostgreSQL, otherwise.
        " WHERE (vsphere_vm.name, vsphere_vm.num_cpu, vsphere_vm.host_moid, vsphere_vm.power_state, "
        "vsphere_vm.guest_hostname, vsphere_vm.entity, vsphere_vm.name_key, vsphere_vm.host_key, "
        "substr(vsphere_vm.seen_at, 1, 10)) IS DISTINCT FROM (excluded.name, excluded.num_cpu, excluded.host_moid, "
        "excluded.power_state, excluded.guest_hostname, excluded.entity, excluded.name_key, excluded.host_key, "
        "substr(excluded.seen_at, 1, 10))";
    ASSIGN_OR_RETURN(Statement * q, store->db()->Cached(sql));
    for (size_t i = 0; i < n; ++i) {
      const StoredVm& v = *rows[first + i];
      const int p = static_cast<int>(i) * 11;
      q->Bind(p + 1, v.vcenter).Bind(p + 2, v.moid).Bind(p + 3, v.name).Bind(p + 4, static_cast<int64_t>(v.num_cpu));
      q->Bind(p + 5, v.host_moid).Bind(p + 6, v.power_state).Bind(p + 7, v.guest_hostname).Bind(p + 8, now);
      q->Bind(p + 9, v.entity).Bind(p + 10, models::NormalizeVmName(v.name));
      q->Bind(p + 11, models::NormalizeVmName(v.guest_hostname));
    }
    RETURN_IF_ERROR(q->Run());
  }
  return Status::Ok();
}

Status SaveVsphereHost(Store* store, const StoredHost& h) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement * q,
                   db->Cached("INSERT INTO vsphere_host(vcenter, moid, name, cores, mhz, seen_at, threads, "
                              "hyperthreading, cluster_moid) VALUES(?,?,?,?,?,?,?,?,?) "
                              "ON CONFLICT(vcenter, moid) DO UPDATE SET name = excluded.name, cores = "
                              "excluded.cores, mhz = excluded.mhz, seen_at = excluded.seen_at, threads = "
                              "excluded.threads, hyperthreading = excluded.hyperthreading, "
                              "cluster_moid = excluded.cluster_moid"));
  q->Bind(1, h.vcenter).Bind(2, h.moid).Bind(3, h.name).Bind(4, static_cast<int64_t>(h.cores));
  q->Bind(5, static_cast<int64_t>(h.mhz)).Bind(6, NowIso()).Bind(7, static_cast<int64_t>(h.threads));
  if (h.hyperthreading) {
    q->Bind(8, static_cast<int64_t>(*h.hyperthreading ? 1 : 0));
  } else {
    q->BindNull(8);
  }
  q->Bind(9, h.cluster_moid);
  return q->Run();
}

Status SaveVsphereCluster(Store* store, const StoredCluster& c) {
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached(
                                      "INSERT INTO vsphere_cluster(vcenter, moid, name, ha_hosts, ha_cpu_pct, seen_at) "
                                      "VALUES(?,?,?,?,?,?) ON CONFLICT(vcenter, moid) DO UPDATE SET name = "
                                      "excluded.name, ha_hosts = excluded.ha_hosts, ha_cpu_pct = excluded.ha_cpu_pct, "
                                      "seen_at = excluded.seen_at"));
  q->Bind(1, c.vcenter).Bind(2, c.moid).Bind(3, c.name);
  if (c.ha_hosts) {
    q->Bind(4, static_cast<int64_t>(*c.ha_hosts));
  } else {
    q->BindNull(4);
  }
  if (c.ha_cpu_pct) {
    q->Bind(5, *c.ha_cpu_pct);
  } else {
    q->BindNull(5);
  }
  q->Bind(6, NowIso());
  return q->Run();
}

namespace {

// The columns HostRow reads, from vsphere_host h joined with the vCenter's id (vsphere_server s).
constexpr const char* kHostColumns =
    "h.vcenter, h.moid, h.name, h.cores, h.mhz, h.threads, h.hyperthreading, h.cluster_moid, s.vcenter_id";
constexpr const char* kHostsJoined = "vsphere_host h LEFT JOIN vsphere_server s ON s.url = h.vcenter";

StoredHost HostRow(Statement& q) {
  StoredHost h{q.ColumnText(0),
               q.ColumnText(1),
               q.ColumnText(2),
               static_cast<int>(q.ColumnInt(3)),
               static_cast<int>(q.ColumnInt(4)),
               static_cast<int>(q.ColumnInt(5)),
               std::nullopt,
               q.ColumnText(7),
               {}};
  if (!q.ColumnIsNull(6)) h.hyperthreading = q.ColumnInt(6) != 0;
  if (!q.ColumnIsNull(8)) h.entity = q.ColumnText(8) + "/" + h.moid;
  return h;
}

}  // namespace

StatusOr<std::vector<StoredHost>> VsphereHosts(Store* store) {
  ASSIGN_OR_RETURN(Statement q, store->db()->Prepare(std::string("SELECT ") + kHostColumns + " FROM " + kHostsJoined +
                                                     " ORDER BY h.vcenter, h.name, h.moid"));
  std::vector<StoredHost> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out.push_back(HostRow(q));
  }
  return out;
}

StatusOr<std::vector<StoredCluster>> VsphereClusters(Store* store) {
  std::map<std::pair<std::string, std::string>, StoredCluster> by_key;  // (vcenter, moid)
  {
    ASSIGN_OR_RETURN(
        Statement q,
        store->db()->Prepare(std::string("SELECT ") + kHostColumns +
                             ", coalesce(c.name, h.cluster_moid), c.ha_hosts, c.ha_cpu_pct FROM " + kHostsJoined +
                             " LEFT JOIN vsphere_cluster c ON c.vcenter = h.vcenter AND "
                             "c.moid = h.cluster_moid WHERE h.cluster_moid <> ''"));
    while (true) {
      ASSIGN_OR_RETURN(bool row, q.Step());
      if (!row) break;
      StoredHost h = HostRow(q);
      StoredCluster& c = by_key[{h.vcenter, h.cluster_moid}];
      c.vcenter = h.vcenter;
      c.moid = h.cluster_moid;
      c.name = q.ColumnText(9);
      if (!q.ColumnIsNull(10)) c.ha_hosts = static_cast<int>(q.ColumnInt(10));
      if (!q.ColumnIsNull(11)) c.ha_cpu_pct = q.ColumnDouble(11);
      c.hosts.push_back(std::move(h));
    }
  }
  ASSIGN_OR_RETURN(Statement q, store->db()->Prepare("SELECT h.vcenter, h.cluster_moid, v.entity FROM vsphere_vm v "
                                                     "JOIN vsphere_host h ON h.vcenter = v.vcenter AND h.moid = "
                                                     "v.host_moid WHERE h.cluster_moid <> '' ORDER BY v.entity"));
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    if (auto it = by_key.find({q.ColumnText(0), q.ColumnText(1)}); it != by_key.end())
      it->second.vm_entities.push_back(q.ColumnText(2));
  }
  std::vector<StoredCluster> out;
  out.reserve(by_key.size());
  for (auto& [key, c] : by_key) out.push_back(std::move(c));
  std::sort(out.begin(), out.end(), [](const StoredCluster& a, const StoredCluster& b) {
    return std::tie(a.vcenter, a.name, a.moid) < std::tie(b.vcenter, b.name, b.moid);
  });
  return out;
}

StatusOr<std::map<std::string, int>> VsphereVmHostCores(Store* store) {
  ASSIGN_OR_RETURN(Statement q,
                   store->db()->Prepare("SELECT v.entity, h.cores FROM vsphere_vm v JOIN vsphere_host h ON "
                                        "h.vcenter = v.vcenter AND h.moid = v.host_moid WHERE h.cores > 0"));
  std::map<std::string, int> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out[q.ColumnText(0)] = static_cast<int>(q.ColumnInt(1));
  }
  return out;
}

StatusOr<std::vector<StoredVm>> VsphereVms(Store* store) {
  ASSIGN_OR_RETURN(Statement q, store->db()->Prepare(std::string(kVmColumns) + " ORDER BY name, entity"));
  std::vector<StoredVm> out;
  std::set<std::pair<std::string, std::string>> seen;
  RETURN_IF_ERROR(TakeVms(&q, &seen, &out));
  return out;
}

StatusOr<std::vector<StoredVm>> VsphereVmsNamed(Store* store, const std::vector<std::string>& keys,
                                                const std::vector<std::string>& entities) {
  std::vector<StoredVm> out;
  std::set<std::pair<std::string, std::string>> seen;
  RETURN_IF_ERROR(QueryByKeys(store->db(), std::string(kVmColumns) + " WHERE ",
                              {{"name_key", &keys}, {"host_key", &keys}, {"entity", &entities}},
                              [&](Statement* q) { return TakeVms(q, &seen, &out); }));
  std::sort(out.begin(), out.end(), [](const StoredVm& a, const StoredVm& b) {
    return std::tie(a.name, a.entity) < std::tie(b.name, b.entity);
  });
  return out;
}

StatusOr<std::set<std::string>> NameKeysOf(Store* store, const std::vector<std::string>& entities) {
  std::set<std::string> out;
  auto take = [&out](Statement* q, int columns) -> Status {
    while (true) {
      ASSIGN_OR_RETURN(bool row, q->Step());
      if (!row) break;
      for (int c = 0; c < columns; ++c) out.insert(q->ColumnText(c));
    }
    return Status::Ok();
  };
  RETURN_IF_ERROR(QueryByKeys(store->db(), "SELECT DISTINCT vm_name FROM series WHERE ", {{"entity", &entities}},
                              [&](Statement* q) { return take(q, 1); }));
  RETURN_IF_ERROR(QueryByKeys(store->db(), "SELECT name_key, host_key FROM vsphere_vm WHERE ", {{"entity", &entities}},
                              [&](Statement* q) { return take(q, 2); }));
  out.erase("");
  return out;
}

StatusOr<std::map<std::string, RollupDue>> RollupsDue(Store* store, const std::string& vcenter) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT moid, from_ns, to_ns FROM vsphere_rollup_due WHERE vcenter = ?"));
  q.Bind(1, vcenter);
  std::map<std::string, RollupDue> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out[q.ColumnText(0)] = RollupDue{q.ColumnInt(1), q.ColumnInt(2)};
  }
  return out;
}

Status SetRollupDue(Store* store, const std::string& vcenter, const std::string& moid, const RollupDue& due) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement * q,
                   db->Cached("INSERT INTO vsphere_rollup_due(vcenter, moid, from_ns, to_ns) VALUES(?,?,?,?) "
                              "ON CONFLICT(vcenter, moid) DO UPDATE SET from_ns = excluded.from_ns, "
                              "to_ns = excluded.to_ns"));
  q->Bind(1, vcenter).Bind(2, moid).Bind(3, static_cast<int64_t>(due.from)).Bind(4, static_cast<int64_t>(due.to));
  return q->Run();
}

Status ClearRollupDue(Store* store, const std::string& vcenter, const std::string& moid) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement * q, db->Cached("DELETE FROM vsphere_rollup_due WHERE vcenter = ? AND moid = ?"));
  q->Bind(1, vcenter).Bind(2, moid);
  return q->Run();
}

}  // namespace vrecon
