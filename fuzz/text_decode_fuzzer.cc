// The text decoding under every reader (adapters/perfmon/text_decode): the encoding sniffer, the
// streaming UTF-16LE decoder, code pages 1251/1252, the UTF-8 check and the code-page guess.
// Properties: decoded text is valid UTF-8; UTF-16LE decoding does not depend on the chunking;
// ASCII passes through the code pages unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/chunk_plan.h"
#include "fuzz/fuzz_check.h"
#include "src/core/text_decode.h"

using namespace vrecon;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const vrecon::fuzz::ChunkedInput in = vrecon::fuzz::SplitTrailer(data, size);
  const std::string_view bytes = in.file;

  const Sniffed sn = SniffEncoding(bytes);
  FUZZ_CHECK(sn.bom_length <= bytes.size(), "a BOM lies inside the input");

  std::string whole;
  const bool big_endian = (in.seed & 1) != 0;
  Utf16Decoder one(big_endian);
  one.Feed(bytes, &whole);
  FUZZ_CHECK(IsValidUtf8(whole), "UTF-16 decodes to valid UTF-8");
  std::string pieces;
  Utf16Decoder many(big_endian);
  for (std::string_view c : vrecon::fuzz::Cut(bytes, in.seed)) many.Feed(c, &pieces);
  FUZZ_CHECK(whole == pieces, "UTF-16 decoding does not depend on the chunking");

  bool ascii = true;
  for (char c : bytes) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  for (Encoding e : {Encoding::kCp1251, Encoding::kCp1252}) {
    const std::string u = SingleByteToUtf8(bytes, e);
    FUZZ_CHECK(IsValidUtf8(u), "a code page decodes to valid UTF-8");
    FUZZ_CHECK(!ascii || u == bytes, "ASCII is the same in every code page");
  }
  if (ascii) FUZZ_CHECK(IsValidUtf8(bytes), "ASCII is valid UTF-8");
  (void)GuessCodePage(bytes);
  (void)EncodingName(sn.encoding);
  return 0;
}
