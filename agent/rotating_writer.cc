#include "agent/rotating_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

namespace vrecon::agent {

StdOutputFiles::StdOutputFiles(std::string dir) : dir_(std::move(dir)) {}
StdOutputFiles::~StdOutputFiles() { Close(); }

bool StdOutputFiles::Exists(const std::string& name) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::path(dir_) / name, ec);
}

Status StdOutputFiles::Create(const std::string& name) {
  Close();
  current_ = (std::filesystem::path(dir_) / name).string();
  file_ = std::fopen(current_.c_str(), "wb");
  if (!file_) return Status::IOError(current_ + ": cannot create: " + std::strerror(errno));
  return Status::Ok();
}

Status StdOutputFiles::Append(std::string_view bytes) {
  auto* f = static_cast<std::FILE*>(file_);
  if (!f) return Status::IOError("no output file open");
  if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fflush(f) != 0)
    return Status::IOError(current_ + ": write failed: " + std::strerror(errno));
  return Status::Ok();
}

void StdOutputFiles::Close() {
  if (file_) std::fclose(static_cast<std::FILE*>(file_));
  file_ = nullptr;
}

std::string FileName(const std::string& prefix, const perfmon::LocalTime& t, int attempt) {
  char b[64];
  std::snprintf(b, sizeof b, "_%04d%02d%02d-%02d%02d%02d", t.year, t.month, t.day, t.hour, t.minute, t.second);
  std::string name = prefix + b;
  if (attempt > 0) name += "_" + std::to_string(attempt + 1);
  return name + ".csv";
}

RotatingWriter::RotatingWriter(OutputFiles& files, std::string prefix, RotationPolicy policy)
    : out_(files), prefix_(std::move(prefix)), policy_(policy) {}

Status RotatingWriter::StartFile(const Stamp& at, const std::vector<std::string>& header_paths) {
  Close();
  std::string name;
  for (int attempt = 0;; ++attempt) {
    name = FileName(prefix_, at.local, attempt);
    if (!out_.Exists(name)) break;
  }
  RETURN_IF_ERROR(out_.Create(name));
  const std::string header = perfmon::FormatHeader(at.zone, header_paths);
  RETURN_IF_ERROR(out_.Append(header));
  open_ = true;
  bytes_ = header.size();
  rows_in_file_ = 0;
  started_ms_ = at.utc_ms;
  files_.push_back(name);
  return Status::Ok();
}

Status RotatingWriter::Write(const Stamp& at, const std::vector<std::string>& header_paths, bool columns_changed,
                             const std::vector<std::optional<double>>& values) {
  const std::string row = perfmon::FormatRow(at.local, values);
  bool start = !open_ || columns_changed;
  if (open_ && rows_in_file_ > 0) {  // a file always gets at least one row
    if (policy_.max_bytes && bytes_ + row.size() > policy_.max_bytes) start = true;
    if (policy_.max_seconds && at.utc_ms - started_ms_ >= policy_.max_seconds * 1000) start = true;
  }
  if (start) RETURN_IF_ERROR(StartFile(at, header_paths));
  RETURN_IF_ERROR(out_.Append(row));
  bytes_ += row.size();
  ++rows_in_file_;
  return Status::Ok();
}

void RotatingWriter::Close() {
  if (open_) out_.Close();
  open_ = false;
}

}  // namespace vrecon::agent
