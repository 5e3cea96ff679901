// The vrecon store: a SQLite file or a PostgreSQL database (src/store/sqlite/, src/store/postgres/)
// holding ingested files, series and their samples in blocks, import issues, guest-to-VM mappings,
// vSphere marks, stored corrections and Ready-Time summaries. See docs/storage.md.
#ifndef VRECON_SRC_STORE_STORE_H_
#define VRECON_SRC_STORE_STORE_H_

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/core/sample.h"
#include "src/store/database.h"

namespace vrecon {

struct FileRecord {
  int64_t id = 0;
  std::string fingerprint;
  std::string path;
  // perfmon-csv, perfmon-tsv, powercli-csv, sar-text, xperf-dumper, wpa-precise-csv, wpa-sampled-csv
  std::string format;
  std::string encoding;
  std::string kinds;     // comma-separated source kinds
  std::string machines;  // comma-separated
  std::string time_zone;
  int bias_minutes = 0;
  int64_t consumed_lines = 0;
  std::string consumed_line_hash;
  int64_t rows = 0;
  int64_t issues = 0;
  std::optional<TimeNs> first_end, last_end;
};

struct StoredIssue {
  ImportIssue issue;
  int64_t file_id = 0;
};

class Store {
 public:
  // Opens or creates the store at `path` (":memory:" allowed), in WAL mode, migrated. A new store
  // is built beside `path` and linked into place in one step (src/store/staged_store.h): a run
  // that fails while creating it leaves nothing at `path`, and of two runs creating it at once
  // one creates it and the other opens it. `created`: this call made the file at `path`. A
  // command that may read nothing stages its store instead, so that it never publishes an empty
  // one (and so never has one to remove).
  static StatusOr<std::unique_ptr<Store>> Open(const std::string& path, bool* created = nullptr);

  // For commands that only read: Open() when the store can be written, else the store opened
  // read-only (src/store/store_read_only.cc), as it is: it cannot be migrated.
  static StatusOr<std::unique_ptr<Store>> OpenForReading(const std::string& path);
  // Why the store cannot be written (read-only file, directory or file system), when opened so.
  const std::optional<std::string>& read_only_reason() const { return read_only_reason_; }
  // Empty in-memory stand-ins for the stored-correction tables (read-only store: the report
  // computes corrections it cannot store).
  Status ShadowCorrectionTables();

  // The connection, for src/store/ (and tests inspecting raw tables): code outside src/store/
  // goes through the store's functions so that the backend can change (scripts/lint.sh checks).
  Database* db() { return db_.get(); }
  // The store's name as the user gave it (--db), for messages.
  const std::string& location() const { return db_->path(); }
  // The store's name without where it is (a report names it): the file's name, the database's.
  std::string label() const { return db_->label(); }

  // A write transaction: rolled back when dropped without Commit().
  StatusOr<Transaction> BeginTransaction() { return Transaction::Begin(db_.get()); }
  // Whether the connection still answers (a PostgreSQL server may have restarted since).
  Status Ping() { return db_->Exec("SELECT 1"); }
  // Ends the reads cached statements keep open, before a kept connection waits (an open SQLite
  // read would hold back the WAL's checkpoints meanwhile).
  void EndReads() { db_->ResetCached(); }
  // Gives back the pages the connection cached for reading. A collector keeps its connection for
  // months while the store grows all day: kept, that cache grew with the store, up to its cap
  // (docs/reliability.md, "Soak").
  void ReleaseMemory() { db_->ReleaseMemory(); }
  // How long a write waits for another connection's transaction before failing (the default is
  // the backend's, short). For several writers on one store.
  Status WaitForWritersUpTo(std::chrono::milliseconds wait);

  // Inside a write transaction: waits until no other writer's transaction holds `key`, and holds
  // it until this one ends. PostgreSQL's writers meet only on rows; this lets two ingests of one
  // file from two machines add it once (the second finds the first's). SQLite's write lock
  // already serializes writers: nothing to do.
  Status SerializeWriters(const std::string& key);
  StatusOr<std::optional<FileRecord>> FindFile(const std::string& fingerprint);
  // FindFile of several, by fingerprint (those not stored are absent): one query on PostgreSQL.
  StatusOr<std::map<std::string, FileRecord>> FindFiles(const std::vector<std::string>& fingerprints);
  // Inserts a new file row (id is assigned) or updates an existing one by id.
  Status SaveFile(FileRecord* file);
  // Inserts new file rows (of distinct fingerprints), many to a statement; ids are assigned.
  Status AddFiles(const std::vector<FileRecord*>& files);
  StatusOr<std::vector<FileRecord>> Files();
  Status AddIssues(int64_t file_id, const std::vector<ImportIssue>& issues);
  StatusOr<std::vector<ImportIssue>> Issues(int64_t file_id);

  // A lookup of file or series rows: `sql` cached, or, once this connection has added such rows
  // (NoteRowsAdded), a statement of its own in *own, planned at each call. PostgreSQL plans a
  // cached statement for good at its sixth call: in a new store's first round that is while the
  // tables hold a few rows, and the scan it picks then stays while they grow to thousands (in
  // four collectors' first round, forty times the time of planning at each call). A round that
  // adds no rows keeps the cached plan.
  StatusOr<Statement*> Lookup(const std::string& sql, std::optional<Statement>* own);
  void NoteRowsAdded() { rows_added_ = true; }
  // Between the rounds of a kept connection: the next round's lookups use cached plans again. By
  // then autovacuum has analyzed the grown tables, which makes the server plan them again.
  void ForgetRowsAdded() { rows_added_ = false; }

  Status AddClockEvents(int64_t file_id, const std::vector<ClockRecord>& events);
  // Every stored clock event with the machines of its file (source_file.machines), by file.
  struct FileClockEvent {
    ClockRecord event;
    std::string machines;  // comma-separated
    std::string kinds;     // source_file.kinds: which sides the file holds
  };
  StatusOr<std::vector<FileClockEvent>> ClockEvents();

  // Guest computer name -> VM name, case-insensitive on the guest name.
  Status SetMapping(const std::string& guest, const std::string& vm);
  StatusOr<std::map<std::string, std::string>> Mappings();

 private:
  explicit Store(std::unique_ptr<Database> db) : db_(std::move(db)) {}
  friend class StagedStore;
  static StatusOr<std::unique_ptr<Store>> OpenAt(const std::string& path);  // open or create in place
  static StatusOr<std::unique_ptr<Store>> OpenPostgres(const std::string& uri, bool* created, bool create);
  std::unique_ptr<Database> db_;
  bool rows_added_ = false;
  std::optional<std::string> read_only_reason_;
};

// Why `path` cannot be written, when it cannot: the file, its directory (SQLite's -wal and -shm
// files go there) or the file system is read-only.
std::optional<std::string> WhyReadOnly(const std::string& path);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_STORE_H_
