// Writing an output file so that readers see the old file or the complete new one, never half
// of one: written to a stand-in beside it, then renamed over it.
#ifndef VRECON_SRC_CORE_FILE_REPLACE_H_
#define VRECON_SRC_CORE_FILE_REPLACE_H_

#include <functional>
#include <ostream>
#include <string>

#include "src/core/status.h"

namespace vrecon {

// Writes `body` into `path`. A regular file (or a new one) is written as PATH.partial-<pid> and
// renamed over PATH: a failed or killed run leaves PATH as it was, and two runs writing PATH at
// once each rename their own complete file. A device or pipe (/dev/null, a FIFO) is written in
// place: renaming over it would replace it by a regular file. Stand-ins left by runs that were
// killed (their process is gone) are removed. Errors name `path`.
Status ReplaceFile(const std::string& path, const std::function<Status(std::ostream&)>& body);

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_FILE_REPLACE_H_
