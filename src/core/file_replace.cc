#include "src/core/file_replace.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "src/core/stale_files.h"

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

}  // namespace

Status ReplaceFile(const std::string& path, const std::function<Status(std::ostream&)>& body) {
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) return WriteTo(path, path, body);
  RemoveFilesOfGoneRuns(path, kStandIn);
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
