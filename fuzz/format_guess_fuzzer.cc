// The list of input formats (src/ingest/readers.cc): every reader's and every unread format's
// sniffer on any first bytes, as `vrecon ingest` calls them on a file's first 4 KiB (kSniffBytes).
// Properties: a guess names a reader of the list, or says why none takes the file (one line, that
// follows the path); the guess depends on the bytes only (the same twice).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "src/ingest/readers.h"

using namespace vrecon;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view head(reinterpret_cast<const char*>(data), std::min(size, kSniffBytes));
  const FormatGuess g = GuessFormat(head);
  if (g.reader) {
    bool listed = false;
    for (const ReaderFormat& f : ReaderFormats()) listed = listed || &f == g.reader;
    FUZZ_CHECK(listed, "the guess is a reader of the list");
    FUZZ_CHECK(g.refusal.empty(), "a guess with a reader refuses nothing");
  } else {
    FUZZ_CHECK(!g.refusal.empty(), "a file no reader takes is told why");
    FUZZ_CHECK(g.refusal.find('\n') == std::string::npos, "the refusal is one line");
  }
  const FormatGuess again = GuessFormat(head);
  FUZZ_CHECK(again.reader == g.reader && again.refusal == g.refusal, "the guess depends on the bytes only");
  return 0;
}
