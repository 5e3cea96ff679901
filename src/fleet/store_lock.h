// One collector per store: an exclusive flock on "<db>.lock" beside the store, held for the
// collector's life and released by the kernel if it dies. The file holds the owner's pid.
#ifndef VRECON_SRC_FLEET_STORE_LOCK_H_
#define VRECON_SRC_FLEET_STORE_LOCK_H_

#include <memory>
#include <string>

#include "src/core/status.h"

namespace vrecon::fleet {

class StoreLock {
 public:
  // Unavailable, naming the lock file and the holder's pid, when another process holds it.
  static StatusOr<std::unique_ptr<StoreLock>> Acquire(const std::string& db_path);
  ~StoreLock();
  StoreLock(const StoreLock&) = delete;
  StoreLock& operator=(const StoreLock&) = delete;

 private:
  explicit StoreLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace vrecon::fleet

#endif  // VRECON_SRC_FLEET_STORE_LOCK_H_
