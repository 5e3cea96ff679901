#include "src/store/ready_tables.h"

#include "src/store/array_literal.h"
#include "src/store/keyed_query.h"
#include "src/store/optional_columns.h"

namespace vrecon {

StatusOr<std::set<std::pair<std::string, std::string>>> ReadySummariesWithDigest(
    Store* store, const std::optional<std::set<std::string>>& vm_keys) {
  Database* db = store->db();
  constexpr const char* kSql =
      "SELECT v.vm_key, r.source FROM corr_ready r JOIN corr_vm v ON v.id = r.vm_id WHERE r.digest IS NOT NULL";
  std::set<std::pair<std::string, std::string>> out;
  auto take = [&out](Statement* q) -> Status {
    while (true) {
      ASSIGN_OR_RETURN(bool row, q->Step());
      if (!row) break;
      out.emplace(q->ColumnText(0), q->ColumnText(1));
    }
    return Status::Ok();
  };
  if (!vm_keys) {
    ASSIGN_OR_RETURN(Statement q, db->Prepare(kSql));
    RETURN_IF_ERROR(take(&q));
  } else {
    const std::vector<std::string> keys(vm_keys->begin(), vm_keys->end());
    RETURN_IF_ERROR(QueryByKeys(db, std::string(kSql) + " AND ", {{"v.vm_key", &keys}}, take));
  }
  return out;
}

StatusOr<std::optional<std::string>> LoadReadyTotal(Store* store, int64_t vm_id, const std::string& source) {
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached("SELECT digest FROM corr_ready WHERE vm_id = ? AND source = ? "
                                                      "AND digest IS NOT NULL"));
  q->Bind(1, vm_id).Bind(2, source);
  ASSIGN_OR_RETURN(bool row, q->Step());
  if (!row) return std::optional<std::string>();
  std::optional<std::string> blob(std::string(q->ColumnBlob(0)));
  q->Reset();
  return blob;
}

StatusOr<std::map<TimeNs, std::string>> LoadReadyDays(Store* store, int64_t vm_id, const std::string& source,
                                                      TimeNs from_day) {
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached("SELECT day_ns, digest FROM corr_ready_day WHERE vm_id = ? AND "
                                                      "source = ? AND day_ns >= ? ORDER BY day_ns"));
  q->Bind(1, vm_id).Bind(2, source).Bind(3, from_day);
  std::map<TimeNs, std::string> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    out.emplace(q->ColumnInt(0), std::string(q->ColumnBlob(1)));
  }
  return out;
}

StatusOr<std::map<std::pair<int64_t, std::string>, StoredReadyDigests>> LoadReadyDigests(
    Store* store, const std::vector<int64_t>& vm_ids, TimeNs from_day) {
  std::map<std::pair<int64_t, std::string>, StoredReadyDigests> out;
  if (vm_ids.empty()) return out;
  Database* db = store->db();
  if (db->backend() != Backend::kPostgres) {
    ASSIGN_OR_RETURN(Statement * q,
                     db->Cached("SELECT source, digest FROM corr_ready WHERE vm_id = ? AND digest IS NOT NULL"));
    for (int64_t id : vm_ids) {
      q->Bind(1, id);
      std::vector<std::pair<std::string, std::string>> totals;
      while (true) {
        ASSIGN_OR_RETURN(bool row, q->Step());
        if (!row) break;
        totals.emplace_back(q->ColumnText(0), std::string(q->ColumnBlob(1)));
      }
      q->Reset();
      for (auto& [source, total] : totals) {
        StoredReadyDigests& d = out[{id, source}];
        d.total = std::move(total);
        ASSIGN_OR_RETURN(d.days, LoadReadyDays(store, id, source, from_day));
      }
    }
    return out;
  }
  const std::string ids = ArrayLiteral(vm_ids);
  ASSIGN_OR_RETURN(Statement * t, db->Cached("SELECT vm_id, source, digest FROM corr_ready WHERE vm_id = "
                                             "ANY(?::bigint[]) AND digest IS NOT NULL"));
  t->Bind(1, ids);
  while (true) {
    ASSIGN_OR_RETURN(bool row, t->Step());
    if (!row) break;
    out[{t->ColumnInt(0), t->ColumnText(1)}].total = std::string(t->ColumnBlob(2));
  }
  t->Reset();
  ASSIGN_OR_RETURN(Statement * q, db->Cached("SELECT vm_id, source, day_ns, digest FROM corr_ready_day WHERE vm_id = "
                                             "ANY(?::bigint[]) AND day_ns >= ?"));
  q->Bind(1, ids).Bind(2, from_day);
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    const auto it = out.find({q->ColumnInt(0), q->ColumnText(1)});
    if (it != out.end()) it->second.days.emplace(q->ColumnInt(2), std::string(q->ColumnBlob(3)));
  }
  q->Reset();
  return out;
}

Status ReplaceReadyDays(Store* store, int64_t vm_id, const std::string& source, TimeNs from_day,
                        const std::map<TimeNs, std::string>& days) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement * d,
                   db->Cached("DELETE FROM corr_ready_day WHERE vm_id = ? AND source = ? AND day_ns >= ?"));
  RETURN_IF_ERROR(d->Bind(1, vm_id).Bind(2, source).Bind(3, from_day).Run());
  RowBatch put = ReadyDayInsert(db);
  for (const auto& [day, blob] : days) put.Add({vm_id, source, static_cast<int64_t>(day), RowBatch::Blob{blob}});
  return put.Flush();
}

RowBatch ReadyDayInsert(Database* db) {
  return RowBatch(db, "INSERT INTO corr_ready_day(vm_id, source, day_ns, digest) VALUES", "", 4);
}

RowBatch ReadyUpsert(Database* db) {
  return RowBatch(db,
                  "INSERT INTO corr_ready(vm_id, source, host, vcpus, samples, ready_mean, ready_p95, ready_above_5, "
                  "ready_above_10, costop_mean, costop_p95, costop_above_3, run_mean, wait_mean, usage_mean, "
                  "wait_dispatch_us_mean, wait_dispatch_us_p95, host_load_mean, host_load_p95, hints, digest) VALUES",
                  " ON CONFLICT(vm_id, source) DO UPDATE SET host = excluded.host, vcpus = excluded.vcpus, "
                  "samples = excluded.samples, ready_mean = excluded.ready_mean, ready_p95 = excluded.ready_p95, "
                  "ready_above_5 = excluded.ready_above_5, ready_above_10 = excluded.ready_above_10, "
                  "costop_mean = excluded.costop_mean, costop_p95 = excluded.costop_p95, "
                  "costop_above_3 = excluded.costop_above_3, run_mean = excluded.run_mean, "
                  "wait_mean = excluded.wait_mean, usage_mean = excluded.usage_mean, "
                  "wait_dispatch_us_mean = excluded.wait_dispatch_us_mean, "
                  "wait_dispatch_us_p95 = excluded.wait_dispatch_us_p95, host_load_mean = excluded.host_load_mean, "
                  "host_load_p95 = excluded.host_load_p95, hints = excluded.hints, digest = excluded.digest",
                  21);
}

std::vector<RowBatch::Value> ReadyRow(int64_t vm_id, const StoredReady& r) {
  std::vector<RowBatch::Value> row;
  row.reserve(21);
  row.emplace_back(vm_id);
  row.emplace_back(r.source);
  row.emplace_back(r.host);
  row.push_back(OptValue(r.vcpus));
  row.emplace_back(static_cast<int64_t>(r.samples));
  for (const auto* v : {&r.ready_mean, &r.ready_p95, &r.ready_above_5, &r.ready_above_10, &r.costop_mean, &r.costop_p95,
                        &r.costop_above_3, &r.run_mean, &r.wait_mean, &r.usage_mean, &r.wait_dispatch_us_mean,
                        &r.wait_dispatch_us_p95, &r.host_load_mean, &r.host_load_p95})
    row.push_back(OptValue(*v));
  row.emplace_back(EncodeFlags(r.hints));
  row.emplace_back(RowBatch::Blob{r.digest});
  return row;
}

Status UpsertReady(Store* store, int64_t vm_id, const StoredReady& r) {
  // One statement, not a DELETE and an INSERT: a round rewrites every VM's row.
  RowBatch upsert = ReadyUpsert(store->db());
  upsert.Add(ReadyRow(vm_id, r));
  return upsert.Flush();
}

}  // namespace vrecon
