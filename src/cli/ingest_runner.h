// Ingests a list of files and prints what was read; shared by `ingest` and the ad-hoc mode
// of `correct`.
#ifndef VRECON_SRC_CLI_INGEST_RUNNER_H_
#define VRECON_SRC_CLI_INGEST_RUNNER_H_

#include <ostream>
#include <string>
#include <vector>

#include "src/ingest/ingest_file.h"
#include "src/report/output.h"

namespace vrecon::cli {

struct IngestRunOptions {
  IngestOptions ingest;
  bool progress = false;  // a progress line on stderr (only on a terminal)
};

struct IngestRunResult {
  int succeeded = 0;
  int failed = 0;
  int64_t new_rows = 0;
  std::optional<TimeNs> first_new_end, last_new_end;  // UTC span of the rows stored by this run
  std::vector<IngestResult> files;                    // those read, in order
};

// Each file in its own transaction; a file that fails prints one error line on stderr and
// the others go on.
IngestRunResult IngestAll(Store* store, const std::vector<std::string>& files, const IngestRunOptions& options);

// What was read, one line or object per file. A table of no files prints nothing.
void PrintIngestResults(std::ostream& out, OutputFormat format, const std::vector<IngestResult>& files);

std::optional<Encoding> ParseEncodingName(const std::string& name);

// --trace-start's value: an ISO 8601 time with its offset (a trace's start is absolute). Sets
// *out; InvalidArgument, naming the option, when the text is not one. Empty text leaves *out unset.
Status ParseTraceStartOption(const std::string& text, std::optional<TimeNs>* out);

}  // namespace vrecon::cli

#endif  // VRECON_SRC_CLI_INGEST_RUNNER_H_
