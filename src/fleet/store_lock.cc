#include "src/fleet/store_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace vrecon::fleet {

StatusOr<std::unique_ptr<StoreLock>> StoreLock::Acquire(const std::string& db_path) {
  const std::string path = db_path + ".lock";
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0640);
  if (fd < 0) return Status::IOError("cannot open the lock file " + path + ": " + std::strerror(errno));
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char buf[32] = {};
    const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    close(fd);
    if (err == EWOULDBLOCK)
      return Status::Unavailable("another collector is writing " + db_path + " (lock " + path +
                                 (pid.empty() ? "" : " held by pid " + pid) +
                                 "); only one collector may write a store at a time");
    return Status::IOError("cannot lock " + path + ": " + std::strerror(err));
  }
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    close(fd);
    return Status::IOError("cannot write the lock file " + path + ": " + std::strerror(errno));
  }
  return std::unique_ptr<StoreLock>(new StoreLock(fd));
}

StoreLock::~StoreLock() {
  if (ftruncate(fd_, 0) != 0) {
    // The lock goes with the descriptor; a stale pid in the file is harmless.
  }
  close(fd_);
}

}  // namespace vrecon::fleet
