#include "src/store/source_tables.h"

#include <unistd.h>

#include <climits>

#include "src/store/optional_columns.h"

namespace vrecon {

std::string ThisCollector() {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return std::string(*host ? host : "unknown-host") + ":" + std::to_string(getpid());
}

StatusOr<std::optional<std::string>> ClaimSource(Store* store, const std::string& source) {
  Database* db = store->db();
  if (db->backend() != Backend::kPostgres) return std::optional<std::string>();
  // A session lock: it lasts while this connection does, and the server drops it when the
  // collector dies. The key space is vrecon's (hashtextextended with vrecon's seed).
  ASSIGN_OR_RETURN(Statement lock, db->Prepare("SELECT pg_try_advisory_lock(hashtextextended(?, 1987011213))"));
  lock.Bind(1, source);
  ASSIGN_OR_RETURN(bool row, lock.Step());
  if (row && lock.ColumnInt(0) == 1) {
    ASSIGN_OR_RETURN(Statement claim, db->Prepare("INSERT INTO source_claim(source, collector, since_ns) "
                                                  "VALUES(?, ?, ?) ON CONFLICT(source) DO UPDATE SET "
                                                  "collector = excluded.collector, since_ns = excluded.since_ns"));
    RETURN_IF_ERROR(claim.Bind(1, source).Bind(2, ThisCollector()).Bind(3, NowNs()).Run());
    return std::optional<std::string>();
  }
  ASSIGN_OR_RETURN(Statement who, db->Prepare("SELECT collector, since_ns FROM source_claim WHERE source = ?"));
  who.Bind(1, source);
  ASSIGN_OR_RETURN(bool known, who.Step());
  if (!known) return std::optional<std::string>("another collector");
  return std::optional<std::string>("collector " + who.ColumnText(0) + " (since " + FormatIso(who.ColumnInt(1), false) +
                                    ")");
}

Status ReleaseSource(Store* store, const std::string& source) {
  Database* db = store->db();
  if (db->backend() != Backend::kPostgres) return Status::Ok();
  ASSIGN_OR_RETURN(Statement unlock, db->Prepare("SELECT pg_advisory_unlock(hashtextextended(?, 1987011213))"));
  return unlock.Bind(1, source).Run();
}

Status RecordAttempt(Store* store, const Attempt& a) {
  Database* db = store->db();
  // In a transaction of its own: BEGIN IMMEDIATE waits for the other sources' writers, where a
  // bare INSERT after a read could fail at once with SQLITE_BUSY.
  ASSIGN_OR_RETURN(Transaction tx, Transaction::Begin(db));
  // A success clears the failure count but keeps the last error (and its time) for `status`.
  // Portable SQL: the casts let PostgreSQL type a parameter used both in VALUES and in a test,
  // the old row's columns are named by table (PostgreSQL calls a bare name ambiguous), and CASE
  // stands in for SQLite's two-argument max().
  ASSIGN_OR_RETURN(Statement * q, db->Cached(R"sql(
INSERT INTO source_status(source, kind, last_attempt_ns, last_success_ns, newest_data_ns, rows_added, rows_total,
                          failures, round_interval_s, last_error, last_error_ns, rollups_due, collector)
VALUES(?1, ?2, ?3, CASE WHEN CAST(?7 AS TEXT) IS NULL THEN CAST(?3 AS BIGINT) END, ?4, ?5, ?5,
       CASE WHEN CAST(?7 AS TEXT) IS NULL THEN 0 ELSE 1 END, ?6, ?7,
       CASE WHEN CAST(?7 AS TEXT) IS NOT NULL THEN CAST(?3 AS BIGINT) END, ?8, ?9)
ON CONFLICT(source) DO UPDATE SET
  kind = excluded.kind,
  last_attempt_ns = excluded.last_attempt_ns,
  last_success_ns = COALESCE(excluded.last_success_ns, source_status.last_success_ns),
  newest_data_ns = CASE
    WHEN excluded.newest_data_ns IS NULL THEN source_status.newest_data_ns
    WHEN source_status.newest_data_ns IS NULL OR excluded.newest_data_ns > source_status.newest_data_ns
      THEN excluded.newest_data_ns
    ELSE source_status.newest_data_ns END,
  rows_added = excluded.rows_added,
  rows_total = source_status.rows_total + excluded.rows_added,
  failures = CASE WHEN excluded.last_error IS NULL THEN 0 ELSE source_status.failures + 1 END,
  round_interval_s = excluded.round_interval_s,
  last_error = COALESCE(excluded.last_error, source_status.last_error),
  last_error_ns = COALESCE(excluded.last_error_ns, source_status.last_error_ns),
  rollups_due = excluded.rollups_due,
  collector = excluded.collector
)sql"));
  q->Bind(1, a.source).Bind(2, a.kind).Bind(3, static_cast<int64_t>(a.at));
  BindOpt(q, 4, a.newest_data);
  q->Bind(5, a.rows_added);
  if (a.round_interval_s) q->Bind(6, static_cast<int64_t>(*a.round_interval_s));
  else q->BindNull(6);
  if (a.error.empty()) q->BindNull(7);
  else q->Bind(7, a.error);
  q->Bind(8, a.rollups_due).Bind(9, a.collector);
  RETURN_IF_ERROR(q->Run());
  return tx.Commit();
}

StatusOr<std::vector<SourceStatus>> SourceStatuses(Store* store) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(
      Statement q,
      db->Prepare(
          "SELECT source, kind, last_attempt_ns, last_success_ns, newest_data_ns, rows_added, rows_total, failures, "
          "round_interval_s, last_error, last_error_ns, rollups_due, collector FROM source_status "
          "ORDER BY kind DESC, source"));
  std::vector<SourceStatus> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    SourceStatus s;
    s.source = q.ColumnText(0);
    s.kind = q.ColumnText(1);
    s.last_attempt = OptInt64(q, 2);
    s.last_success = OptInt64(q, 3);
    s.newest_data = OptInt64(q, 4);
    s.rows_added = q.ColumnInt(5);
    s.rows_total = q.ColumnInt(6);
    s.failures = q.ColumnInt(7);
    if (!q.ColumnIsNull(8)) s.round_interval_s = static_cast<int>(q.ColumnInt(8));
    if (!q.ColumnIsNull(9)) s.last_error = q.ColumnText(9);
    s.last_error_at = OptInt64(q, 10);
    s.rollups_due = q.ColumnInt(11);
    s.collector = q.ColumnText(12);
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
      db->Cached("INSERT INTO drop_file(path, size, mtime_ns, ingested_at_ns) VALUES(?, ?, ?, ?) ON CONFLICT(path) "
                 "DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, "
                 "ingested_at_ns = excluded.ingested_at_ns"));
  q->Bind(1, path).Bind(2, mark.size).Bind(3, static_cast<int64_t>(mark.mtime)).Bind(4, static_cast<int64_t>(now));
  RETURN_IF_ERROR(q->Run());
  return tx.Commit();
}

}  // namespace vrecon
