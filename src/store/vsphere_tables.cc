#include "src/store/vsphere_tables.h"

#include <chrono>

namespace vrecon {
namespace {

std::string Now() {
  return FormatIso(std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count(),
                   false);
}

}  // namespace

Status SaveVsphereVm(Database* db, const StoredVm& v) {
  ASSIGN_OR_RETURN(Statement* q, db->Cached("INSERT OR REPLACE INTO vsphere_vm(vcenter, moid, name, num_cpu, host_moid, "
                                            "power_state, guest_hostname, seen_at) VALUES(?,?,?,?,?,?,?,?)"));
  q->Bind(1, v.vcenter).Bind(2, v.moid).Bind(3, v.name).Bind(4, static_cast<int64_t>(v.num_cpu)).Bind(5, v.host_moid);
  q->Bind(6, v.power_state).Bind(7, v.guest_hostname).Bind(8, Now());
  return q->Run();
}

Status SaveVsphereHost(Database* db, const StoredHost& h) {
  ASSIGN_OR_RETURN(Statement* q, db->Cached("INSERT OR REPLACE INTO vsphere_host(vcenter, moid, name, cores, mhz, seen_at) "
                                            "VALUES(?,?,?,?,?,?)"));
  q->Bind(1, h.vcenter).Bind(2, h.moid).Bind(3, h.name).Bind(4, static_cast<int64_t>(h.cores));
  q->Bind(5, static_cast<int64_t>(h.mhz)).Bind(6, Now());
  return q->Run();
}

StatusOr<std::vector<StoredVm>> VsphereVms(Database* db) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT vcenter, moid, name, num_cpu, host_moid, power_state, guest_hostname "
                                            "FROM vsphere_vm ORDER BY name"));
  std::vector<StoredVm> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    StoredVm v;
    v.vcenter = q.ColumnText(0);
    v.moid = q.ColumnText(1);
    v.name = q.ColumnText(2);
    v.num_cpu = static_cast<int>(q.ColumnInt(3));
    v.host_moid = q.ColumnText(4);
    v.power_state = q.ColumnText(5);
    v.guest_hostname = q.ColumnText(6);
    out.push_back(std::move(v));
  }
  return out;
}

StatusOr<std::map<MarkKey, TimeNs>> VsphereMarks(Database* db, const std::string& vcenter) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT moid, counter, interval_s, last_end_ns FROM vsphere_mark "
                                            "WHERE vcenter = ?"));
  q.Bind(1, vcenter);
  std::map<MarkKey, TimeNs> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out[{q.ColumnText(0), q.ColumnText(1), static_cast<int>(q.ColumnInt(2))}] = q.ColumnInt(3);
  }
  return out;
}

Status SetVsphereMark(Database* db, const std::string& vcenter, const MarkKey& key, TimeNs last_end) {
  ASSIGN_OR_RETURN(Statement* q, db->Cached("INSERT INTO vsphere_mark(vcenter, moid, counter, interval_s, last_end_ns) "
                                            "VALUES(?,?,?,?,?) ON CONFLICT(vcenter, moid, counter, interval_s) "
                                            "DO UPDATE SET last_end_ns = max(last_end_ns, excluded.last_end_ns)"));
  q->Bind(1, vcenter).Bind(2, std::get<0>(key)).Bind(3, std::get<1>(key)).Bind(4, static_cast<int64_t>(std::get<2>(key)));
  q->Bind(5, last_end);
  return q->Run();
}

}  // namespace vrecon
