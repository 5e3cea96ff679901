#include "src/store/write_ahead.h"

#include <algorithm>

#include "models/vm_identity.h"
#include "src/store/array_literal.h"
#include "src/store/block_writer.h"
#include "src/store/file_rows.h"
#include "src/store/postgres/pg_database.h"

namespace vrecon {
namespace {

// A series row's key columns as the lookup and the INSERT's RETURNING give them, after the id:
// machine, object, instance, counter, entity.
constexpr const char* kKeyColumns = "id, machine, object, instance, counter, entity";

void TakeKeyColumns(const Statement& q, SeriesKey* k) {
  k->machine = q.ColumnText(1);
  k->object = q.ColumnText(2);
  k->instance = q.ColumnText(3);
  k->counter = q.ColumnText(4);
  k->entity = q.ColumnText(5);
}

}  // namespace

WriteAhead::WriteAhead(Store* store)
    : store_(store),
      held_(store->db()->backend() == Backend::kPostgres),
      time_blocks_(store->db(),
                   "INSERT INTO time_block(file_id, n, first_start_ns, last_end_ns, starts, ends, id) VALUES", "", 7),
      issues_(IssueInsert(store->db())),
      files_(FileUpdate(store->db())),
      value_rows_(store->db()) {}

Status WriteAhead::LoadSeries(const std::vector<SeriesKey>& columns) {
  if (store_->db()->backend() != Backend::kPostgres) return Status::Ok();
  std::map<SourceKind, std::set<std::string>> machines;
  std::set<Group> groups;
  for (const SeriesKey& k : columns) {
    if (loaded_.contains({k.source, k.machine, k.entity})) continue;
    groups.emplace(k.source, k.machine, k.entity);
    machines[k.source].insert(k.machine);
  }
  // The unique index (source, machine, ...) finds them; the entity is matched here.
  std::optional<Statement> own;
  ASSIGN_OR_RETURN(Statement * q, store_->Lookup(std::string("SELECT ") + kKeyColumns +
                                                     " FROM series WHERE source = ? AND machine = ANY(?::text[])",
                                                 &own));
  for (const auto& [source, names] : machines) {
    q->Bind(1, SourceKindName(source)).Bind(2, TextArrayLiteral(std::vector<std::string>(names.begin(), names.end())));
    SeriesKey k;
    k.source = source;
    while (true) {
      ASSIGN_OR_RETURN(bool row, q->Step());
      if (!row) break;
      TakeKeyColumns(*q, &k);
      if (!groups.contains({source, k.machine, k.entity})) continue;
      ids_.emplace(BlockWriter::SeriesName(k), q->ColumnInt(0));
    }
    q->Reset();
  }
  loaded_.merge(groups);
  return Status::Ok();
}

Status WriteAhead::AddMissing(const std::vector<SeriesKey>& columns) {
  if (store_->db()->backend() != Backend::kPostgres) return Status::Ok();
  std::vector<const SeriesKey*> missing;
  std::set<std::string> seen;
  for (const SeriesKey& k : columns) {
    if (!loaded_.contains({k.source, k.machine, k.entity})) continue;  // LoadSeries first
    std::string name = BlockWriter::SeriesName(k);
    if (ids_.contains(name) || !seen.insert(std::move(name)).second) continue;
    missing.push_back(&k);
  }
  if (missing.empty()) return Status::Ok();
  // The rows added give their ids back; a row another writer added first is left as it is (DO
  // NOTHING), gives none, and is looked up below.
  for (size_t first = 0; first < missing.size(); first += kSeriesPerInsert) {
    const size_t n = std::min(kSeriesPerInsert, missing.size() - first);
    std::string sql =
        "INSERT INTO series(source, machine, object, instance, counter, unit, original, entity, vm_name) VALUES";
    for (size_t i = 0; i < n; ++i) sql += i == 0 ? " (?,?,?,?,?,?,?,?,?)" : ", (?,?,?,?,?,?,?,?,?)";
    sql += std::string(" ON CONFLICT DO NOTHING RETURNING ") + kKeyColumns + ", source";
    ASSIGN_OR_RETURN(Statement * insert, store_->db()->Cached(sql));
    for (size_t i = 0; i < n; ++i) {
      const SeriesKey& k = *missing[first + i];
      const int b = static_cast<int>(i) * 9;
      insert->Bind(b + 1, SourceKindName(k.source)).Bind(b + 2, k.machine).Bind(b + 3, k.object);
      insert->Bind(b + 4, k.instance).Bind(b + 5, k.counter).Bind(b + 6, k.unit).Bind(b + 7, k.original);
      insert->Bind(b + 8, k.entity).Bind(b + 9, models::SeriesVmName(k));
    }
    SeriesKey added;
    while (true) {
      ASSIGN_OR_RETURN(bool row, insert->Step());
      if (!row) break;
      if (!ParseSourceKind(insert->ColumnText(6), &added.source))
        return Status::Internal("a series row came back with the unknown source " + insert->ColumnText(6));
      TakeKeyColumns(*insert, &added);
      ids_.emplace(BlockWriter::SeriesName(added), insert->ColumnInt(0));
    }
    insert->Reset();
  }
  store_->NoteRowsAdded();
  std::vector<SeriesKey> again;
  for (const SeriesKey* k : missing) {
    if (ids_.contains(BlockWriter::SeriesName(*k))) continue;
    loaded_.erase({k->source, k->machine, k->entity});
    again.push_back(*k);
  }
  return again.empty() ? Status::Ok() : LoadSeries(again);
}

std::optional<std::map<std::string, int64_t>> WriteAhead::Known(const std::vector<SeriesKey>& columns) const {
  std::map<std::string, int64_t> out;
  for (const SeriesKey& k : columns) {
    if (!loaded_.contains({k.source, k.machine, k.entity})) return std::nullopt;
    const std::string name = BlockWriter::SeriesName(k);
    if (auto it = ids_.find(name); it != ids_.end()) out.emplace(name, it->second);
  }
  return out;
}

StatusOr<std::optional<int64_t>> WriteAhead::NextBlockId() {
  if (store_->db()->backend() != Backend::kPostgres) return std::optional<int64_t>();
  auto* db = static_cast<PgDatabase*>(store_->db());
  std::deque<int64_t>& ids = db->time_block_ids();
  if (ids.empty()) {
    // The sequence is looked up once per draw, not once per id.
    ASSIGN_OR_RETURN(Statement * q, db->Cached("SELECT nextval(q.s) FROM (SELECT pg_get_serial_sequence('time_block', "
                                               "'id') AS s) q, generate_series(1, ?)"));
    q->Bind(1, static_cast<int64_t>(kIdsPerDraw));
    while (true) {
      ASSIGN_OR_RETURN(bool row, q->Step());
      if (!row) break;
      ids.push_back(q->ColumnInt(0));
    }
    q->Reset();
    if (ids.empty()) return Status::Internal("the time_block id sequence gave no id");
  }
  const int64_t id = ids.front();
  ids.pop_front();
  return std::optional<int64_t>(id);
}

Status WriteAhead::AddTimeBlock(int64_t id, int64_t file_id, std::span<const TimeNs> starts,
                                std::span<const TimeNs> ends) {
  std::vector<RowBatch::Value> row;
  row.reserve(7);
  row.emplace_back(file_id);
  row.emplace_back(static_cast<int64_t>(starts.size()));
  row.emplace_back(static_cast<int64_t>(starts.front()));
  row.emplace_back(static_cast<int64_t>(ends.back()));
  row.emplace_back(RowBatch::Blob{std::string(reinterpret_cast<const char*>(starts.data()), starts.size_bytes())});
  row.emplace_back(RowBatch::Blob{std::string(reinterpret_cast<const char*>(ends.data()), ends.size_bytes())});
  row.emplace_back(id);
  time_blocks_.Add(std::move(row));
  return time_blocks_.held() < RowBatch::kRowsPerStatement ? Status::Ok() : time_blocks_.Flush();
}

Status WriteAhead::AddIssues(int64_t file_id, const std::vector<ImportIssue>& issues) {
  if (!held_) return store_->AddIssues(file_id, issues);
  for (const ImportIssue& i : issues) issues_.Add(IssueRow(file_id, i));
  return Status::Ok();
}

Status WriteAhead::SaveFile(FileRecord* file) {
  if (!held_ || file->id == 0) return store_->SaveFile(file);
  // One statement may not change a row twice: a file given again sends the first on its own.
  if (!held_files_.insert(file->id).second) {
    RETURN_IF_ERROR(files_.Flush());
    held_files_ = {file->id};
  }
  files_.Add(FileUpdateRow(*file));
  return Status::Ok();
}

Status WriteAhead::Flush() {
  RETURN_IF_ERROR(time_blocks_.Flush());
  RETURN_IF_ERROR(value_rows_.Flush());
  RETURN_IF_ERROR(issues_.Flush());
  held_files_.clear();
  return files_.Flush();
}

}  // namespace vrecon
