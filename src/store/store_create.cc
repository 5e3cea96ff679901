// Creating a store atomically: built at a private path beside the target, then hard-linked into
// place. link(2) fails with EEXIST when the target exists, so of two runs creating one store, one
// publishes its file and the other opens that one; a run that fails (a full disk, an I/O error)
// before the link leaves nothing at the target.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

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

}  // namespace

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
  const std::string tmp = path + ".creating-" + std::to_string(getpid());
  RemoveDatabaseFiles(tmp);  // a leftover of a run of this pid that was killed
  {
    auto fresh = OpenAt(tmp);
    if (!fresh.ok()) {
      RemoveDatabaseFiles(tmp);
      return Renamed(fresh.status(), tmp, path);
    }
  }  // closed: SQLite checkpoints the WAL into the file and removes it
  // A WAL left behind means the checkpoint failed (an I/O error, a full disk): the file alone is
  // not the store, so it is not published.
  if (std::filesystem::file_size(tmp + "-wal", ec) > 0 && !ec) {
    RemoveDatabaseFiles(tmp);
    return Status::IOError("cannot create store " + path + ": writing it failed (disk full or I/O error)");
  }
  ec.clear();
  if (link(tmp.c_str(), path.c_str()) == 0) {
    if (created) *created = true;
  } else if (errno == EEXIST) {
    // Another run created it meanwhile: use theirs.
  } else if (errno == EPERM || errno == EOPNOTSUPP || errno == EXDEV) {
    // A file system without hard links: rename, which the check above makes almost atomic.
    if (!std::filesystem::exists(path, ec)) {
      std::filesystem::rename(tmp, path, ec);
      if (!ec && created) *created = true;
    }
  } else {
    const std::string why = std::strerror(errno);
    RemoveDatabaseFiles(tmp);
    return Status::IOError("cannot create store " + path + ": " + why);
  }
  RemoveDatabaseFiles(tmp);
  return OpenAt(path);
}

}  // namespace vrecon
