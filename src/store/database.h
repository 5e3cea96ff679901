// A SQL connection and its prepared statements, the same for every backend (SQLite in
// src/store/sqlite/, PostgreSQL in src/store/postgres/). Every SQL text goes through Prepare +
// Bind; values never enter SQL text. Parameters are written `?` or `?N` (1-based) in every
// backend; the PostgreSQL connection numbers them `$N` itself. Only src/store/ uses this
// (scripts/lint.sh checks): the rest of vrecon sees the Store.
#ifndef VRECON_SRC_STORE_DATABASE_H_
#define VRECON_SRC_STORE_DATABASE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "src/core/status.h"

namespace vrecon {

enum class Backend { kSqlite, kPostgres };

// One backend's prepared statement (see Statement for the contract).
class StatementImpl {
 public:
  virtual ~StatementImpl() = default;
  // A failed bind is kept and returned by the next Step; a bind to a parameter the SQL does not
  // have is a bug and stops the program (VRECON_CHECK).
  virtual void Bind(int index, int64_t v) = 0;
  virtual void Bind(int index, double v) = 0;
  virtual void BindText(int index, std::string_view text) = 0;
  virtual void BindBlob(int index, const void* data, size_t size) = 0;
  virtual void BindNull(int index) = 0;
  virtual StatusOr<bool> Step() = 0;
  virtual void Reset() = 0;
  virtual int64_t ColumnInt(int i) const = 0;
  virtual double ColumnDouble(int i) const = 0;
  virtual bool ColumnIsNull(int i) const = 0;
  virtual std::string ColumnText(int i) const = 0;
  virtual std::string_view ColumnBlob(int i) const = 0;
};

class Statement {
 public:
  Statement() = default;
  explicit Statement(std::unique_ptr<StatementImpl> impl) : impl_(std::move(impl)) {}

  // Binding is chained; a failed bind (a value over the backend's size limit) waits for the
  // next Step or Run.
  Statement& Bind(int index, int64_t v) {
    impl_->Bind(index, v);
    return *this;
  }
  Statement& Bind(int index, double v) {
    impl_->Bind(index, v);
    return *this;
  }
  Statement& Bind(int index, std::string_view text) {
    impl_->BindText(index, text);
    return *this;
  }
  // The bytes must stay valid until the statement has run (Step or Run).
  Statement& BindBlob(int index, const void* data, size_t size) {
    impl_->BindBlob(index, data, size);
    return *this;
  }
  Statement& BindNull(int index) {
    impl_->BindNull(index);
    return *this;
  }

  // Runs one step: returns true with a row available, false when done; any other outcome is an
  // error naming the database and the backend's message.
  StatusOr<bool> Step() { return impl_->Step(); }
  // Steps to completion (for INSERT/UPDATE) and resets.
  Status Run();
  // Runs an INSERT ... RETURNING id (or any statement giving one integer row) and resets.
  StatusOr<int64_t> RunForId();
  void Reset() { impl_->Reset(); }  // also forgets a bind error

  int64_t ColumnInt(int i) const { return impl_->ColumnInt(i); }
  double ColumnDouble(int i) const { return impl_->ColumnDouble(i); }
  bool ColumnIsNull(int i) const { return impl_->ColumnIsNull(i); }
  std::string ColumnText(int i) const { return impl_->ColumnText(i); }
  // Valid until the next Step or Reset.
  std::string_view ColumnBlob(int i) const { return impl_->ColumnBlob(i); }

 private:
  std::unique_ptr<StatementImpl> impl_;
};

class Database {
 public:
  Database() = default;
  virtual ~Database() = default;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  virtual Backend backend() const = 0;
  // What the user named: a file path, or a PostgreSQL URI (without a password: refused anyway).
  virtual const std::string& path() const = 0;
  // Its name alone: a file's name without directories, a PostgreSQL database's name.
  virtual std::string label() const = 0;
  // The main database was opened read-only (or could only be read).
  virtual bool read_only() const = 0;

  virtual Status Exec(std::string_view sql) = 0;  // trusted, constant SQL only (schema, settings)
  virtual StatusOr<Statement> Prepare(std::string_view sql) = 0;
  // A statement prepared once per connection and kept: reset and unbound on every call. For
  // statements run many times; one user at a time (do not hold it across another Cached call
  // with the same SQL).
  StatusOr<Statement*> Cached(std::string_view sql);
  // Resets every cached statement (ends the read a half-stepped SELECT keeps open).
  void ResetCached();
  // For Cached: a statement the server may keep parsed and planned (PostgreSQL prepares it).
  virtual StatusOr<Statement> PrepareKept(std::string_view sql) { return Prepare(sql); }
  // A transaction is open on this connection.
  virtual bool InTransaction() const = 0;
  // Begins a transaction that will write (SQLite takes the write lock at once).
  virtual Status BeginWrite() = 0;
  // Gives back the memory of what the connection caches for reading (SQLite's page cache); the
  // next reads fetch the pages again.
  virtual void ReleaseMemory() {}

 protected:
  // Finalizes the cached statements; a backend calls it before it closes its connection.
  void DropCached() { cache_.clear(); }

 private:
  std::unordered_map<std::string, std::unique_ptr<Statement>> cache_;
};

// Begins a write transaction; rolls back in the destructor unless Commit() succeeded.
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

#endif  // VRECON_SRC_STORE_DATABASE_H_
