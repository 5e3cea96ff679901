#include "src/store/capacity_tables.h"

#include <algorithm>

#include "src/store/array_literal.h"
#include "src/store/optional_columns.h"
#include "src/store/row_batch.h"

namespace vrecon {
namespace {

constexpr const char* kColumns = "day_ns, counter, bins, sum_cores, max_cores, p95_cores, end_ns, costop_pct";

StoredCapacityDay RowOf(const Statement& q, bool with_state) {
  StoredCapacityDay d;
  d.day = q.ColumnInt(0);
  d.counter = q.ColumnText(1);
  d.bins = q.ColumnInt(2);
  d.sum_cores = q.ColumnDouble(3);
  d.max_cores = q.ColumnDouble(4);
  d.p95_cores = OptDouble(q, 5);
  d.end = q.ColumnInt(6);
  d.costop_pct = OptDouble(q, 7);
  if (with_state) d.state = std::string(q.ColumnBlob(8));
  return d;
}

}  // namespace

StatusOr<std::vector<StoredCapacityDay>> LoadCapacityDays(Store* store, const std::string& entity,
                                                          const std::string& source, TimeNs from_day, bool with_state) {
  const std::string sql = std::string("SELECT ") + kColumns + (with_state ? ", state" : "") +
                          " FROM capacity_day WHERE entity = ? AND source = ? AND day_ns >= ? ORDER BY day_ns";
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached(sql));
  q->Bind(1, entity).Bind(2, source).Bind(3, from_day);
  std::vector<StoredCapacityDay> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    out.push_back(RowOf(*q, with_state));
  }
  return out;
}

StatusOr<std::optional<StoredCapacityDay>> LatestCapacityDay(Store* store, const std::string& entity,
                                                             const std::string& source) {
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached(std::string("SELECT ") + kColumns +
                                                      ", state FROM capacity_day WHERE entity = ? AND source = ? "
                                                      "ORDER BY day_ns DESC LIMIT 1"));
  q->Bind(1, entity).Bind(2, source);
  ASSIGN_OR_RETURN(bool row, q->Step());
  if (!row) return std::optional<StoredCapacityDay>();
  std::optional<StoredCapacityDay> d = RowOf(*q, true);
  q->Reset();
  return d;
}

Status ReplaceCapacityDays(Store* store, const std::string& entity, const std::string& source, TimeNs from_day,
                           const std::vector<StoredCapacityDay>& days) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement * d,
                   db->Cached("DELETE FROM capacity_day WHERE entity = ? AND source = ? AND day_ns >= ?"));
  RETURN_IF_ERROR(d->Bind(1, entity).Bind(2, source).Bind(3, from_day).Run());
  RowBatch put(db,
               "INSERT INTO capacity_day(entity, source, day_ns, counter, bins, sum_cores, max_cores, p95_cores, "
               "end_ns, costop_pct, state) VALUES",
               "", 11);
  for (const StoredCapacityDay& day : days)
    put.Add({entity, source, static_cast<int64_t>(day.day), day.counter, day.bins, day.sum_cores, day.max_cores,
             OptValue(day.p95_cores), static_cast<int64_t>(day.end), OptValue(day.costop_pct),
             RowBatch::Blob{day.state}});
  return put.Flush();
}

StatusOr<std::optional<NewBlocks>> NewBlocksOf(Store* store, const std::vector<int64_t>& series_ids,
                                               int64_t after_block) {
  Database* db = store->db();
  std::optional<NewBlocks> out;
  auto take = [&out](Statement* q) -> Status {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (row && !q->ColumnIsNull(0)) {
      const NewBlocks b{q->ColumnInt(0), q->ColumnInt(1)};
      if (!out) out = b;
      out->newest = std::max(out->newest, b.newest);
      out->first_start = std::min(out->first_start, b.first_start);
    }
    q->Reset();
    return Status::Ok();
  };
  constexpr const char* kSql =
      "SELECT max(v.block_id), min(t.first_start_ns) FROM value_block v JOIN time_block t ON t.id = v.block_id "
      "WHERE v.block_id > ? AND ";
  if (db->backend() == Backend::kPostgres) {
    ASSIGN_OR_RETURN(Statement * q, db->Cached(std::string(kSql) + "v.series_id = ANY(?::bigint[])"));
    q->Bind(1, after_block).Bind(2, ArrayLiteral(series_ids));
    RETURN_IF_ERROR(take(q));
    return out;
  }
  ASSIGN_OR_RETURN(Statement * q, db->Cached(std::string(kSql) + "v.series_id = ?"));
  for (int64_t id : series_ids) {
    q->Bind(1, after_block).Bind(2, id);
    RETURN_IF_ERROR(take(q));
  }
  return out;
}

}  // namespace vrecon
