#include "src/store/retention.h"

#include "src/store/postgres/pg_partitions.h"

namespace vrecon {
namespace {

StatusOr<int64_t> CountOne(Database* db, std::string_view sql, TimeNs before) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare(sql));
  q.Bind(1, before);
  ASSIGN_OR_RETURN(bool row, q.Step());
  return row ? q.ColumnInt(0) : 0;
}

Status RunWith(Database* db, std::string_view sql, TimeNs before) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare(sql));
  return q.Bind(1, before).Run();
}

// PostgreSQL: the months wholly before the cutoff go as partitions; what is left of the month the
// cutoff falls in goes row by row, as on SQLite.
Status DropSamplePartitions(Database* db, TimeNs before, PruneResult* r) {
  ASSIGN_OR_RETURN(std::vector<SampleMonth> months, SamplePartitions(db));
  for (const SampleMonth& m : months) {
    if (m.to > before) break;
    RETURN_IF_ERROR(db->Exec("DROP TABLE " + m.name));  // vrecon's own name (pg_partitions.h)
    ++r->partitions_dropped;
  }
  return RunWith(db, "DELETE FROM value_block WHERE block_end_ns < ?", before);
}

Status PruneSamples(Database* db, TimeNs before, bool dry_run, PruneResult* r) {
  ASSIGN_OR_RETURN(r->time_blocks, CountOne(db, "SELECT count(*) FROM time_block WHERE last_end_ns < ?", before));
  ASSIGN_OR_RETURN(r->sample_rows,
                   CountOne(db, "SELECT coalesce(sum(n), 0) FROM time_block WHERE last_end_ns < ?", before));
  if (dry_run) {
    if (db->backend() != Backend::kPostgres) return Status::Ok();
    ASSIGN_OR_RETURN(std::vector<SampleMonth> months, SamplePartitions(db));
    for (const SampleMonth& m : months) r->partitions_dropped += m.to <= before ? 1 : 0;
    return Status::Ok();
  }
  if (db->backend() == Backend::kPostgres) {
    RETURN_IF_ERROR(DropSamplePartitions(db, before, r));
  } else {
    RETURN_IF_ERROR(RunWith(db,
                            "DELETE FROM value_block WHERE block_id IN "
                            "(SELECT id FROM time_block WHERE last_end_ns < ?)",
                            before));
  }
  return RunWith(db, "DELETE FROM time_block WHERE last_end_ns < ?", before);
}

// A process hour goes when the whole hour is before the cutoff, as its windows do.
Status PruneCorrections(Database* db, TimeNs before, bool dry_run, PruneResult* r) {
  ASSIGN_OR_RETURN(
      r->windows,
      CountOne(db, "SELECT coalesce(sum(windows), 0) FROM corr_window_block WHERE last_end_ns < ?", before));
  ASSIGN_OR_RETURN(r->process_hours,
                   CountOne(db, "SELECT count(*) FROM corr_process_hour WHERE hour_ns <= ?", before - kNsPerHour));
  if (dry_run) return Status::Ok();
  // The days behind the Ready-Time summaries go too; the summaries keep what they added up to.
  RETURN_IF_ERROR(RunWith(db, "DELETE FROM corr_ready_day WHERE day_ns <= ?", before - kNsPerDay));
  RETURN_IF_ERROR(RunWith(db, "DELETE FROM corr_window_block WHERE last_end_ns < ?", before));
  RETURN_IF_ERROR(RunWith(db, "DELETE FROM corr_latest WHERE end_ns < ?", before));
  return RunWith(db, "DELETE FROM corr_process_hour WHERE hour_ns <= ?", before - kNsPerHour);
}

// The horizon only moves forward: a prune with an older cutoff removes nothing that a newer one
// left.
Status Record(Database* db, std::string_view what, TimeNs before, TimeNs now) {
  ASSIGN_OR_RETURN(Statement q,
                   db->Prepare("INSERT INTO store_pruned(what, before_ns, pruned_at_ns) VALUES(?, ?, ?) "
                               "ON CONFLICT(what) DO UPDATE SET before_ns = CASE WHEN excluded.before_ns > "
                               "store_pruned.before_ns THEN excluded.before_ns ELSE store_pruned.before_ns END, "
                               "pruned_at_ns = excluded.pruned_at_ns"));
  return q.Bind(1, what).Bind(2, before).Bind(3, now).Run();
}

}  // namespace

TimeNs RetentionCutoff(TimeNs now, TimeNs keep) { return FloorTo(now - keep, kNsPerDay); }

StatusOr<PruneResult> Prune(Store* store, const PruneRequest& req) {
  Database* db = store->db();
  PruneResult r;
  ASSIGN_OR_RETURN(Transaction tx, store->BeginTransaction());
  RETURN_IF_ERROR(store->SerializeWriters("prune"));
  if (req.samples_before) {
    RETURN_IF_ERROR(PruneSamples(db, *req.samples_before, req.dry_run, &r));
    if (!req.dry_run) RETURN_IF_ERROR(Record(db, "samples", *req.samples_before, req.now));
  }
  if (req.corrections_before) {
    RETURN_IF_ERROR(PruneCorrections(db, *req.corrections_before, req.dry_run, &r));
    if (!req.dry_run) RETURN_IF_ERROR(Record(db, "corrections", *req.corrections_before, req.now));
  }
  if (req.dry_run) return r;  // the transaction rolls back
  RETURN_IF_ERROR(tx.Commit());
  return r;
}

StatusOr<PruneHorizon> PrunedBefore(Store* store) {
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached("SELECT what, before_ns, pruned_at_ns FROM store_pruned"));
  PruneHorizon h;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    const std::string what = q->ColumnText(0);
    if (what == "samples") {
      h.samples_before = q->ColumnInt(1);
      h.samples_pruned_at = q->ColumnInt(2);
    } else if (what == "corrections") {
      h.corrections_before = q->ColumnInt(1);
      h.corrections_pruned_at = q->ColumnInt(2);
    }
  }
  return h;
}

}  // namespace vrecon
