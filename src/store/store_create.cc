// Creating a store atomically: built at a private path beside the target, then hard-linked into
// place. link(2) fails with EEXIST when the target exists, so of two runs creating one store, one
// publishes its file and the other opens that one; a run that fails (a full disk, an I/O error,
// an input that is not a log) before the link leaves nothing at the target and removes nothing
// but its own private files.
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "src/core/stale_files.h"
#include "src/store/staged_store.h"
#include "src/store/store.h"
#include "src/store/store_location.h"

namespace vrecon {
namespace {

void RemoveDatabaseFiles(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path + suffix, ec);
}

// SQLite's messages name the private path; the user knows the target.
Status Renamed(const Status& s, const std::string& from, const std::string& to) {
  std::string m = s.message();
  for (size_t at = m.find(from); at != std::string::npos; at = m.find(from, at + to.size()))
    m.replace(at, from.size(), to);
  return Status::IOError(m);
}

// Private to this process and, within it, to this call: two threads of one collector may create
// one store at once.
std::string PrivatePath(const std::string& target) {
  static std::atomic<int> serial{0};
  return target + ".creating-" + std::to_string(getpid()) + "-" + std::to_string(serial.fetch_add(1));
}

}  // namespace

StagedStore::StagedStore(std::string target, std::string tmp, std::unique_ptr<Store> store)
    : target_(std::move(target)), tmp_(std::move(tmp)), store_(std::move(store)) {}

StagedStore::StagedStore(StagedStore&& o) noexcept
    : target_(std::move(o.target_)), tmp_(std::move(o.tmp_)), store_(std::move(o.store_)) {
  o.tmp_.clear();
}

StagedStore::~StagedStore() {
  store_.reset();
  if (!tmp_.empty()) RemoveDatabaseFiles(tmp_);
}

StatusOr<StagedStore> StagedStore::Begin(const std::string& path) {
  // What killed runs left: a store being created can be a whole ingest's worth.
  RemoveFilesOfGoneRuns(path, ".creating-");
  const std::string tmp = PrivatePath(path);
  RemoveDatabaseFiles(tmp);  // a leftover of a killed run that had this pid
  StatusOr<std::unique_ptr<Store>> fresh = Store::OpenAt(tmp);
  // The migrations' pages leave the WAL for the file now, as closing a new store did before it
  // was staged: the rows written next do not pile up behind them (a small disk would fill).
  if (fresh.ok()) {
    if (Status c = (*fresh)->db()->Exec("PRAGMA wal_checkpoint(TRUNCATE)"); !c.ok()) fresh = c;
  }
  if (!fresh.ok()) {
    RemoveDatabaseFiles(tmp);
    return Renamed(fresh.status(), tmp, path);
  }
  return StagedStore(path, tmp, std::move(fresh).value());
}

StatusOr<std::unique_ptr<Store>> StagedStore::Publish(bool* ours) {
  *ours = false;
  store_.reset();  // closed: SQLite checkpoints the WAL into the file and removes it
  std::error_code ec;
  // A WAL left behind means the checkpoint failed (an I/O error, a full disk): the file alone is
  // not the store, so it is not published.
  if (std::filesystem::file_size(tmp_ + "-wal", ec) > 0 && !ec)
    return Status::IOError("cannot create store " + target_ + ": writing it failed (disk full or I/O error)");
  ec.clear();
  if (link(tmp_.c_str(), target_.c_str()) == 0) {
    *ours = true;
  } else if (errno == EEXIST) {
    // Another run published one meanwhile: use theirs.
  } else if (errno == EPERM || errno == EOPNOTSUPP || errno == EXDEV) {
    // A file system without hard links: rename, which the check before it makes almost atomic.
    if (!std::filesystem::exists(target_, ec)) {
      std::filesystem::rename(tmp_, target_, ec);
      *ours = !ec;
    }
  } else {
    return Status::IOError("cannot create store " + target_ + ": " + std::strerror(errno));
  }
  RemoveDatabaseFiles(tmp_);
  tmp_.clear();
  return Store::OpenAt(target_);
}

StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& path, bool* created) {
  if (IsPostgresUri(path)) return OpenPostgres(path, created, true);
  if (created) *created = false;
  std::error_code ec;
  if (path == ":memory:") return OpenAt(path);
  if (std::filesystem::exists(path, ec)) {
    // Refused before SQLite opens it: it would open the file read-only and leave -wal and -shm
    // files behind when the first write fails.
    if (const std::optional<std::string> why = WhyReadOnly(path))
      return Status::IOError("store " + path + " is read-only: " + *why + "; this command writes to it");
    return OpenAt(path);
  }
  ASSIGN_OR_RETURN(StagedStore staged, StagedStore::Begin(path));
  bool ours = false;
  auto store = staged.Publish(&ours);
  if (created) *created = store.ok() && ours;
  return store;
}

}  // namespace vrecon
