// The PostgreSQL backend's connection (src/store/database.h), through libpq. Statements are
// sent with their parameters apart (PQexecParams; PQprepare for Cached ones), results come back
// as text (exact for float8 since PostgreSQL 12: shortest round-trip digits) and bytea is
// decoded from its hex form.
#ifndef VRECON_SRC_STORE_POSTGRES_PG_DATABASE_H_
#define VRECON_SRC_STORE_POSTGRES_PG_DATABASE_H_

#include <deque>
#include <memory>
#include <set>
#include <string>

#include "src/store/database.h"

struct pg_conn;

namespace vrecon {

class PgDatabase final : public Database {
 public:
  // The oldest server vrecon supports (declarative partitioning with default partitions,
  // INSERT ... ON CONFLICT, identity columns; Debian 12 ships 15).
  static constexpr int kMinServerVersion = 130000;

  // Connects to `uri` (postgresql:// or postgres://; CheckPostgresUri has refused a password in
  // it). libpq finds the password in PGPASSWORD, ~/.pgpass or PGPASSFILE.
  static StatusOr<std::unique_ptr<PgDatabase>> Connect(const std::string& uri);
  ~PgDatabase() override;

  Backend backend() const override { return Backend::kPostgres; }
  const std::string& path() const override { return uri_; }
  std::string label() const override;
  bool read_only() const override { return false; }
  Status Exec(std::string_view sql) override;
  StatusOr<Statement> Prepare(std::string_view sql) override;
  StatusOr<Statement> PrepareKept(std::string_view sql) override;
  Status BeginWrite() override {
    checked_months_.clear();
    return Exec("BEGIN");
  }
  bool InTransaction() const override;

  // The SQLSTATE of the last failed call ("" when none), e.g. "40001" serialization failure.
  const std::string& last_sqlstate() const { return last_sqlstate_; }
  int server_version() const;

  // A second connection to the same database, made on first use and kept, whose statements commit
  // at once: for the few that must not wait for this connection's own open transaction (a new
  // sample partition, pg_partitions.h). Waits for locks up to 60 s, then fails.
  StatusOr<PgDatabase*> Sidecar();

  // Inside a transaction, a write whose result is only "done" (INSERT, UPDATE, DELETE without
  // RETURNING) is sent without waiting for its answer (libpq's pipeline mode): a collector's
  // round writes tens of thousands of rows, and a round trip each was most of its time. The
  // answers are read, and the first failure returned, before anything else runs on the
  // connection (a read, Exec, COMMIT) or after kMaxPipelined writes, which keeps what the server
  // has queued for us far below a socket's buffer (a blocking client that never reads could
  // otherwise stall a server that waits to write). A failed write thus fails a later call of
  // the same transaction, which then rolls back as a whole.
  static constexpr int kMaxPipelined = 256;
  Status SendPipelined(const char* name, int n, const char* const* values, const int* lengths, const int* formats);
  Status Drain();

  // The sample partitions (pg_partitions.h) a writer has made sure of in this transaction: once
  // per transaction rather than once per block (a fleet round writes a block per VM). Not longer:
  // another process's prune may drop a month between transactions.
  std::set<std::string>& checked_months() { return checked_months_; }
  // time_block ids drawn from its sequence and not used yet (WriteAhead::NextBlockId). Kept
  // across transactions: a sequence never gives a value twice, committed or not, so a batch of a
  // few VMs leaves the rest of its draw to the next batch instead of a gap.
  std::deque<int64_t>& time_block_ids() { return time_block_ids_; }

  // For the statements of this connection (pg_statement.cc).
  pg_conn* conn() const { return conn_; }
  Status Error(const std::string& what, const char* sqlstate);
  std::string NextStatementName();

 private:
  PgDatabase(pg_conn* conn, std::string uri) : conn_(conn), uri_(std::move(uri)) {}
  pg_conn* conn_;
  std::string uri_;
  std::string last_sqlstate_;
  int64_t statements_ = 0;
  int pipelined_ = 0;
  std::set<std::string> checked_months_;  // writes sent whose answers are not read yet
  std::deque<int64_t> time_block_ids_;
  std::unique_ptr<PgDatabase> sidecar_;
};

// Whether the current schema (search_path) has a table or index of that name.
StatusOr<bool> HasRelation(Database* db, std::string_view name);

// OK for a server of PQserverVersion `version` (150004 is 15.4); else why not, naming `uri`.
Status CheckServerVersion(const std::string& uri, int version);

// "?" and "?N" parameters (SQLite's) as PostgreSQL's "$N", outside quoted text and comments;
// `params` gets the highest parameter number.
std::string DollarParameters(std::string_view sql, int* params);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_POSTGRES_PG_DATABASE_H_
