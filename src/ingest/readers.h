// The input formats `vrecon ingest` reads, in one explicit list: each with its name, a sniffer
// that recognises it from a file's first bytes, and a factory for its reader. Adding a format is
// adding a reader under adapters/ and a line to the list in readers.cc.
#ifndef VRECON_SRC_INGEST_READERS_H_
#define VRECON_SRC_INGEST_READERS_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "src/core/file_stream.h"
#include "src/core/reader.h"

namespace vrecon {

struct ReaderFormat {
  std::string_view name;  // stored with the file until its reader says more ("perfmon-csv", ...)
  // True when `head` (a file's first kSniffHeadBytes, in any encoding vrecon reads) is this format.
  bool (*sniff)(std::string_view head);
  std::unique_ptr<Reader> (*make)(ReaderOptions options, SampleSink* sink);
};

inline constexpr size_t kSniffHeadBytes = 8192;

// Every format, in the order they are tried (xperf dumper, PowerCLI, sar, WPA CPU Usage (Precise), Perfmon). The last
// one, Perfmon CSV/TSV, takes whatever no other sniffer claimed: its errors say what it expected.
std::span<const ReaderFormat> ReaderFormats();

// The format of a file that starts with `head`.
const ReaderFormat& SniffFormat(std::string_view head);

// Streams `path` through `reader` to its end (Parse of each chunk, then Finish); errors name the
// path. Memory does not grow with the file.
Status ReadFileWith(const std::string& path, Reader* reader, const ProgressFn& progress = nullptr);

}  // namespace vrecon

#endif  // VRECON_SRC_INGEST_READERS_H_
