#include "src/store/read_snapshot.h"

namespace vrecon {

// Not taken inside the caller's transaction: PostgreSQL would only warn at the second BEGIN, and
// the snapshot's COMMIT would then end the caller's transaction.
ReadSnapshot::ReadSnapshot(Store* store)
    : store_(store), open_(!store->db()->InTransaction() && store->db()->Exec("BEGIN").ok()) {}

ReadSnapshot::~ReadSnapshot() {
  if (!open_) return;
  Database* db = store_->db();
  // A half-stepped cached SELECT would keep the read open past COMMIT.
  db->ResetCached();
  // It only read: either statement ends it, and nothing is lost if the ROLLBACK fails too.
  if (!db->Exec("COMMIT").ok()) db->Exec("ROLLBACK").IgnoreError();
}

}  // namespace vrecon
