#include "src/store/store.h"

#include <sqlite3.h>

#include <chrono>

#include "src/store/array_literal.h"
#include "src/store/file_rows.h"
#include "src/store/schema.h"
#include "src/store/sqlite/sqlite_database.h"

namespace vrecon {

StatusOr<std::unique_ptr<Store>> Store::OpenAt(const std::string& path) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDatabase> db, SqliteDatabase::Open(path));
  if (path != ":memory:") {
    Status foreign = RefuseForeignDatabase(db.get());
    // SQLite says SQLITE_NOTADB for a file that is not a database; anything else (an I/O error,
    // a full disk, no permission) is said as it is.
    if (!foreign.ok() && db->ErrorCode() == SQLITE_NOTADB)
      return Status::IOError(path + " is not a vrecon store (or not a SQLite file): " + foreign.message());
    if (!foreign.ok() && foreign.code() == Status::Code::kIOError)
      return Status::IOError("cannot open store " + path + ": " + foreign.message());
    RETURN_IF_ERROR(foreign);
  }
  // A new store gets 16 KiB pages so that a value block (256 doubles = 2 KiB) is stored inside
  // its b-tree page instead of spilling to an overflow page (with 4 KiB pages an index b-tree
  // cell holds at most ~1 KiB locally, which made the file twice the size of its data). No
  // effect on an existing store: SQLite keeps the page size a database was created with.
  RETURN_IF_ERROR(db->Exec("PRAGMA page_size=16384"));
  if (path != ":memory:") {
    ASSIGN_OR_RETURN(Statement wal, db->Prepare("PRAGMA journal_mode=WAL"));
    auto r = wal.Step();
    // The first read of the file: SQLite says SQLITE_NOTADB for a file that is not a database;
    // anything else (an I/O error, a full disk, no permission) is said as it is.
    if (!r.ok() && db->ErrorCode() == SQLITE_NOTADB)
      return Status::IOError(path + " is not a vrecon store (or not a SQLite file): " + r.status().message());
    if (!r.ok()) return Status::IOError("cannot open store " + path + ": " + r.status().message());
  }
  RETURN_IF_ERROR(db->Exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-16000"));
  Status m = MigrateSchema(db.get());
  if (!m.ok()) return m;
  return std::unique_ptr<Store>(new Store(std::move(db)));
}

namespace {

void ReadFileRow(const Statement& q, FileRecord* f) {
  f->id = q.ColumnInt(0);
  f->fingerprint = q.ColumnText(1);
  f->path = q.ColumnText(2);
  f->format = q.ColumnText(3);
  f->encoding = q.ColumnText(4);
  f->kinds = q.ColumnText(5);
  f->machines = q.ColumnText(6);
  f->time_zone = q.ColumnText(7);
  f->bias_minutes = static_cast<int>(q.ColumnInt(8));
  f->consumed_lines = q.ColumnInt(9);
  f->consumed_line_hash = q.ColumnText(10);
  f->rows = q.ColumnInt(11);
  f->issues = q.ColumnInt(12);
  if (!q.ColumnIsNull(13)) f->first_end = q.ColumnInt(13);
  if (!q.ColumnIsNull(14)) f->last_end = q.ColumnInt(14);
}

constexpr const char* kFileColumns =
    "id, fingerprint, path, format, encoding, kinds, machines, time_zone, bias_minutes, consumed_lines, "
    "consumed_line_hash, rows, issues, first_end_ns, last_end_ns";

}  // namespace

Status Store::WaitForWritersUpTo(std::chrono::milliseconds wait) {
  // Settings take no bound parameters; the number is ours, not the user's text.
  if (db_->backend() == Backend::kPostgres)
    return db_->Exec("SET lock_timeout = " + std::to_string(wait.count()));  // milliseconds
  return db_->Exec("PRAGMA busy_timeout = " + std::to_string(wait.count()));
}

Status Store::SerializeWriters(const std::string& key) {
  if (db_->backend() != Backend::kPostgres) return Status::Ok();
  ASSIGN_OR_RETURN(Statement q, db_->Prepare("SELECT pg_advisory_xact_lock(hashtextextended(?, 1987011213))"));
  return q.Bind(1, key).Run();
}

StatusOr<std::optional<FileRecord>> Store::FindFile(const std::string& fingerprint) {
  ASSIGN_OR_RETURN(Statement * q,
                   db_->Cached(std::string("SELECT ") + kFileColumns + " FROM source_file WHERE fingerprint = ?"));
  q->Bind(1, fingerprint);
  ASSIGN_OR_RETURN(bool row, q->Step());
  if (!row) return std::optional<FileRecord>();
  FileRecord f;
  ReadFileRow(*q, &f);
  return std::optional<FileRecord>(std::move(f));
}

StatusOr<std::map<std::string, FileRecord>> Store::FindFiles(const std::vector<std::string>& fingerprints) {
  std::map<std::string, FileRecord> out;
  if (db_->backend() != Backend::kPostgres) {
    for (const std::string& fp : fingerprints) {
      ASSIGN_OR_RETURN(std::optional<FileRecord> f, FindFile(fp));
      if (f) out.emplace(fp, std::move(*f));
    }
    return out;
  }
  if (fingerprints.empty()) return out;
  std::optional<Statement> own;
  ASSIGN_OR_RETURN(
      Statement * q,
      Lookup(std::string("SELECT ") + kFileColumns + " FROM source_file WHERE fingerprint = ANY(?::text[])", &own));
  q->Bind(1, TextArrayLiteral(fingerprints));
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    FileRecord f;
    ReadFileRow(*q, &f);
    std::string fp = f.fingerprint;
    out.emplace(std::move(fp), std::move(f));
  }
  q->Reset();
  return out;
}

StatusOr<Statement*> Store::Lookup(const std::string& sql, std::optional<Statement>* own) {
  if (!rows_added_) return db_->Cached(sql);
  ASSIGN_OR_RETURN(*own, db_->Prepare(sql));
  return &**own;
}

StatusOr<std::vector<FileRecord>> Store::Files() {
  ASSIGN_OR_RETURN(Statement q, db_->Prepare(std::string("SELECT ") + kFileColumns + " FROM source_file ORDER BY id"));
  std::vector<FileRecord> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out.emplace_back();
    ReadFileRow(q, &out.back());
  }
  return out;
}

Status Store::SaveFile(FileRecord* f) {
  if (f->id != 0) {
    RowBatch update = FileUpdate(db_.get());
    update.Add(FileUpdateRow(*f));
    return update.Flush();
  }
  std::vector<FileRecord*> one = {f};
  return AddFiles(one);
}

Status Store::AddFiles(const std::vector<FileRecord*>& files) {
  RowBatch insert = FileInsert(db_.get());
  std::map<std::string, FileRecord*> by_fingerprint;
  for (FileRecord* f : files) {
    insert.Add(FileInsertRow(*f));
    by_fingerprint[f->fingerprint] = f;
  }
  RETURN_IF_ERROR(insert.FlushReturning(" RETURNING id, fingerprint", [&](const Statement& q) {
    if (auto it = by_fingerprint.find(q.ColumnText(1)); it != by_fingerprint.end()) it->second->id = q.ColumnInt(0);
  }));
  if (!files.empty()) NoteRowsAdded();
  for (const FileRecord* f : files) {
    if (f->id == 0) return Status::Internal("the new file row of " + f->path + " gave no id");
  }
  return Status::Ok();
}

Status Store::AddIssues(int64_t file_id, const std::vector<ImportIssue>& issues) {
  RowBatch insert = IssueInsert(db_.get());
  for (const ImportIssue& i : issues) insert.Add(IssueRow(file_id, i));
  return insert.Flush();
}

StatusOr<std::vector<ImportIssue>> Store::Issues(int64_t file_id) {
  ASSIGN_OR_RETURN(Statement q, db_->Prepare("SELECT file, line, severity, code, message FROM import_issue "
                                             "WHERE (? = 0 OR file_id = ?) ORDER BY id"));
  q.Bind(1, file_id).Bind(2, file_id);
  std::vector<ImportIssue> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    ImportIssue i;
    i.file = q.ColumnText(0);
    i.line = q.ColumnInt(1);
    const std::string sev = q.ColumnText(2);
    i.severity = ParseSeverity(sev).value_or(Severity::kWarning);
    i.code = q.ColumnText(3);
    i.message = q.ColumnText(4);
    out.push_back(std::move(i));
  }
  return out;
}

Status Store::SetMapping(const std::string& guest, const std::string& vm) {
  // Guest names are unique ignoring case: SQLite's column has COLLATE NOCASE, PostgreSQL's an
  // index on lower(guest).
  ASSIGN_OR_RETURN(Statement q, db_->Prepare(db_->backend() == Backend::kSqlite
                                                 ? "INSERT INTO vm_map(guest, vm) VALUES(?, ?) "
                                                   "ON CONFLICT(guest) DO UPDATE SET vm = excluded.vm"
                                                 : "INSERT INTO vm_map(guest, vm) VALUES(?, ?) "
                                                   "ON CONFLICT((lower(guest))) DO UPDATE SET vm = excluded.vm"));
  q.Bind(1, guest).Bind(2, vm);
  return q.Run();
}

StatusOr<std::map<std::string, std::string>> Store::Mappings() {
  ASSIGN_OR_RETURN(Statement q, db_->Prepare("SELECT guest, vm FROM vm_map"));
  std::map<std::string, std::string> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    out[q.ColumnText(0)] = q.ColumnText(1);
  }
  return out;
}

}  // namespace vrecon
