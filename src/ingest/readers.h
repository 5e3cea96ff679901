// The input formats `vrecon ingest` reads, in one explicit list: each with its name, a sniffer
// that says how much a file's first bytes look like it, and a factory for its reader; beside it,
// the formats vrecon recognises but does not read, each with what to tell the user instead.
// Adding a format is adding a reader under adapters/ and a line to the list in readers.cc.
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
  // What it is, for the list of formats vrecon reads that an unreadable file's error gives.
  std::string_view description;
  // How much `head` (a file's first kSniffBytes, in any encoding vrecon reads) looks like it.
  Likeness (*sniff)(std::string_view head);
  std::unique_ptr<Reader> (*make)(ReaderOptions options, SampleSink* sink);
};

// Every format vrecon reads (xperf dumper, PowerCLI, sar, WPA CPU Usage (Precise), Perfmon).
std::span<const ReaderFormat> ReaderFormats();

// The best guess for a file that starts with `head`: the reader most sure of it, or, when no
// reader takes it, why not.
struct FormatGuess {
  const ReaderFormat* reader = nullptr;
  // With no reader: what the file is and what to do instead, following its path
  // ("<path> is a /proc/stat snapshot: ...", "<path>: unrecognised format ...").
  std::string refusal;
};
FormatGuess GuessFormat(std::string_view head);

// Streams `path` through `reader` to its end (Parse of each chunk, then Finish); errors name the
// path. Memory does not grow with the file.
Status ReadFileWith(const std::string& path, Reader* reader, const ProgressFn& progress = nullptr);

}  // namespace vrecon

#endif  // VRECON_SRC_INGEST_READERS_H_
