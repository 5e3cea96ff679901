#include "src/store/database.h"

namespace vrecon {

Status Statement::Run() {
  auto r = Step();
  Reset();
  if (!r.ok()) return r.status();
  return Status::Ok();
}

StatusOr<int64_t> Statement::RunForId() {
  auto r = Step();
  const int64_t id = r.ok() && *r ? ColumnInt(0) : 0;
  Reset();
  if (!r.ok()) return r.status();
  if (!*r) return Status::Internal("an INSERT ... RETURNING gave no row");
  return id;
}

StatusOr<Statement*> Database::Cached(std::string_view sql) {
  auto it = cache_.find(std::string(sql));
  if (it != cache_.end()) {
    it->second->Reset();
    return it->second.get();
  }
  ASSIGN_OR_RETURN(Statement s, PrepareKept(sql));
  auto owned = std::make_unique<Statement>(std::move(s));
  Statement* raw = owned.get();
  cache_.emplace(std::string(sql), std::move(owned));
  return raw;
}

void Database::ResetCached() {
  for (auto& [sql, s] : cache_) s->Reset();
}

StatusOr<Transaction> Transaction::Begin(Database* db) {
  // A cached SELECT left mid-result keeps a read snapshot open; if another connection has
  // committed since, taking SQLite's write lock would fail at once (SQLITE_BUSY_SNAPSHOT, no busy
  // wait). Several collectors' connections write one store in fleet mode.
  db->ResetCached();
  RETURN_IF_ERROR(db->BeginWrite());
  return Transaction(db);
}

Transaction::~Transaction() {
  // A destructor has no one to report to; a failed ROLLBACK leaves the transaction to the
  // backend, which rolls it back when the connection closes.
  if (db_) db_->Exec("ROLLBACK").IgnoreError();
}

Status Transaction::Commit() {
  Status s = db_->Exec("COMMIT");
  if (s.ok()) db_ = nullptr;
  return s;
}

}  // namespace vrecon
