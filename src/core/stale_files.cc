#include "src/core/stale_files.h"

#include <signal.h>

#include <cerrno>
#include <charconv>
#include <filesystem>

namespace vrecon {

void RemoveFilesOfGoneRuns(const std::string& path, std::string_view tag) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const std::string prefix = p.filename().string() + std::string(tag);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    long pid = 0;
    const char* first = name.data() + prefix.size();
    const char* last = name.data() + name.size();
    const auto [at, err] = std::from_chars(first, last, pid);
    if (err != std::errc() || pid <= 0 || (at != last && *at >= '0' && *at <= '9')) continue;
    std::error_code rm;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove(it->path(), rm);
  }
}

}  // namespace vrecon
