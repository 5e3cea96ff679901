#include "src/store/sqlite/sqlite_database.h"

#include <sqlite3.h>

#include <filesystem>
#include <limits>
#include <string>

#include "src/core/check.h"

namespace vrecon {
namespace {

class SqliteStatement final : public StatementImpl {
 public:
  SqliteStatement(sqlite3* db, const std::string* path, sqlite3_stmt* s) : db_(db), path_(path), stmt_(s) {}
  ~SqliteStatement() override { sqlite3_finalize(stmt_); }
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  void Bind(int i, int64_t v) override { CheckBind(sqlite3_bind_int64(stmt_, i, v), i); }
  void Bind(int i, double v) override { CheckBind(sqlite3_bind_double(stmt_, i, v), i); }
  void BindText(int i, std::string_view t) override {
    // A length over INT_MAX would wrap to a negative int, which SQLite reads as "up to the NUL".
    if (t.size() > static_cast<size_t>(std::numeric_limits<int>::max())) return CheckBind(SQLITE_TOOBIG, i);
    CheckBind(sqlite3_bind_text(stmt_, i, t.data(), static_cast<int>(t.size()), SQLITE_TRANSIENT), i);
  }
  void BindBlob(int i, const void* data, size_t size) override {
    if (size > static_cast<size_t>(std::numeric_limits<int>::max())) return CheckBind(SQLITE_TOOBIG, i);
    CheckBind(sqlite3_bind_blob(stmt_, i, size ? data : "", static_cast<int>(size), SQLITE_STATIC), i);
  }
  void BindNull(int i) override { CheckBind(sqlite3_bind_null(stmt_, i), i); }

  StatusOr<bool> Step() override {
    if (!bind_status_.ok()) return bind_status_;
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return Error(sqlite3_errmsg(db_));
  }
  void Reset() override {
    // sqlite3_reset repeats the last step's error, which Step already returned.
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    bind_status_ = Status::Ok();
  }

  int64_t ColumnInt(int i) const override { return sqlite3_column_int64(stmt_, i); }
  double ColumnDouble(int i) const override { return sqlite3_column_double(stmt_, i); }
  bool ColumnIsNull(int i) const override { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }
  std::string ColumnText(int i) const override {
    const auto* t = sqlite3_column_text(stmt_, i);
    return t ? std::string(reinterpret_cast<const char*>(t), sqlite3_column_bytes(stmt_, i)) : std::string();
  }
  std::string_view ColumnBlob(int i) const override {
    const void* b = sqlite3_column_blob(stmt_, i);
    return b ? std::string_view(static_cast<const char*>(b), sqlite3_column_bytes(stmt_, i)) : std::string_view();
  }

 private:
  // SQLITE_RANGE (no such parameter) and SQLITE_MISUSE (a finalized statement) can only come
  // from the code; the others (SQLITE_NOMEM, SQLITE_TOOBIG for a value over SQLite's length
  // limit) from the data or the machine, so they become the Status of the next Step.
  void CheckBind(int rc, int index) {
    if (rc == SQLITE_OK) return;
    VRECON_CHECK_MSG(rc != SQLITE_RANGE && rc != SQLITE_MISUSE,
                     "binding parameter " + std::to_string(index) + ": " + sqlite3_errstr(rc));
    if (bind_status_.ok())
      bind_status_ = Error("cannot bind parameter " + std::to_string(index) + ": " + sqlite3_errstr(rc));
  }
  Status Error(const std::string& what) const { return Status::IOError("database " + *path_ + ": " + what); }

  sqlite3* db_;
  const std::string* path_;  // the database's, which outlives its statements
  sqlite3_stmt* stmt_;
  Status bind_status_;  // the first failed bind since the last Reset
};

// A URI for sqlite3_open_v2 with SQLITE_OPEN_URI: the path with the characters a URI gives
// meaning to escaped.
std::string ImmutableUri(const std::string& path) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      static constexpr char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[static_cast<unsigned char>(c) >> 4];
      uri += kHex[static_cast<unsigned char>(c) & 15];
    } else {
      uri += c;
    }
  }
  return uri + "?immutable=1";
}

}  // namespace

StatusOr<std::unique_ptr<SqliteDatabase>> SqliteDatabase::Open(const std::string& path, Mode mode) {
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_NOMUTEX;
  std::string name = path;
  if (mode == Mode::kReadWrite) {
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  } else {
    flags |= SQLITE_OPEN_READONLY;
  }
  if (mode == Mode::kImmutable) {
    flags |= SQLITE_OPEN_URI;
    name = ImmutableUri(path);
  }
  const int rc = sqlite3_open_v2(name.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = "cannot open database " + path + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return Status::IOError(msg);
  }
  sqlite3_busy_timeout(db, 5000);
  return std::unique_ptr<SqliteDatabase>(new SqliteDatabase(db, path));
}

int SqliteDatabase::ErrorCode() const { return sqlite3_errcode(db_) & 0xff; }
std::string SqliteDatabase::label() const { return std::filesystem::path(path_).filename().string(); }
bool SqliteDatabase::read_only() const { return sqlite3_db_readonly(db_, "main") == 1; }
bool SqliteDatabase::InTransaction() const { return sqlite3_get_autocommit(db_) == 0; }
void SqliteDatabase::SetBusyTimeout(int ms) { sqlite3_busy_timeout(db_, ms); }

SqliteDatabase::~SqliteDatabase() {
  DropCached();  // finalize before closing
  sqlite3_close(db_);
}

Status SqliteDatabase::Exec(std::string_view sql) {
  char* err = nullptr;
  const std::string s(sql);
  if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = "database " + path_ + ": " + (err ? err : "unknown error");
    sqlite3_free(err);
    return Status::IOError(msg);
  }
  return Status::Ok();
}

StatusOr<Statement> SqliteDatabase::Prepare(std::string_view sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &s, nullptr) != SQLITE_OK)
    return Status::IOError("database " + path_ + ": " + sqlite3_errmsg(db_));
  return Statement(std::make_unique<SqliteStatement>(db_, &path_, s));
}

void SqliteDatabase::ReleaseMemory() { sqlite3_db_release_memory(db_); }

}  // namespace vrecon
