// Encodings the text inputs arrive in (Perfmon logs above all, but also PowerCLI exports and sar
// text saved on Windows): UTF-8 (with or without BOM), UTF-16LE (relog, PowerShell
// Out-File), UTF-16BE (rare: "Unicode big endian" in Notepad or a converter), and the Windows ANSI
// code pages of localized systems (1251 Cyrillic, 1252 Western).
#ifndef VRECON_SRC_CORE_TEXT_DECODE_H_
#define VRECON_SRC_CORE_TEXT_DECODE_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace vrecon {

enum class Encoding { kUtf8, kUtf16Le, kCp1251, kCp1252, kUtf16Be };
inline bool IsUtf16(Encoding e) { return e == Encoding::kUtf16Le || e == Encoding::kUtf16Be; }
std::string_view EncodingName(Encoding e);

struct Sniffed {
  Encoding encoding = Encoding::kUtf8;
  size_t bom_length = 0;
  bool eight_bit_undecided = false;  // no BOM, not UTF-16: UTF-8 vs 1251 vs 1252 decided on the header
};
// Looks at the first bytes of a file.
Sniffed SniffEncoding(std::string_view head);

bool IsValidUtf8(std::string_view s);
// Converts one of the single-byte code pages to UTF-8.
std::string SingleByteToUtf8(std::string_view s, Encoding e);
// For 8-bit text that is not valid UTF-8: Cyrillic text is mostly high bytes, Western text
// mostly ASCII letters with a few accented ones.
Encoding GuessCodePage(std::string_view s);

// Streaming UTF-16 (little- or big-endian) -> UTF-8; keeps an odd byte or a lone high surrogate
// for the next chunk.
class Utf16Decoder {
 public:
  explicit Utf16Decoder(bool big_endian = false) : big_endian_(big_endian) {}
  void Feed(std::string_view bytes, std::string* out);

 private:
  bool big_endian_;
  int pending_byte_ = -1;
  unsigned high_surrogate_ = 0;
};

// The start of a file as UTF-8 text for the format sniffers: without its BOM, UTF-16 decoded,
// and lines that end in CR alone ended in LF.
std::string DecodeHead(std::string_view head);
// The first line of DecodeHead(head) that is not blank, trimmed ("" when there is none): what
// the sniffers of formats that announce themselves on their first line look at.
std::string FirstHeadLine(std::string_view head);
// Calls `fn` with each line of DecodeHead(head), without its line end (LF or CRLF), until it
// returns false: what the sniffers that look past the first line walk.
void ForEachHeadLine(std::string_view head, const std::function<bool(std::string_view line)>& fn);

// True when the start of a file holds a NUL byte (a NUL code unit in UTF-16): not text. The
// encoding is sniffed unless `forced`.
bool IsBinaryHead(std::string_view head, std::optional<Encoding> forced = std::nullopt);

void AppendUtf8(unsigned code_point, std::string* out);

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_TEXT_DECODE_H_
