// The folder side: files named <prefix>_YYYYMMDD-HHMMSS.csv, a new one when the column set
// changes (a PDH-CSV header is fixed), when the current one would pass the size limit, or when
// it is older than the time limit.
#ifndef VRECON_AGENT_ROTATING_WRITER_H_
#define VRECON_AGENT_ROTATING_WRITER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/perfmon/pdh_csv_writer.h"
#include "src/core/status.h"

namespace vrecon::agent {

// The one I/O seam of the writer. StdOutputFiles writes into a real folder; tests may use
// memory.
class OutputFiles {
 public:
  virtual ~OutputFiles() = default;
  virtual bool Exists(const std::string& name) = 0;
  // Creates (truncates) `name` in the folder and makes it the current file.
  virtual Status Create(const std::string& name) = 0;
  virtual Status Append(std::string_view bytes) = 0;  // to the current file, flushed
  virtual void Close() = 0;
};

// Files in a folder through the C++ standard library (works on Windows and Linux).
class StdOutputFiles : public OutputFiles {
 public:
  explicit StdOutputFiles(std::string dir);
  ~StdOutputFiles() override;
  bool Exists(const std::string& name) override;
  Status Create(const std::string& name) override;
  Status Append(std::string_view bytes) override;
  void Close() override;

 private:
  std::string dir_;
  std::string current_;
  void* file_ = nullptr;  // std::FILE*
};

struct RotationPolicy {
  std::uint64_t max_bytes = 0;   // 0 = no size limit
  std::int64_t max_seconds = 0;  // 0 = no time limit
};

struct Stamp {
  std::int64_t utc_ms = 0;   // for ages
  perfmon::LocalTime local;  // for rows and file names
  perfmon::TimeZone zone;    // for the header of a file started now
};

class RotatingWriter {
 public:
  RotatingWriter(OutputFiles& files, std::string prefix, RotationPolicy policy);
  // Writes one row, first starting a new file when needed (columns_changed, size, age).
  Status Write(const Stamp& at, const std::vector<std::string>& header_paths, bool columns_changed,
               const std::vector<std::optional<double>>& values);
  void Close();
  const std::vector<std::string>& files() const { return files_; }  // names, in order

 private:
  Status StartFile(const Stamp& at, const std::vector<std::string>& header_paths);

  OutputFiles& out_;
  std::string prefix_;
  RotationPolicy policy_;
  bool open_ = false;
  std::uint64_t bytes_ = 0;
  std::uint64_t rows_in_file_ = 0;
  std::int64_t started_ms_ = 0;
  std::vector<std::string> files_;
};

// "<prefix>_20261102-100000.csv"
std::string FileName(const std::string& prefix, const perfmon::LocalTime& t, int attempt);

}  // namespace vrecon::agent

#endif  // VRECON_AGENT_ROTATING_WRITER_H_
