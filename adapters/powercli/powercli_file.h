// File glue for the PowerCLI Get-Stat reader: streams a file from disk through PowerCliParser
// in fixed chunks, so memory does not grow with the file.
#ifndef VRECON_ADAPTERS_POWERCLI_POWERCLI_FILE_H_
#define VRECON_ADAPTERS_POWERCLI_POWERCLI_FILE_H_

#include <string>

#include "adapters/powercli/powercli_csv.h"
#include "src/core/file_stream.h"

namespace vrecon::powercli {

// Reads `path` to its end. options.file is set to `path` when empty.
Status ReadPowerCliFile(const std::string& path, ParserOptions options, SampleSink* sink, ParseSummary* summary,
                        const ProgressFn& progress = nullptr);

}  // namespace vrecon::powercli

#endif  // VRECON_ADAPTERS_POWERCLI_POWERCLI_FILE_H_
