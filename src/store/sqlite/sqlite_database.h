// The SQLite backend's connection (src/store/database.h): a file, or ":memory:".
#ifndef VRECON_SRC_STORE_SQLITE_SQLITE_DATABASE_H_
#define VRECON_SRC_STORE_SQLITE_SQLITE_DATABASE_H_

#include <memory>
#include <string>

#include "src/store/database.h"

struct sqlite3;

namespace vrecon {

class SqliteDatabase final : public Database {
 public:
  // kReadWrite opens (creating if needed) `path`; ":memory:" gives a private in-memory database.
  // kReadOnly never writes the file; kImmutable also takes no locks and needs no WAL index (a
  // store on a read-only medium, where none can be made), so it must not change meanwhile.
  enum class Mode { kReadWrite, kReadOnly, kImmutable };
  static StatusOr<std::unique_ptr<SqliteDatabase>> Open(const std::string& path, Mode mode = Mode::kReadWrite);
  ~SqliteDatabase() override;

  Backend backend() const override { return Backend::kSqlite; }
  const std::string& path() const override { return path_; }
  std::string label() const override;
  bool read_only() const override;
  Status Exec(std::string_view sql) override;
  StatusOr<Statement> Prepare(std::string_view sql) override;
  // BEGIN IMMEDIATE: the write lock at once, so a writer waits (busy timeout) rather than fails
  // when it upgrades a read. A read-only store can only write its TEMP tables
  // (Store::ShadowCorrectionTables): no lock on the file is taken for those.
  Status BeginWrite() override { return Exec(read_only() ? "BEGIN" : "BEGIN IMMEDIATE"); }

  bool InTransaction() const override;
  void ReleaseMemory() override;
  int ErrorCode() const;  // SQLite's primary result code of the last call on this connection
  void SetBusyTimeout(int ms);

 private:
  SqliteDatabase(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::string path_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_SQLITE_SQLITE_DATABASE_H_
