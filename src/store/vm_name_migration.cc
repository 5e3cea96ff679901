#include "src/store/vm_name_migration.h"

#include <string>
#include <tuple>
#include <vector>

#include "models/vm_identity.h"

namespace vrecon {
namespace {

Status FillSeries(Database* db) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT id, source, machine, object, instance FROM series"));
  std::vector<std::pair<int64_t, std::string>> keys;  // read whole first: the updates then touch no open cursor
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    SeriesKey k;
    if (!ParseSourceKind(q.ColumnText(1), &k.source)) continue;  // a source this vrecon does not know keeps ""
    k.machine = q.ColumnText(2);
    k.object = q.ColumnText(3);
    k.instance = q.ColumnText(4);
    std::string key = models::SeriesVmName(k);
    if (!key.empty()) keys.emplace_back(q.ColumnInt(0), std::move(key));
  }
  ASSIGN_OR_RETURN(Statement set, db->Prepare("UPDATE series SET vm_name = ?1 WHERE id = ?2"));
  for (const auto& [id, key] : keys) RETURN_IF_ERROR(set.Bind(1, key).Bind(2, id).Run());
  return Status::Ok();
}

Status FillInventory(Database* db) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT vcenter, moid, name, guest_hostname FROM vsphere_vm"));
  std::vector<std::tuple<std::string, std::string, std::string, std::string>> rows;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    rows.emplace_back(q.ColumnText(0), q.ColumnText(1), models::NormalizeVmName(q.ColumnText(2)),
                      models::NormalizeVmName(q.ColumnText(3)));
  }
  ASSIGN_OR_RETURN(Statement set,
                   db->Prepare("UPDATE vsphere_vm SET name_key = ?1, host_key = ?2 WHERE vcenter = ?3 AND moid = ?4"));
  for (const auto& [vcenter, moid, name_key, host_key] : rows)
    RETURN_IF_ERROR(set.Bind(1, name_key).Bind(2, host_key).Bind(3, vcenter).Bind(4, moid).Run());
  return Status::Ok();
}

}  // namespace

Status FillVmNameKeys(Database* db) {
  RETURN_IF_ERROR(FillSeries(db));
  return FillInventory(db);
}

}  // namespace vrecon
