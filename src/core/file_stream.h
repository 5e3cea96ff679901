// Reads a file from disk in fixed chunks and hands each to a parser, so memory does not grow
// with the file. The only place file readers open files.
#ifndef VRECON_SRC_CORE_FILE_STREAM_H_
#define VRECON_SRC_CORE_FILE_STREAM_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "src/core/status.h"

namespace vrecon {

// Called after each chunk with bytes read so far and the file size.
using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;

// Errors name the path: a directory, a file that cannot be opened or read, or the first
// non-OK status on_chunk returns.
Status StreamFile(const std::string& path, const std::function<Status(std::string_view)>& on_chunk,
                  const ProgressFn& progress = nullptr);

// The first `max` bytes of a file ("" when it cannot be read), for telling formats apart.
std::string ReadHead(const std::string& path, size_t max);

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_FILE_STREAM_H_
