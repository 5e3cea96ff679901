// File glue for the Perfmon reader: streams a file from disk through PerfmonParser in fixed
// chunks, so memory does not grow with the file.
#ifndef VRECON_ADAPTERS_PERFMON_PERFMON_FILE_H_
#define VRECON_ADAPTERS_PERFMON_PERFMON_FILE_H_

#include <string>

#include "adapters/perfmon/perfmon_parser.h"
#include "src/core/file_stream.h"

namespace vrecon::perfmon {

// Reads `path` to its end. options.file is set to `path` when empty.
Status ReadPerfmonFile(const std::string& path, ParserOptions options, SampleSink* sink, ParseSummary* summary,
                       const ProgressFn& progress = nullptr);

}  // namespace vrecon::perfmon

#endif  // VRECON_ADAPTERS_PERFMON_PERFMON_FILE_H_
