#include "src/store/capacity_tables.h"

#include <algorithm>

#include "src/store/array_literal.h"
#include "src/store/optional_columns.h"
#include "src/store/row_batch.h"

namespace vrecon {
namespace {

constexpr const char* kCapacityColumns =
    "d.day_ns, d.counter, d.bins, d.sum_cores, d.max_cores, d.p95_cores, d.end_ns, d.costop_pct, d.sample_s, "
    "d.fine_from";
constexpr const char* kWithState =
    ", s.state FROM capacity_day d JOIN capacity_day_state s ON s.entity = d.entity AND s.source = d.source AND "
    "s.day_ns = d.day_ns";

StoredCapacityDay RowOf(const Statement& q) {
  StoredCapacityDay d;
  d.day = q.ColumnInt(0);
  d.counter = q.ColumnText(1);
  d.bins = q.ColumnInt(2);
  d.sum_cores = q.ColumnDouble(3);
  d.max_cores = q.ColumnDouble(4);
  d.p95_cores = OptDouble(q, 5);
  d.end = q.ColumnInt(6);
  d.costop_pct = OptDouble(q, 7);
  d.sample_s = q.ColumnInt(8);
  d.fine_from = q.ColumnInt(9);
  d.state = std::string(q.ColumnBlob(10));
  return d;
}

}  // namespace

StatusOr<std::vector<StoredCapacityDay>> LoadCapacityDays(Store* store, const std::string& entity,
                                                          const std::string& source, TimeNs from_day, bool with_state) {
  // Without the blobs, the figures a forecast reads of every day: no more.
  const std::string sql = with_state ? std::string("SELECT ") + kCapacityColumns + kWithState +
                                           " WHERE d.entity = ? AND d.source = ? AND d.day_ns >= ? ORDER BY d.day_ns"
                                     : "SELECT day_ns, bins, p95_cores, end_ns, sample_s, fine_from FROM capacity_day "
                                       "WHERE "
                                       "entity = ? AND "
                                       "source = ? AND day_ns >= ? ORDER BY day_ns";
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached(sql));
  q->Bind(1, entity).Bind(2, source).Bind(3, from_day);
  std::vector<StoredCapacityDay> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    if (with_state) {
      out.push_back(RowOf(*q));
      continue;
    }
    StoredCapacityDay& d = out.emplace_back();
    d.day = q->ColumnInt(0);
    d.bins = q->ColumnInt(1);
    d.p95_cores = OptDouble(*q, 2);
    d.end = q->ColumnInt(3);
    d.sample_s = q->ColumnInt(4);
    d.fine_from = q->ColumnInt(5);
  }
  return out;
}

StatusOr<std::vector<StoredCapacityDay>> LatestCapacityDays(Store* store, const std::string& entity,
                                                            const std::string& source, int count) {
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached(std::string("SELECT ") + kCapacityColumns + kWithState +
                                                      " WHERE d.entity = ? AND d.source = ? ORDER BY d.day_ns DESC "
                                                      "LIMIT ?"));
  q->Bind(1, entity).Bind(2, source).Bind(3, static_cast<int64_t>(count));
  std::vector<StoredCapacityDay> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    out.push_back(RowOf(*q));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

Status UpsertCapacityDays(Store* store, const std::string& entity, const std::string& source,
                          const std::vector<StoredCapacityDay>& days) {
  Database* db = store->db();
  RowBatch figures(db,
                   "INSERT INTO capacity_day(entity, source, day_ns, counter, bins, sum_cores, max_cores, p95_cores, "
                   "end_ns, costop_pct, sample_s, fine_from) VALUES",
                   " ON CONFLICT(entity, source, day_ns) DO UPDATE SET counter = excluded.counter, bins = "
                   "excluded.bins, sum_cores = excluded.sum_cores, max_cores = excluded.max_cores, p95_cores = "
                   "excluded.p95_cores, end_ns = excluded.end_ns, costop_pct = excluded.costop_pct, sample_s = "
                   "excluded.sample_s, fine_from = excluded.fine_from",
                   12);
  RowBatch states(db, "INSERT INTO capacity_day_state(entity, source, day_ns, state) VALUES",
                  " ON CONFLICT(entity, source, day_ns) DO UPDATE SET state = excluded.state", 4);
  for (const StoredCapacityDay& day : days) {
    figures.Add({entity, source, static_cast<int64_t>(day.day), day.counter, day.bins, day.sum_cores, day.max_cores,
                 OptValue(day.p95_cores), static_cast<int64_t>(day.end), OptValue(day.costop_pct), day.sample_s,
                 day.fine_from});
    states.Add({entity, source, static_cast<int64_t>(day.day), RowBatch::Blob{day.state}});
  }
  RETURN_IF_ERROR(figures.Flush());
  return states.Flush();
}

Status ReplaceCapacityDays(Store* store, const std::string& entity, const std::string& source, TimeNs from_day,
                           const std::vector<StoredCapacityDay>& days) {
  Database* db = store->db();
  for (const char* table : {"capacity_day", "capacity_day_state"}) {
    ASSIGN_OR_RETURN(Statement * d, db->Cached(std::string("DELETE FROM ") + table +
                                               " WHERE entity = ? AND source = ? AND day_ns >= ?"));
    RETURN_IF_ERROR(d->Bind(1, entity).Bind(2, source).Bind(3, from_day).Run());
  }
  return UpsertCapacityDays(store, entity, source, days);
}

StatusOr<std::vector<CapacityEntityRow>> CapacityEntities(Store* store) {
  ASSIGN_OR_RETURN(Statement q, store->db()->Prepare(
                                    "SELECT d.entity, d.source, d.counter FROM capacity_day d WHERE d.day_ns = (SELECT "
                                    "max(l.day_ns) FROM capacity_day l WHERE l.entity = d.entity AND l.source = "
                                    "d.source) ORDER BY d.entity, d.source"));
  std::vector<CapacityEntityRow> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out.push_back({q.ColumnText(0), q.ColumnText(1), q.ColumnText(2)});
  }
  return out;
}

StatusOr<std::optional<NewBlocks>> NewBlocksOf(Store* store, const std::vector<int64_t>& series_ids,
                                               int64_t after_block) {
  Database* db = store->db();
  std::optional<NewBlocks> out;
  if (series_ids.empty()) return out;
  auto take = [&out](Statement* q) -> Status {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (row && !q->ColumnIsNull(0)) out = NewBlocks{q->ColumnInt(0), q->ColumnInt(1)};
    q->Reset();
    return Status::Ok();
  };
  if (db->backend() == Backend::kPostgres) {
    ASSIGN_OR_RETURN(Statement * q, db->Cached("SELECT max(v.block_id), min(t.first_start_ns) FROM value_block v JOIN "
                                               "time_block t ON t.id = v.block_id WHERE v.block_id > ? AND "
                                               "v.series_id = ANY(?::bigint[])"));
    q->Bind(1, after_block).Bind(2, ArrayLiteral(series_ids));
    RETURN_IF_ERROR(take(q));
    return out;
  }
  // One statement for the entity's few series, each a range of the index on (series_id,
  // block_id). Left to itself SQLite reads the index on block_id instead: every new block of every
  // series (a round's thousands) for each entity.
  std::string sql =
      "SELECT max(v.block_id), min(t.first_start_ns) FROM value_block v INDEXED BY value_block_by_series JOIN "
      "time_block t ON t.id = v.block_id WHERE v.block_id > ? AND v.series_id IN (";
  for (size_t i = 0; i < series_ids.size(); ++i) sql += i ? ", ?" : "?";
  ASSIGN_OR_RETURN(Statement * q, db->Cached(sql + ")"));
  q->Bind(1, after_block);
  for (size_t i = 0; i < series_ids.size(); ++i) q->Bind(static_cast<int>(i) + 2, series_ids[i]);
  RETURN_IF_ERROR(take(q));
  return out;
}

}  // namespace vrecon
