// Files a killed run left beside an output: "<path><tag><pid>..." (a report's stand-in, a store
// being created), named by the process that wrote them.
#ifndef VRECON_SRC_CORE_STALE_FILES_H_
#define VRECON_SRC_CORE_STALE_FILES_H_

#include <string>
#include <string_view>

namespace vrecon {

// Removes the files beside `path` named "<path's name><tag><pid>" followed by nothing or by a
// non-digit ("-0", "-0-wal") whose process no longer runs. A live process with that pid (the pid
// reused) keeps its file: leaving one too many is harmless, removing a running one's is not.
void RemoveFilesOfGoneRuns(const std::string& path, std::string_view tag);

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_STALE_FILES_H_
