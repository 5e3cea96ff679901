#include "src/core/file_stream.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

namespace vrecon {
namespace {

using File = std::unique_ptr<FILE, int (*)(FILE*)>;

// A path vrecon can read as a log: "" when it is a regular file (or does not exist: opening then
// says so), else why not. A FIFO is refused rather than opened: opening one without a writer
// blocks for ever, and a file is read twice (its head to recognise the format, then the whole).
std::string NotAFile(const std::string& path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st) || std::filesystem::is_regular_file(st)) return "";
  if (std::filesystem::is_directory(st)) return path + " is a directory, not a file";
  if (std::filesystem::is_fifo(st))
    return path +
           " is a pipe (FIFO): vrecon reads a log twice, to recognise its format and then to store it; "
           "write it to a file first";
  return path + " is not a regular file (a device or socket)";
}

}  // namespace

Status StreamFile(const std::string& path, const std::function<Status(std::string_view)>& on_chunk,
                  const ProgressFn& progress) {
  std::error_code ec;
  if (const std::string why = NotAFile(path); !why.empty()) return Status::InvalidArgument(why);
  File f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return Status::IOError("cannot open " + path + ": " + std::strerror(errno));
  const uint64_t total = std::filesystem::file_size(path, ec);
  constexpr size_t kChunk = 1 << 20;
  std::vector<char> buf(kChunk);
  uint64_t done = 0;
  while (true) {
    const size_t n = std::fread(buf.data(), 1, buf.size(), f.get());
    if (n > 0) {
      RETURN_IF_ERROR(on_chunk(std::string_view(buf.data(), n)));
      done += n;
      if (progress) progress(done, total);
    }
    if (n < buf.size()) {
      if (std::ferror(f.get())) return Status::IOError("error reading " + path + ": " + std::strerror(errno));
      return Status::Ok();
    }
  }
}

std::string ReadHead(const std::string& path, size_t max) {
  if (!NotAFile(path).empty()) return "";
  File f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return "";
  std::string head(max, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), f.get()));
  return head;
}

}  // namespace vrecon
