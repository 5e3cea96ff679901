#include "src/store/sqlite_db.h"

#include <sqlite3.h>

#include <limits>
#include <string>

#include "src/core/check.h"

namespace vrecon {

Statement::Statement(Statement&& o) noexcept
    : db_(o.db_), path_(o.path_), stmt_(o.stmt_), bind_status_(std::move(o.bind_status_)) {
  o.stmt_ = nullptr;
}
Statement& Statement::operator=(Statement&& o) noexcept {
  if (this != &o) {
    sqlite3_finalize(stmt_);
    db_ = o.db_;
    path_ = o.path_;
    stmt_ = o.stmt_;
    bind_status_ = std::move(o.bind_status_);
    o.stmt_ = nullptr;
  }
  return *this;
}
Statement::~Statement() { sqlite3_finalize(stmt_); }

Status Statement::Error(const std::string& what) const {
  return Status::IOError("database " + (path_ ? *path_ : std::string("?")) + ": " + what);
}

// SQLITE_RANGE (no such parameter) and SQLITE_MISUSE (a finalized statement) can only come from
// the code; the others (SQLITE_NOMEM, SQLITE_TOOBIG for a value over SQLite's length limit)
// from the data or the machine, so they become the Status of the next Step.
Statement& Statement::CheckBind(int rc, int index) {
  if (rc == SQLITE_OK) return *this;
  VRECON_CHECK_MSG(rc != SQLITE_RANGE && rc != SQLITE_MISUSE,
                   "binding parameter " + std::to_string(index) + ": " + sqlite3_errstr(rc));
  if (bind_status_.ok())
    bind_status_ = Error("cannot bind parameter " + std::to_string(index) + ": " + sqlite3_errstr(rc));
  return *this;
}

Statement& Statement::Bind(int i, int64_t v) { return CheckBind(sqlite3_bind_int64(stmt_, i, v), i); }
Statement& Statement::Bind(int i, double v) { return CheckBind(sqlite3_bind_double(stmt_, i, v), i); }
Statement& Statement::Bind(int i, std::string_view t) {
  // A length over INT_MAX would wrap to a negative int, which SQLite reads as "up to the NUL".
  if (t.size() > static_cast<size_t>(std::numeric_limits<int>::max())) return CheckBind(SQLITE_TOOBIG, i);
  return CheckBind(sqlite3_bind_text(stmt_, i, t.data(), static_cast<int>(t.size()), SQLITE_TRANSIENT), i);
}
Statement& Statement::BindBlob(int i, const void* data, size_t size) {
  if (size > static_cast<size_t>(std::numeric_limits<int>::max())) return CheckBind(SQLITE_TOOBIG, i);
  return CheckBind(sqlite3_bind_blob(stmt_, i, size ? data : "", static_cast<int>(size), SQLITE_STATIC), i);
}
Statement& Statement::BindNull(int i) { return CheckBind(sqlite3_bind_null(stmt_, i), i); }

StatusOr<bool> Statement::Step() {
  if (!bind_status_.ok()) return bind_status_;
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Error(sqlite3_errmsg(db_));
}

Status Statement::Run() {
  auto r = Step();
  Reset();
  if (!r.ok()) return r.status();
  return Status::Ok();
}

void Statement::Reset() {
  // sqlite3_reset repeats the last step's error, which Step already returned.
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  bind_status_ = Status::Ok();
}

int64_t Statement::ColumnInt(int i) const { return sqlite3_column_int64(stmt_, i); }
int Statement::ErrorCode() const { return sqlite3_errcode(db_) & 0xff; }
double Statement::ColumnDouble(int i) const { return sqlite3_column_double(stmt_, i); }
bool Statement::ColumnIsNull(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }
std::string Statement::ColumnText(int i) const {
  const auto* t = sqlite3_column_text(stmt_, i);
  return t ? std::string(reinterpret_cast<const char*>(t), sqlite3_column_bytes(stmt_, i)) : std::string();
}
std::string_view Statement::ColumnBlob(int i) const {
  const void* b = sqlite3_column_blob(stmt_, i);
  return b ? std::string_view(static_cast<const char*>(b), sqlite3_column_bytes(stmt_, i)) : std::string_view();
}

namespace {

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

StatusOr<std::unique_ptr<Database>> Database::Open(const std::string& path, Mode mode) {
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
  return std::unique_ptr<Database>(new Database(db, path));
}

int Database::ErrorCode() const { return sqlite3_errcode(db_) & 0xff; }
bool Database::read_only() const { return sqlite3_db_readonly(db_, "main") == 1; }

Database::~Database() {
  cache_.clear();  // finalize before closing
  sqlite3_close(db_);
}

Status Database::Exec(std::string_view sql) {
  char* err = nullptr;
  const std::string s(sql);
  if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = "database " + path_ + ": " + (err ? err : "unknown error");
    sqlite3_free(err);
    return Status::IOError(msg);
  }
  return Status::Ok();
}

StatusOr<Statement> Database::Prepare(std::string_view sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &s, nullptr) != SQLITE_OK)
    return Status::IOError("database " + path_ + ": " + sqlite3_errmsg(db_));
  return Statement(db_, &path_, s);
}

StatusOr<Statement*> Database::Cached(std::string_view sql) {
  auto it = cache_.find(std::string(sql));
  if (it != cache_.end()) {
    it->second->Reset();
    return it->second.get();
  }
  ASSIGN_OR_RETURN(Statement s, Prepare(sql));
  auto owned = std::make_unique<Statement>(std::move(s));
  Statement* raw = owned.get();
  cache_.emplace(std::string(sql), std::move(owned));
  return raw;
}

int64_t Database::LastInsertId() const { return sqlite3_last_insert_rowid(db_); }

void Database::ResetCached() {
  for (auto& [sql, s] : cache_) s->Reset();
}

StatusOr<Transaction> Transaction::Begin(Database* db) {
  // A cached SELECT left mid-result keeps a read snapshot open; if another connection has
  // committed since, taking the write lock would fail at once (SQLITE_BUSY_SNAPSHOT, no busy
  // wait). Several collectors' connections write one store in fleet mode.
  db->ResetCached();
  // A read-only store can only write its TEMP tables (Store::ShadowCorrectionTables): no lock on
  // the file is taken for those.
  RETURN_IF_ERROR(db->Exec(db->read_only() ? "BEGIN" : "BEGIN IMMEDIATE"));
  return Transaction(db);
}

Transaction::~Transaction() {
  // A destructor has no one to report to; a failed ROLLBACK leaves the transaction to SQLite,
  // which rolls it back when the connection closes.
  if (db_) db_->Exec("ROLLBACK").IgnoreError();
}

Status Transaction::Commit() {
  Status s = db_->Exec("COMMIT");
  if (s.ok()) db_ = nullptr;
  return s;
}

}  // namespace vrecon
