#include "src/store/identity_migration.h"

#include <map>
#include <vector>

#include "src/core/text_util.h"
#include "src/core/vsphere_entity.h"

namespace vrecon {
namespace {

// series id -> entity -> the files whose blocks it holds.
using SeriesFiles = std::map<int64_t, std::map<std::string, std::vector<int64_t>>>;

StatusOr<SeriesFiles> VsphereSeriesFiles(Database* db) {
  ASSIGN_OR_RETURN(Statement q,
                   db->Prepare("SELECT DISTINCT v.series_id, f.id, f.fingerprint FROM series s "
                               "JOIN value_block v ON v.series_id = s.id JOIN time_block t ON t.id = v.block_id "
                               "JOIN source_file f ON f.id = t.file_id WHERE s.source = 'vsphere' "
                               "ORDER BY v.series_id, f.id"));
  SeriesFiles out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out[q.ColumnInt(0)][EntityOfVsphereFile(q.ColumnText(2))].push_back(q.ColumnInt(1));
  }
  return out;
}

// A copy of series `id` under `entity`, given the blocks of `files`.
Status SplitOff(Database* db, int64_t id, const std::string& entity, const std::vector<int64_t>& files) {
  ASSIGN_OR_RETURN(Statement copy, db->Prepare("INSERT INTO series(source, machine, object, instance, counter, unit, "
                                               "original, entity) SELECT source, machine, object, instance, counter, "
                                               "unit, original, ?2 FROM series WHERE id = ?1 RETURNING id"));
  ASSIGN_OR_RETURN(const int64_t new_id, copy.Bind(1, id).Bind(2, entity).RunForId());
  ASSIGN_OR_RETURN(Statement move, db->Prepare("UPDATE value_block SET series_id = ?1 WHERE series_id = ?2 AND "
                                               "block_id IN (SELECT id FROM time_block WHERE file_id = ?3)"));
  for (int64_t f : files) RETURN_IF_ERROR(move.Bind(1, new_id).Bind(2, id).Bind(3, f).Run());
  return Status::Ok();
}

Status AssignInventoryEntities(Database* db) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT DISTINCT vcenter FROM vsphere_vm"));
  std::vector<std::string> urls;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    urls.push_back(q.ColumnText(0));
  }
  ASSIGN_OR_RETURN(Statement set, db->Prepare("UPDATE vsphere_vm SET entity = ?1 || '/' || moid WHERE vcenter = ?2"));
  for (const std::string& url : urls) RETURN_IF_ERROR(set.Bind(1, UrlHost(url)).Bind(2, url).Run());
  return Status::Ok();
}

}  // namespace

std::string EntityOfVsphereFile(std::string_view fingerprint) {
  if (!fingerprint.starts_with("vsphere|")) return "";
  fingerprint.remove_prefix(8);
  const size_t bar = fingerprint.rfind('|');
  if (bar == std::string_view::npos || bar + 1 == fingerprint.size()) return "";
  return VsphereEntity(UrlHost(fingerprint.substr(0, bar)), fingerprint.substr(bar + 1));
}

Status AssignVsphereEntities(Database* db) {
  ASSIGN_OR_RETURN(SeriesFiles series, VsphereSeriesFiles(db));
  ASSIGN_OR_RETURN(Statement set, db->Prepare("UPDATE series SET entity = ?1 WHERE id = ?2"));
  for (const auto& [id, by_entity] : series) {
    bool first = true;
    for (const auto& [entity, files] : by_entity) {
      if (first) {
        // The row itself keeps the first VM's blocks.
        if (!entity.empty()) RETURN_IF_ERROR(set.Bind(1, entity).Bind(2, id).Run());
        first = false;
      } else {
        RETURN_IF_ERROR(SplitOff(db, id, entity, files));
      }
    }
  }
  return AssignInventoryEntities(db);
}

Status CheckForeignKeys(Database* db) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("PRAGMA foreign_key_check"));
  ASSIGN_OR_RETURN(bool row, q.Step());
  if (row) {
    return Status::ParseError("database " + db->path() + ": table " + q.ColumnText(0) + " row " +
                              std::to_string(q.ColumnInt(1)) + " refers to a missing " + q.ColumnText(2) +
                              " row after the migration to schema 6; nothing was changed");
  }
  return Status::Ok();
}

}  // namespace vrecon
