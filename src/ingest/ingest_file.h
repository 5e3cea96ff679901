// Ingests one input file into the store in one transaction: the file is either fully added
// (its new rows, its issues, its file record) or, when it cannot be read at all, not at all.
#ifndef VRECON_SRC_INGEST_INGEST_FILE_H_
#define VRECON_SRC_INGEST_INGEST_FILE_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/core/file_stream.h"
#include "src/core/reader.h"
#include "src/store/store.h"

namespace vrecon {

struct IngestOptions {
  std::optional<int> tz_bias_minutes;
  std::optional<Encoding> encoding;
  // Local midnight (zone-less) of the first row, for inputs whose text carries no date (sar
  // output without its header line).
  std::optional<TimeNs> date;
  // The computer an input that names none is from (an xperf dumper text; sar text without its
  // header), and the absolute start of a trace that does not carry one.
  std::string machine;
  std::optional<TimeNs> trace_start;
  ProgressFn progress;
};

struct IngestResult {
  std::string path;
  ReadSummary summary;
  FileRecord record;                // after this ingest
  bool seen_before = false;         // the same file (by fingerprint) was ingested earlier
  std::set<std::string> kinds;      // source kinds among the file's columns
  std::set<std::string> machines;   // machines named by the file's counter paths
  std::vector<ImportIssue> issues;  // raised by this run (details capped per code)
};

StatusOr<IngestResult> IngestFile(Store* store, const std::string& path, const IngestOptions& options);

}  // namespace vrecon

#endif  // VRECON_SRC_INGEST_INGEST_FILE_H_
