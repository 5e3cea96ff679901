// Thin RAII wrappers over SQLite: a connection and prepared statements. Every SQL text goes
// through Prepare + Bind; values never enter SQL text.
#ifndef VRECON_SRC_STORE_SQLITE_DB_H_
#define VRECON_SRC_STORE_SQLITE_DB_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "src/core/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace vrecon {

class Statement {
 public:
  Statement() = default;
  Statement(Statement&&) noexcept;
  Statement& operator=(Statement&&) noexcept;
  ~Statement();

  // A failed bind is kept and returned by the next Step or Run (binding is chained, so the
  // error waits there); a bind to a parameter the SQL does not have is a bug and stops the
  // program (VRECON_CHECK).
  Statement& Bind(int index, int64_t v);
  Statement& Bind(int index, double v);
  Statement& Bind(int index, std::string_view text);
  Statement& BindBlob(int index, const void* data, size_t size);  // copied by SQLite only if needed
  Statement& BindNull(int index);

  // Runs one step: returns true with a row available, false when done; any other outcome is an
  // error naming the database and SQLite's message.
  StatusOr<bool> Step();
  // Steps to completion (for INSERT/UPDATE) and resets.
  Status Run();
  void Reset();           // also forgets a bind error
  int ErrorCode() const;  // SQLite's primary result code of the connection's last call

  int64_t ColumnInt(int i) const;
  double ColumnDouble(int i) const;
  bool ColumnIsNull(int i) const;
  std::string ColumnText(int i) const;
  std::string_view ColumnBlob(int i) const;

 private:
  friend class Database;
  Statement(sqlite3* db, const std::string* path, sqlite3_stmt* s) : db_(db), path_(path), stmt_(s) {}
  Statement& CheckBind(int rc, int index);
  Status Error(const std::string& what) const;
  sqlite3* db_ = nullptr;
  const std::string* path_ = nullptr;  // the Database's, which outlives its statements
  sqlite3_stmt* stmt_ = nullptr;
  Status bind_status_;  // the first failed bind since the last Reset
};

class Database {
 public:
  // kReadWrite opens (creating if needed) `path`; ":memory:" gives a private in-memory database.
  // kReadOnly never writes the file; kImmutable also takes no locks and needs no WAL index (a
  // store on a read-only medium, where none can be made), so it must not change meanwhile.
  enum class Mode { kReadWrite, kReadOnly, kImmutable };
  static StatusOr<std::unique_ptr<Database>> Open(const std::string& path, Mode mode = Mode::kReadWrite);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  Status Exec(std::string_view sql);  // trusted, constant SQL only (schema, pragmas)
  StatusOr<Statement> Prepare(std::string_view sql);
  // A statement prepared once per connection and kept: reset and unbound on every call. For
  // statements run many times; one user at a time (do not hold it across another Cached call
  // with the same SQL).
  StatusOr<Statement*> Cached(std::string_view sql);
  // Resets every cached statement (ends the read a half-stepped SELECT keeps open).
  void ResetCached();
  int64_t LastInsertId() const;
  const std::string& path() const { return path_; }
  int ErrorCode() const;   // SQLite's primary result code of the last call on this connection
  bool read_only() const;  // the main database was opened read-only (or SQLite could only read it)

 private:
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::string path_;
  std::unordered_map<std::string, std::unique_ptr<Statement>> cache_;
};

// Begins a transaction; rolls back in the destructor unless Commit() succeeded.
class Transaction {
 public:
  static StatusOr<Transaction> Begin(Database* db);
  Transaction(Transaction&& o) noexcept : db_(o.db_) { o.db_ = nullptr; }
  Transaction& operator=(Transaction&&) = delete;
  ~Transaction();
  Status Commit();

 private:
  explicit Transaction(Database* db) : db_(db) {}
  Database* db_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_SQLITE_DB_H_
