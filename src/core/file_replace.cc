#include "src/core/file_replace.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>

namespace vrecon {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStandIn = ".partial-";

// Writes into `file`, which stands in for `path`: errors name `path`.
Status WriteTo(const std::string& file, const std::string& path, const std::function<Status(std::ostream&)>& body) {
  std::ofstream f(file, std::ios::binary | std::ios::trunc);
  if (!f) return Status::IOError("cannot write " + path + (file == path ? "" : ": cannot create " + file));
  Status s = body(f);
  f.close();
  if (s.ok() && !f) s = Status::IOError("cannot write " + path + " (disk full?)");
  return s;
}

// PATH.partial-<pid> files whose process no longer runs: what a killed run left. A live process
// with that pid (the pid reused) keeps its file: leaving one too many is harmless.
void RemoveStaleStandIns(const std::string& path) {
  const fs::path p(path);
  const std::string prefix = p.filename().string() + std::string(kStandIn);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    long pid = 0;
    const char* first = name.data() + prefix.size();
    const char* last = name.data() + name.size();
    const auto [at, err] = std::from_chars(first, last, pid);
    if (err != std::errc() || at != last || pid <= 0) continue;
    std::error_code rm;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove(it->path(), rm);
  }
}

}  // namespace

Status ReplaceFile(const std::string& path, const std::function<Status(std::ostream&)>& body) {
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) return WriteTo(path, path, body);
  RemoveStaleStandIns(path);
  const std::string tmp = path + std::string(kStandIn) + std::to_string(getpid());
  if (Status s = WriteTo(tmp, path, body); !s.ok()) {
    fs::remove(tmp, ec);  // best effort: the error to report is s
    return s;
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove(tmp, ec);
    return Status::IOError("cannot write " + path + ": " + why);
  }
  return Status::Ok();
}

}  // namespace vrecon
