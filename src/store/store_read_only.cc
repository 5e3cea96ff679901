// A store the user may read but not write: a read-only file, directory or file system (a copy on
// a DVD, an archive share mounted read-only, a colleague's file). Commands that only read open
// it read-only; those that write refuse it before they touch anything, so nothing is left beside
// it (SQLite would otherwise create its -wal and -shm files in a writable directory first).
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "src/store/schema.h"
#include "src/store/sqlite/sqlite_database.h"
#include "src/store/store.h"
#include "src/store/store_location.h"

namespace vrecon {
namespace {

StatusOr<int> SchemaVersion(Database* db) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("PRAGMA user_version"));
  ASSIGN_OR_RETURN(bool row, q.Step());
  return row ? static_cast<int>(q.ColumnInt(0)) : 0;
}

// Opens `path` read-only and reads its schema version. In WAL mode SQLite needs the -shm index:
// where it cannot be made (a read-only directory) the file is opened immutable.
StatusOr<std::unique_ptr<SqliteDatabase>> OpenReadOnly(const std::string& path, int* version) {
  for (auto mode : {SqliteDatabase::Mode::kReadOnly, SqliteDatabase::Mode::kImmutable}) {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteDatabase> db, SqliteDatabase::Open(path, mode));
    StatusOr<int> v = SchemaVersion(db.get());
    if (v.ok()) {
      *version = *v;
      return db;
    }
    if (mode == SqliteDatabase::Mode::kImmutable || db->ErrorCode() != SQLITE_CANTOPEN)
      return Status::IOError("cannot read store " + path + ": " + v.status().message());
  }
  return Status::IOError("cannot read store " + path);
}

}  // namespace

std::optional<std::string> WhyReadOnly(const std::string& path) {
  auto why = [](const std::string& what) -> std::string {
    if (errno == EROFS) return "it is on a read-only file system";
    return what + " (" + std::strerror(errno) + ")";
  };
  if (access(path.c_str(), W_OK) != 0) return why("the file is not writable");
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (access(dir.c_str(), W_OK) != 0)
    return why("its directory " + dir.string() + " is not writable, and SQLite keeps its -wal and -shm files there");
  return std::nullopt;
}

StatusOr<std::unique_ptr<Store>> Store::OpenForReading(const std::string& path) {
  // A PostgreSQL role without write rights meets them when it writes; reading needs nothing else.
  if (IsPostgresUri(path)) return OpenPostgres(path, nullptr, false);
  const std::optional<std::string> why = path == ":memory:" ? std::nullopt : WhyReadOnly(path);
  if (!why) return Open(path);
  int version = 0;
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDatabase> db, OpenReadOnly(path, &version));
  RETURN_IF_ERROR(RefuseForeignDatabase(db.get()));
  if (version != kSchemaVersion) {
    return Status::NotSupported("store " + path + " has schema version " + std::to_string(version) +
                                " and this vrecon " + "uses " + std::to_string(kSchemaVersion) +
                                "; it is read-only here (" + *why +
                                "), so it cannot be migrated: open it once with write access");
  }
  RETURN_IF_ERROR(db->Exec("PRAGMA foreign_keys=ON; PRAGMA cache_size=-16000"));
  auto store = std::unique_ptr<Store>(new Store(std::move(db)));
  store->read_only_reason_ = *why;
  return store;
}

Status Store::ShadowCorrectionTables() {
  // TEMP tables of the same names come first in SQLite's name lookup, so the stored-correction
  // code writes and the report reads these, in memory, while the file stays as it is.
  ASSIGN_OR_RETURN(Statement q, db_->Prepare("SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name IN "
                                             "('corr_vm', 'corr_window_block', 'corr_process_hour', 'corr_ready', "
                                             "'corr_ready_day', 'corr_latest') "
                                             "ORDER BY name = 'corr_vm' DESC"));
  std::vector<std::string> ddl;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    std::string sql = q.ColumnText(0);
    if (sql.rfind("CREATE TABLE ", 0) != 0)
      return Status::IOError("store " + db_->path() + ": unexpected table " + sql);
    ddl.push_back("CREATE TEMP TABLE " + sql.substr(13));
  }
  q.Reset();
  for (const std::string& sql : ddl) RETURN_IF_ERROR(db_->Exec(sql));
  return Status::Ok();
}

}  // namespace vrecon
