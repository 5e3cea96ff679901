#include "src/core/text_decode.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "src/core/text_util.h"

namespace vrecon {
namespace {

// Code page 1251, bytes 0x80..0xBF (0xC0..0xFF are U+0410..U+044F).
constexpr uint16_t kCp1251High[64] = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409, 0x2039, 0x040A,
    0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x0098, 0x2122,
    0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6,
    0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407, 0x00B0, 0x00B1, 0x0406, 0x0456,
    0x0491, 0x00B5, 0x00B6, 0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457};

// Code page 1252, bytes 0x80..0x9F (0xA0..0xFF are Latin-1).
constexpr uint16_t kCp1252High[32] = {0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                      0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
                                      0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                      0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

}  // namespace

std::string_view EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kUtf8: return "utf-8";
    case Encoding::kUtf16Le: return "utf-16le";
    case Encoding::kUtf16Be: return "utf-16be";
    case Encoding::kCp1251: return "windows-1251";
    case Encoding::kCp1252: return "windows-1252";
  }
  return "utf-8";
}

void AppendUtf8(unsigned cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

Sniffed SniffEncoding(std::string_view h) {
  Sniffed s;
  if (h.size() >= 3 && static_cast<unsigned char>(h[0]) == 0xEF && static_cast<unsigned char>(h[1]) == 0xBB &&
      static_cast<unsigned char>(h[2]) == 0xBF) {
    s.bom_length = 3;
    return s;
  }
  if (h.size() >= 2 && static_cast<unsigned char>(h[0]) == 0xFF && static_cast<unsigned char>(h[1]) == 0xFE) {
    s.encoding = Encoding::kUtf16Le;
    s.bom_length = 2;
    return s;
  }
  if (h.size() >= 2 && static_cast<unsigned char>(h[0]) == 0xFE && static_cast<unsigned char>(h[1]) == 0xFF) {
    s.encoding = Encoding::kUtf16Be;
    s.bom_length = 2;
    return s;
  }
  // UTF-16 without a BOM: ASCII characters have a zero high byte, after (LE) or before (BE) it.
  if (h.size() >= 4 && h[0] != 0 && h[1] == 0 && h[2] != 0 && h[3] == 0) {
    s.encoding = Encoding::kUtf16Le;
    return s;
  }
  if (h.size() >= 4 && h[0] == 0 && h[1] != 0 && h[2] == 0 && h[3] != 0) {
    s.encoding = Encoding::kUtf16Be;
    return s;
  }
  s.eight_bit_undecided = true;
  return s;
}

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n;
    if (c < 0x80) {
      n = 0;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if ((c >> 4) == 0xE) {
      n = 2;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
    } else {
      return false;
    }
    if (i + n >= s.size() && n > 0) return false;
    for (size_t k = 1; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n + 1;
  }
  return true;
}

std::string SingleByteToUtf8(std::string_view s, Encoding e) {
  std::string out;
  out.reserve(s.size() * 2);
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    unsigned cp = c;
    if (c >= 0x80) {
      if (e == Encoding::kCp1251) {
        cp = c >= 0xC0 ? 0x0410 + (c - 0xC0) : kCp1251High[c - 0x80];
      } else if (c < 0xA0) {
        cp = kCp1252High[c - 0x80];
      }
    }
    AppendUtf8(cp, &out);
  }
  return out;
}

Encoding GuessCodePage(std::string_view s) {
  size_t high = 0, ascii_letters = 0;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c >= 0xC0) ++high;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) ++ascii_letters;
  }
  return high * 3 > ascii_letters ? Encoding::kCp1251 : Encoding::kCp1252;
}

void Utf16Decoder::Feed(std::string_view bytes, std::string* out) {
  size_t i = 0;
  // Bytes in file order: the first is the low byte in little-endian, the high one in big-endian.
  auto unit_at = [&](unsigned first, unsigned second) {
    return big_endian_ ? (first << 8) | second : first | (second << 8);
  };
  while (true) {
    unsigned u;
    if (pending_byte_ >= 0) {
      if (i >= bytes.size()) return;
      u = unit_at(static_cast<unsigned>(pending_byte_), static_cast<unsigned char>(bytes[i]));
      pending_byte_ = -1;
      i += 1;
    } else {
      if (i + 1 >= bytes.size()) {
        if (i < bytes.size()) pending_byte_ = static_cast<unsigned char>(bytes[i]);
        return;
      }
      u = unit_at(static_cast<unsigned char>(bytes[i]), static_cast<unsigned char>(bytes[i + 1]));
      i += 2;
    }
    if (high_surrogate_ != 0) {
      if (u >= 0xDC00 && u <= 0xDFFF) {
        AppendUtf8(0x10000 + ((high_surrogate_ - 0xD800) << 10) + (u - 0xDC00), out);
        high_surrogate_ = 0;
        continue;
      }
      AppendUtf8(0xFFFD, out);
      high_surrogate_ = 0;
    }
    if (u >= 0xD800 && u <= 0xDBFF) {
      high_surrogate_ = u;
    } else if (u >= 0xDC00 && u <= 0xDFFF) {
      AppendUtf8(0xFFFD, out);
    } else {
      AppendUtf8(u, out);
    }
  }
}

bool IsBinaryHead(std::string_view head, std::optional<Encoding> forced) {
  // Little-endian binary headers can look like BOM-less UTF-16 to the sniffer: a NUL code unit
  // gives them away. 4096 bytes: what Reader (src/core/reader.h) holds back before deciding.
  Sniffed s = SniffEncoding(head);
  if (forced) s.encoding = *forced;
  head.remove_prefix(std::min(head.size(), s.bom_length));
  const size_t probe = std::min<size_t>(head.size(), 4096);
  if (!IsUtf16(s.encoding)) return std::memchr(head.data(), '\0', probe) != nullptr;
  for (size_t i = 0; i + 1 < probe; i += 2)
    if (head[i] == '\0' && head[i + 1] == '\0') return true;
  return false;
}

std::string FirstHeadLine(std::string_view head) {
  std::string first;
  ForEachHeadLine(head, [&](std::string_view line) {
    first = std::string(Trim(line));
    return first.empty();
  });
  return first;
}

void ForEachHeadLine(std::string_view head, const std::function<bool(std::string_view line)>& fn) {
  const std::string text = DecodeHead(head);
  std::string_view rest(text);
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (!fn(line)) return;
  }
}

std::string DecodeHead(std::string_view head) {
  const Sniffed sn = SniffEncoding(head);
  head.remove_prefix(std::min(head.size(), sn.bom_length));
  std::string text;
  if (IsUtf16(sn.encoding)) {
    Utf16Decoder(sn.encoding == Encoding::kUtf16Be).Feed(head, &text);
  } else {
    text.assign(head);
  }
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
  return text;
}

}  // namespace vrecon
