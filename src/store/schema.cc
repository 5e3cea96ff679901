#include "src/store/schema.h"

#include <optional>
#include <string>

#include "src/store/clock_event_migration.h"
#include "src/store/identity_migration.h"
#include "src/store/vm_name_migration.h"
#include "src/store/vsphere_marks.h"
#include "src/store/window_blocks.h"

namespace vrecon {
namespace {

// Migration N takes a database from user_version N-1 to N. Append only; never edit one that
// has shipped.
constexpr const char* kSqliteMigrations[] = {
    // 1: files, series, blocked samples, import issues, guest-to-VM mappings.
    R"sql(
CREATE TABLE source_file(
  id INTEGER PRIMARY KEY,
  fingerprint TEXT NOT NULL UNIQUE,
  path TEXT NOT NULL,
  format TEXT NOT NULL,
  encoding TEXT NOT NULL,
  kinds TEXT NOT NULL,
  machines TEXT NOT NULL,
  time_zone TEXT NOT NULL,
  bias_minutes INTEGER NOT NULL,
  consumed_lines INTEGER NOT NULL,
  consumed_line_hash TEXT NOT NULL,
  rows INTEGER NOT NULL,
  issues INTEGER NOT NULL,
  first_end_ns INTEGER,
  last_end_ns INTEGER,
  ingested_at TEXT NOT NULL
);
CREATE TABLE series(
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  machine TEXT NOT NULL,
  object TEXT NOT NULL,
  instance TEXT NOT NULL,
  counter TEXT NOT NULL,
  unit TEXT NOT NULL,
  original TEXT NOT NULL,
  UNIQUE(source, machine, object, instance, counter)
);
CREATE TABLE time_block(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES source_file(id),
  n INTEGER NOT NULL,
  first_start_ns INTEGER NOT NULL,
  last_end_ns INTEGER NOT NULL,
  starts BLOB NOT NULL,
  ends BLOB NOT NULL
);
CREATE TABLE value_block(
  series_id INTEGER NOT NULL REFERENCES series(id),
  block_id INTEGER NOT NULL REFERENCES time_block(id),
  present INTEGER NOT NULL,
  vals BLOB NOT NULL
);
CREATE UNIQUE INDEX value_block_by_series ON value_block(series_id, block_id);
CREATE TABLE import_issue(
  id INTEGER PRIMARY KEY,
  file_id INTEGER REFERENCES source_file(id),
  file TEXT NOT NULL,
  line INTEGER NOT NULL,
  severity TEXT NOT NULL,
  code TEXT NOT NULL,
  message TEXT NOT NULL
);
CREATE INDEX import_issue_by_file ON import_issue(file_id);
CREATE TABLE vm_map(
  guest TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,
  vm TEXT NOT NULL
);
)sql",
    // 2: vSphere inventory and per-VM, per-counter high-water marks for incremental collection.
    R"sql(
CREATE TABLE vsphere_vm(
  vcenter TEXT NOT NULL,
  moid TEXT NOT NULL,
  name TEXT NOT NULL,
  num_cpu INTEGER NOT NULL,
  host_moid TEXT NOT NULL,
  power_state TEXT NOT NULL,
  guest_hostname TEXT NOT NULL,
  seen_at TEXT NOT NULL,
  PRIMARY KEY(vcenter, moid)
);
CREATE TABLE vsphere_host(
  vcenter TEXT NOT NULL,
  moid TEXT NOT NULL,
  name TEXT NOT NULL,
  cores INTEGER NOT NULL,
  mhz INTEGER NOT NULL,
  seen_at TEXT NOT NULL,
  PRIMARY KEY(vcenter, moid)
);
CREATE TABLE vsphere_mark(
  vcenter TEXT NOT NULL,
  moid TEXT NOT NULL,
  counter TEXT NOT NULL,
  interval_s INTEGER NOT NULL,
  last_end_ns INTEGER NOT NULL,
  PRIMARY KEY(vcenter, moid, counter, interval_s)
);
)sql",
    // 3: stored corrections (issue 6): per-VM identity, one row per VM and window with its flags,
    // per VM and UTC hour the process aggregates as one blob, and per VM the Ready-Time summary.
    R"sql(
CREATE TABLE corr_vm(
  id INTEGER PRIMARY KEY,
  vm TEXT NOT NULL UNIQUE,
  guest_machine TEXT NOT NULL,
  host_source TEXT NOT NULL,
  vcpus INTEGER,
  stored_at TEXT NOT NULL
);
CREATE TABLE corr_window(
  vm_id INTEGER NOT NULL REFERENCES corr_vm(id),
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  vcpus INTEGER,
  guest_util REAL,
  host_util REAL,
  w REAL,
  steal REAL,
  ready REAL,
  costop REAL,
  clock_offset_s REAL,
  guest_cov REAL NOT NULL,
  host_cov REAL NOT NULL,
  flags TEXT NOT NULL,
  PRIMARY KEY(vm_id, start_ns)
) WITHOUT ROWID;
CREATE TABLE corr_process_hour(
  vm_id INTEGER NOT NULL REFERENCES corr_vm(id),
  hour_ns INTEGER NOT NULL,
  procs BLOB NOT NULL,
  PRIMARY KEY(vm_id, hour_ns)
) WITHOUT ROWID;
CREATE TABLE corr_ready(
  vm_id INTEGER NOT NULL REFERENCES corr_vm(id),
  source TEXT NOT NULL,
  host TEXT NOT NULL,
  vcpus INTEGER,
  samples INTEGER NOT NULL,
  ready_mean REAL, ready_p95 REAL, ready_above_5 REAL, ready_above_10 REAL,
  costop_mean REAL, costop_p95 REAL, costop_above_3 REAL,
  run_mean REAL, wait_mean REAL, usage_mean REAL,
  wait_dispatch_us_mean REAL, wait_dispatch_us_p95 REAL,
  host_load_mean REAL, host_load_p95 REAL,
  hints TEXT NOT NULL,
  PRIMARY KEY(vm_id, source)
) WITHOUT ROWID;
)sql",
    // 4: fleet collection (issue 5): per-source status of the scheduled collector, and the
    // (path, size, mtime) of each drop-folder file when it was last ingested, so an unchanged
    // file is not read again every round.
    R"sql(
CREATE TABLE source_status(
  source TEXT NOT NULL PRIMARY KEY,
  kind TEXT NOT NULL,
  last_attempt_ns INTEGER,
  last_success_ns INTEGER,
  newest_data_ns INTEGER,
  rows_added INTEGER NOT NULL,
  rows_total INTEGER NOT NULL,
  failures INTEGER NOT NULL,
  round_interval_s INTEGER,
  last_error TEXT,
  last_error_ns INTEGER
);
CREATE TABLE drop_file(
  path TEXT NOT NULL PRIMARY KEY,
  size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  ingested_at_ns INTEGER NOT NULL
);
)sql",
    // 5: stored correction windows in one row per VM and UTC hour (src/store/window_blocks.h);
    // MoveCorrWindowsIntoBlocks then moves the version-3 corr_window rows over and drops it.
    R"sql(
CREATE TABLE corr_window_block(
  vm_id INTEGER NOT NULL REFERENCES corr_vm(id),
  hour_ns INTEGER NOT NULL,
  first_start_ns INTEGER NOT NULL,
  last_end_ns INTEGER NOT NULL,
  windows INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY(vm_id, hour_ns)
);
)sql",
    // 6: VM identity (issue 13). A series gains `entity` (the vSphere VM "<vCenter id>/<moid>"),
    // part of its identity, so that two vCenters' VMs of one name are two series;
    // AssignVsphereEntities then sets it from each block's file and splits series that earlier
    // versions had merged. The inventory learns each VM's entity and each vCenter's id. Stored
    // corrections were keyed by VM name (which merged VMs): they are emptied, corr_vm is rebuilt
    // keyed by vm_key (the other corr_* tables refer to it by name), and the next `report` or
    // fleet round stores them again.
    R"sql(
CREATE TABLE series_v6(
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  machine TEXT NOT NULL,
  object TEXT NOT NULL,
  instance TEXT NOT NULL,
  counter TEXT NOT NULL,
  unit TEXT NOT NULL,
  original TEXT NOT NULL,
  entity TEXT NOT NULL DEFAULT '',
  UNIQUE(source, machine, object, instance, counter, entity)
);
INSERT INTO series_v6(id, source, machine, object, instance, counter, unit, original)
  SELECT id, source, machine, object, instance, counter, unit, original FROM series;
DROP TABLE series;
ALTER TABLE series_v6 RENAME TO series;
ALTER TABLE vsphere_vm ADD COLUMN entity TEXT NOT NULL DEFAULT '';
CREATE TABLE vsphere_server(
  url TEXT NOT NULL PRIMARY KEY,
  vcenter_id TEXT NOT NULL,
  seen_at TEXT NOT NULL
);
DELETE FROM corr_window_block;
DELETE FROM corr_process_hour;
DELETE FROM corr_ready;
DROP TABLE corr_vm;
CREATE TABLE corr_vm(
  id INTEGER PRIMARY KEY,
  vm_key TEXT NOT NULL UNIQUE,
  vm TEXT NOT NULL,
  vm_source TEXT NOT NULL,
  guest_machine TEXT NOT NULL,
  host_source TEXT NOT NULL,
  vcpus INTEGER,
  stored_at TEXT NOT NULL
);
)sql",
    // 7: clock events as data (issue 14): every DST shift and backward clock step a reader saw,
    // uncapped (import issues list at most 1,000 per code and file). ClockEventsFromIssues then
    // recovers those that earlier versions recorded only in issue text. corr_vm gains the host
    // counter its windows used (--vsphere-counter).
    R"sql(
CREATE TABLE clock_event(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES source_file(id),
  line INTEGER NOT NULL,
  kind TEXT NOT NULL,
  before_ns INTEGER NOT NULL,
  after_ns INTEGER NOT NULL
);
CREATE INDEX clock_event_by_file ON clock_event(file_id);
ALTER TABLE corr_vm ADD COLUMN host_counter TEXT NOT NULL DEFAULT '';
)sql",
    // 8: vSphere rollup ranges a round planned and has not stored yet (issue 15): a rollup batch
    // that failed beside a realtime batch that succeeded is asked again in later rounds until
    // it is stored or vCenter no longer keeps it; source_status says how many are due.
    R"sql(
CREATE TABLE vsphere_rollup_due(
  vcenter TEXT NOT NULL,
  moid TEXT NOT NULL,
  from_ns INTEGER NOT NULL,
  to_ns INTEGER NOT NULL,
  PRIMARY KEY(vcenter, moid)
);
ALTER TABLE source_status ADD COLUMN rollups_due INTEGER NOT NULL DEFAULT 0;
)sql",
    // 9: several collectors on one store (issue 16): each source's status names the collector
    // ("host:pid") that ran it last, and source_claim the one that holds it now (PostgreSQL's
    // advisory locks; SQLite's collectors take the whole store's lock file instead).
    R"sql(
ALTER TABLE source_status ADD COLUMN collector TEXT NOT NULL DEFAULT '';
CREATE TABLE source_claim(
  source TEXT NOT NULL PRIMARY KEY,
  collector TEXT NOT NULL,
  since_ns INTEGER NOT NULL
);
)sql",
    // 10: retention (issue 16): how far back `vrecon prune` has removed samples and stored
    // corrections, and the indexes that find what it removes without reading every row.
    R"sql(
CREATE TABLE store_pruned(
  what TEXT NOT NULL PRIMARY KEY,
  before_ns INTEGER NOT NULL,
  pruned_at_ns INTEGER NOT NULL
);
CREATE INDEX time_block_by_end ON time_block(last_end_ns);
CREATE INDEX value_block_by_block ON value_block(block_id);
CREATE INDEX corr_window_block_by_end ON corr_window_block(last_end_ns);
)sql",
    // 11: Ready-Time summaries kept a day at a time (issue 16, src/store/ready_tables.h): a
    // digest per VM, source and UTC day, and with each summary the digest of all its days.
    // Summaries stored before have none: the next store of corrections rebuilds them.
    R"sql(
CREATE TABLE corr_ready_day(
  vm_id INTEGER NOT NULL REFERENCES corr_vm(id),
  source TEXT NOT NULL,
  day_ns INTEGER NOT NULL,
  digest BLOB NOT NULL,
  PRIMARY KEY(vm_id, source, day_ns)
) WITHOUT ROWID;
ALTER TABLE corr_ready ADD COLUMN digest BLOB;
)sql",
    // 12: each VM's latest complete window with its processes' own values (src/store/latest_window.h),
    // what `vrecon serve` exports. Stores computed before fill it at their next recompute.
    R"sql(
CREATE TABLE corr_latest(
  vm_id INTEGER NOT NULL PRIMARY KEY REFERENCES corr_vm(id),
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  window_block BLOB NOT NULL,
  process_blob BLOB NOT NULL
);
)sql",
    // 13: the hourly process aggregates gain what windows corrected from an ETW trace add
    // (issue 18: bottleneck, queue time, Perfmon's figure beside the trace's), a blob of their own
    // (src/store/correction_tables.h); hours stored before have none.
    R"sql(
ALTER TABLE corr_process_hour ADD COLUMN events BLOB;
)sql",
    // 14: the names a fleet round finds the series and inventory of its VMs' namesakes by
    // (src/engine/vm_view.h): a series' VM or guest name (models::SeriesVmName), a VM's name and
    // guest.hostName (NormalizeVmName). FillVmNameKeys computes them for what is stored.
    R"sql(
ALTER TABLE series ADD COLUMN vm_name TEXT NOT NULL DEFAULT '';
CREATE INDEX series_by_vm_name ON series(vm_name);
CREATE INDEX series_by_entity ON series(entity);
ALTER TABLE vsphere_vm ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
ALTER TABLE vsphere_vm ADD COLUMN host_key TEXT NOT NULL DEFAULT '';
CREATE INDEX vsphere_vm_by_name_key ON vsphere_vm(name_key);
CREATE INDEX vsphere_vm_by_host_key ON vsphere_vm(host_key);
CREATE INDEX vsphere_vm_by_entity ON vsphere_vm(entity);
)sql",
    // 15: the high-water marks one row per VM and interval (src/store/vsphere_marks.h);
    // PackVsphereMarks moves the per-counter rows of `vsphere_mark` into it and drops that.
    R"sql(
CREATE TABLE vsphere_vm_mark(
  vcenter TEXT NOT NULL,
  moid TEXT NOT NULL,
  interval_s INTEGER NOT NULL,
  last_end_ns INTEGER NOT NULL,
  counters TEXT NOT NULL,
  PRIMARY KEY(vcenter, moid, interval_s)
) WITHOUT ROWID;
)sql",
    // 16: nothing on SQLite. PostgreSQL compresses the blobs a recompute rewrites with lz4
    // instead of pglz (src/store/postgres/pg_schema.cc).
    R"sql(
-- no change
)sql",
    // 17: capacity day digests (issue 40, src/store/capacity_tables.h): per entity (a vm_key, or
    // a host log's host), source and UTC day, its 5-minute demand's figures, and apart (a
    // forecast reads the figures of every day, the digests of a month) the digest
    // (models/capacity_digest.h) a later update adds to. They outlive sample retention.
    R"sql(
CREATE TABLE capacity_day(
  entity TEXT NOT NULL,
  source TEXT NOT NULL,
  day_ns INTEGER NOT NULL,
  counter TEXT NOT NULL,
  bins INTEGER NOT NULL,
  sum_cores REAL NOT NULL,
  max_cores REAL NOT NULL,
  p95_cores REAL,
  end_ns INTEGER NOT NULL,
  costop_pct REAL,
  PRIMARY KEY(entity, source, day_ns)
) WITHOUT ROWID;
CREATE TABLE capacity_day_state(
  entity TEXT NOT NULL,
  source TEXT NOT NULL,
  day_ns INTEGER NOT NULL,
  state BLOB NOT NULL,
  PRIMARY KEY(entity, source, day_ns)
) WITHOUT ROWID;
)sql",
    // 18: a vCenter's hosts' logical processors, hyper-threading and cluster, and its clusters
    // with what HA admission control holds back (issue 40: a cluster's capacity is its hosts').
    // hyperthreading: 1 active, 0 not, NULL unknown; ha_*: NULL when the cluster does not say.
    R"sql(
ALTER TABLE vsphere_host ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vsphere_host ADD COLUMN hyperthreading INTEGER;
ALTER TABLE vsphere_host ADD COLUMN cluster_moid TEXT NOT NULL DEFAULT '';
CREATE TABLE vsphere_cluster(
  vcenter TEXT NOT NULL,
  moid TEXT NOT NULL,
  name TEXT NOT NULL,
  ha_hosts INTEGER,
  ha_cpu_pct REAL,
  seen_at TEXT NOT NULL,
  PRIMARY KEY(vcenter, moid)
);
)sql",
    // 19: each capacity day's longest sample and where its 5-minute values start (issue 40's
    // backfill: a day of vCenter's 30-minute, 2-hour or daily rollups reads low and is scaled,
    // docs/capacity.md); 0 on days stored before.
    R"sql(
ALTER TABLE capacity_day ADD COLUMN sample_s INTEGER NOT NULL DEFAULT 0;
ALTER TABLE capacity_day ADD COLUMN fine_from INTEGER NOT NULL DEFAULT 0;
)sql",
};

constexpr int kMigrationCount = static_cast<int>(sizeof(kSqliteMigrations) / sizeof(kSqliteMigrations[0]));
static_assert(kMigrationCount == kSchemaVersion);

}  // namespace

// Version 0 is a new, empty file: a database that already holds tables belongs to another program
// and is not made into a store (migration 1 would add ours beside its own).
Status RefuseForeignDatabase(Database* db) {
  ASSIGN_OR_RETURN(Statement v, db->Prepare("PRAGMA user_version"));
  ASSIGN_OR_RETURN(bool has_version, v.Step());
  if (has_version && v.ColumnInt(0) != 0) return Status::Ok();  // a vrecon store (or a newer one)
  v.Reset();
  ASSIGN_OR_RETURN(Statement q,
                   db->Prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 4"));
  std::string names;
  int n = 0;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    names += (n++ ? ", " : "") + q.ColumnText(0);
  }
  if (n == 0) return Status::Ok();
  return Status::InvalidArgument(db->path() + " is a SQLite database of another program (tables " + names +
                                 (n > 3 ? ", ..." : "") + "), not a vrecon store: vrecon leaves it unchanged");
}

Status MigrateSchema(Database* db) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("PRAGMA user_version"));
  ASSIGN_OR_RETURN(bool row, q.Step());
  const int version = row ? static_cast<int>(q.ColumnInt(0)) : 0;
  q.Reset();  // a statement mid-result would block migration 5's DROP TABLE
  if (version > kSchemaVersion) {
    return Status::NotSupported("database " + db->path() + " has schema version " + std::to_string(version) +
                                ", newer than this vrecon understands (" + std::to_string(kSchemaVersion) + ")");
  }
  // Migration 6 rebuilds `series`, which value_block references: SQLite's procedure for that
  // turns foreign keys off outside the transaction and checks them before the commit.
  if (version < 6) RETURN_IF_ERROR(db->Exec("PRAGMA foreign_keys=OFF"));
  // A new file takes every migration in one transaction: each commit would write the schema's
  // pages to the WAL again, and every first run makes a new store (docs/performance.md, "A new
  // store"). An existing store's data is migrated a step per transaction, so that the WAL holds
  // one step's rewrite at a time, not all of them.
  std::optional<Transaction> whole;
  if (version == 0) {
    ASSIGN_OR_RETURN(Transaction tx, Transaction::Begin(db));
    whole.emplace(std::move(tx));
  }
  for (int v = version; v < kSchemaVersion; ++v) {
    std::optional<Transaction> step;
    if (!whole) {
      ASSIGN_OR_RETURN(Transaction tx, Transaction::Begin(db));
      step.emplace(std::move(tx));
    }
    RETURN_IF_ERROR(db->Exec(kSqliteMigrations[v]));
    if (v + 1 == 5) RETURN_IF_ERROR(MoveCorrWindowsIntoBlocks(db));
    if (v + 1 == 7) RETURN_IF_ERROR(ClockEventsFromIssues(db));
    if (v + 1 == 14) RETURN_IF_ERROR(FillVmNameKeys(db));
    if (v + 1 == 15) RETURN_IF_ERROR(PackVsphereMarks(db));
    if (v + 1 == 6) {
      RETURN_IF_ERROR(AssignVsphereEntities(db));
      RETURN_IF_ERROR(CheckForeignKeys(db));
    }
    RETURN_IF_ERROR(db->Exec("PRAGMA user_version = " + std::to_string(v + 1)));
    if (step) RETURN_IF_ERROR(step->Commit());
  }
  if (whole) RETURN_IF_ERROR(whole->Commit());
  if (version < 6) RETURN_IF_ERROR(db->Exec("PRAGMA foreign_keys=ON"));
  return Status::Ok();
}

}  // namespace vrecon
