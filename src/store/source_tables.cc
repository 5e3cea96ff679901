#include "src/store/source_tables.h"

namespace vrecon {
namespace {

void BindOptional(Statement* q, int i, const std::optional<TimeNs>& v) {
  if (v) q->Bind(i, static_cast<int64_t>(*v));
  else q->BindNull(i);
}

std::optional<TimeNs> OptionalInt(const Statement& q, int i) {
  if (q.ColumnIsNull(i)) return std::nullopt;
  return q.ColumnInt(i);
}

}  // namespace

Status RecordAttempt(Store* store, const Attempt& a) {
  Database* db = store->db();
  // In a transaction of its own: BEGIN IMMEDIATE waits for the other sources' writers, where a
  // bare INSERT after a read could fail at once with SQLITE_BUSY.
  ASSIGN_OR_RETURN(Transaction tx, Transaction::Begin(db));
  // A success clears the failure count but keeps the last error (and its time) for `status`.
  ASSIGN_OR_RETURN(Statement * q, db->Cached(R"sql(
INSERT INTO source_status(source, kind, last_attempt_ns, last_success_ns, newest_data_ns, rows_added, rows_total,
                          failures, round_interval_s, last_error, last_error_ns, rollups_due)
VALUES(?1, ?2, ?3, CASE WHEN ?7 IS NULL THEN ?3 END, ?4, ?5, ?5, CASE WHEN ?7 IS NULL THEN 0 ELSE 1 END, ?6, ?7,
       CASE WHEN ?7 IS NOT NULL THEN ?3 END, ?8)
ON CONFLICT(source) DO UPDATE SET
  kind = excluded.kind,
  last_attempt_ns = excluded.last_attempt_ns,
  last_success_ns = COALESCE(excluded.last_success_ns, last_success_ns),
  newest_data_ns = max(COALESCE(excluded.newest_data_ns, newest_data_ns), COALESCE(newest_data_ns, excluded.newest_data_ns)),
  rows_added = excluded.rows_added,
  rows_total = rows_total + excluded.rows_added,
  failures = CASE WHEN excluded.last_error IS NULL THEN 0 ELSE failures + 1 END,
  round_interval_s = excluded.round_interval_s,
  last_error = COALESCE(excluded.last_error, last_error),
  last_error_ns = COALESCE(excluded.last_error_ns, last_error_ns),
  rollups_due = excluded.rollups_due
)sql"));
  q->Bind(1, a.source).Bind(2, a.kind).Bind(3, static_cast<int64_t>(a.at));
  BindOptional(q, 4, a.newest_data);
  q->Bind(5, a.rows_added);
  if (a.round_interval_s) q->Bind(6, static_cast<int64_t>(*a.round_interval_s));
  else q->BindNull(6);
  if (a.error.empty()) q->BindNull(7);
  else q->Bind(7, a.error);
  q->Bind(8, a.rollups_due);
  RETURN_IF_ERROR(q->Run());
  return tx.Commit();
}

StatusOr<std::vector<SourceStatus>> SourceStatuses(Store* store) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(
      Statement q,
      db->Prepare(
          "SELECT source, kind, last_attempt_ns, last_success_ns, newest_data_ns, rows_added, rows_total, failures, "
          "round_interval_s, last_error, last_error_ns, rollups_due FROM source_status ORDER BY kind DESC, source"));
  std::vector<SourceStatus> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    SourceStatus s;
    s.source = q.ColumnText(0);
    s.kind = q.ColumnText(1);
    s.last_attempt = OptionalInt(q, 2);
    s.last_success = OptionalInt(q, 3);
    s.newest_data = OptionalInt(q, 4);
    s.rows_added = q.ColumnInt(5);
    s.rows_total = q.ColumnInt(6);
    s.failures = q.ColumnInt(7);
    if (!q.ColumnIsNull(8)) s.round_interval_s = static_cast<int>(q.ColumnInt(8));
    if (!q.ColumnIsNull(9)) s.last_error = q.ColumnText(9);
    s.last_error_at = OptionalInt(q, 10);
    s.rollups_due = q.ColumnInt(11);
    out.push_back(std::move(s));
  }
  return out;
}

StatusOr<std::map<std::string, DropFileMark>> DropFileMarks(Store* store, const std::string& folder) {
  Database* db = store->db();
  // Paths under the folder: "folder/" is a prefix, compared as text (no LIKE wildcards).
  const std::string prefix = folder.back() == '/' ? folder : folder + "/";
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT path, size, mtime_ns FROM drop_file WHERE substr(path, 1, ?) = ?"));
  q.Bind(1, static_cast<int64_t>(prefix.size())).Bind(2, prefix);
  std::map<std::string, DropFileMark> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out[q.ColumnText(0)] = DropFileMark{q.ColumnInt(1), q.ColumnInt(2)};
  }
  return out;
}

Status SetDropFileMark(Store* store, const std::string& path, const DropFileMark& mark, TimeNs now) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Transaction tx, Transaction::Begin(db));
  ASSIGN_OR_RETURN(
      Statement * q,
      db->Cached("INSERT OR REPLACE INTO drop_file(path, size, mtime_ns, ingested_at_ns) VALUES(?, ?, ?, ?)"));
  q->Bind(1, path).Bind(2, mark.size).Bind(3, static_cast<int64_t>(mark.mtime)).Bind(4, static_cast<int64_t>(now));
  RETURN_IF_ERROR(q->Run());
  return tx.Commit();
}

}  // namespace vrecon
