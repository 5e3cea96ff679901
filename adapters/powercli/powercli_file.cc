#include "adapters/powercli/powercli_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

namespace vrecon::powercli {

bool IsPowerCliFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return false;
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return false;
  std::vector<char> head(8192);
  const size_t n = std::fread(head.data(), 1, head.size(), f.get());
  return LooksLikePowerCliExport(std::string_view(head.data(), n));
}

Status ReadPowerCliFile(const std::string& path, ParserOptions options, SampleSink* sink, ParseSummary* summary,
                        const ProgressFn& progress) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Status::InvalidArgument(path + " is a directory, not a file");
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return Status::IOError("cannot open " + path + ": " + std::strerror(errno));
  const uint64_t total = std::filesystem::file_size(path, ec);
  if (options.file.empty()) options.file = path;
  PowerCliParser parser(std::move(options), sink);
  constexpr size_t kChunk = 1 << 20;
  std::vector<char> buf(kChunk);
  uint64_t done = 0;
  while (true) {
    const size_t n = std::fread(buf.data(), 1, buf.size(), f.get());
    if (n > 0) {
      Status s = parser.Parse(std::string_view(buf.data(), n));
      if (!s.ok()) return s;
      done += n;
      if (progress) progress(done, total);
    }
    if (n < buf.size()) {
      if (std::ferror(f.get())) return Status::IOError("error reading " + path + ": " + std::strerror(errno));
      break;
    }
  }
  Status s = parser.Finish();
  *summary = parser.summary();
  return s;
}

}  // namespace vrecon::powercli
