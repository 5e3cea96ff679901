#include "src/store/read_snapshot.h"

namespace vrecon {

namespace {

// PostgreSQL's default, READ COMMITTED, gives each statement a snapshot of its own: a collector
// committing between two reads would show the second one data the first did not list.
// REPEATABLE READ takes one snapshot for the transaction; read-only, it never fails to serialize.
// SQLite's read transaction is one snapshot already.
std::string_view BeginRead(Database* db) {
  return db->backend() == Backend::kPostgres ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN";
}

}  // namespace

// Not taken inside the caller's transaction: PostgreSQL would only warn at the second BEGIN, and
// the snapshot's COMMIT would then end the caller's transaction.
ReadSnapshot::ReadSnapshot(Store* store)
    : store_(store), open_(!store->db()->InTransaction() && store->db()->Exec(BeginRead(store->db())).ok()) {}

ReadSnapshot::~ReadSnapshot() {
  if (!open_) return;
  Database* db = store_->db();
  // A half-stepped cached SELECT would keep the read open past COMMIT.
  db->ResetCached();
  // It only read: either statement ends it, and nothing is lost if the ROLLBACK fails too.
  if (!db->Exec("COMMIT").ok()) db->Exec("ROLLBACK").IgnoreError();
}

}  // namespace vrecon
