#include "src/report/output.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "src/core/text_util.h"

namespace vrecon {

bool ParseOutputFormat(std::string_view s, OutputFormat* out) {
  if (s == "table") *out = OutputFormat::kTable;
  else if (s == "csv") *out = OutputFormat::kCsv;
  else if (s == "json") *out = OutputFormat::kJson;
  else return false;
  return true;
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          out += b;
        } else {
          out.push_back(ch);
        }
    }
  }
  return out + "\"";
}

std::string JsonNumber(const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) return "null";
  return FormatDouble(*v);
}

namespace {

// v as to_chars' shortest form writes it, where that is its integer part and up to four
// decimals, trailing zeros dropped: v is exactly n / 10^4 (so those digits are its shortest round
// trip) and 0.001 <= |v| < 10^5, where to_chars never prefers the exponent form ("1e-04",
// "1e+05"). False, writing nothing, for any other value.
bool AppendTenThousandths(std::string* out, double v) {
  const double a = std::fabs(v);
  if (!(a >= 0.001 && a < 1e5)) return false;
  const int64_t n = std::llround(a * 1e4);
  if (static_cast<double>(n) / 1e4 != a) return false;
  char buf[24];
  char* p = buf;
  if (v < 0) *p++ = '-';
  p = std::to_chars(p, buf + sizeof buf, n / 10000).ptr;
  int frac = static_cast<int>(n % 10000);
  if (frac != 0) {
    *p++ = '.';
    for (int div = 1000; frac != 0; div /= 10) {
      *p++ = static_cast<char>('0' + frac / div);
      frac %= div;
    }
  }
  out->append(buf, p);
  return true;
}

}  // namespace

void AppendJsonNumber(std::string* out, double v) {
  if (!std::isfinite(v)) {
    out->append("null");
    return;
  }
  if (AppendTenThousandths(out, v)) return;
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, r.ptr);
}

void AppendCsvCell(std::string* out, std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) {
    out->append(s);
    return;
  }
  out->push_back('"');
  for (char c : s) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

void AppendCsvNumber(std::string* out, const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) return;
  char buf[32];  // to_chars' shortest form of a double is at most 24 characters
  const auto r = std::to_chars(buf, buf + sizeof buf, *v);
  out->append(buf, r.ptr);
}

std::string VmLabel(std::string_view name, std::string_view source, bool name_shared) {
  std::string out(name);
  if (name_shared && !source.empty()) out.append(" [").append(source).append("]");
  return out;
}

std::string CsvCell(std::string_view s) {
  std::string out;
  AppendCsvCell(&out, s);
  return out;
}

std::string CsvNumber(const std::optional<double>& v) {
  std::string out;
  AppendCsvNumber(&out, v);
  return out;
}

// Display width of UTF-8 text: one column per code point.
size_t DisplayWidth(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

namespace {
size_t Width(const std::string& s) { return DisplayWidth(s); }

void PrintPadded(std::ostream& os, const std::vector<std::string>& r, const std::vector<size_t>& w) {
  std::string out;
  for (size_t i = 0; i < r.size() && i < w.size(); ++i) {
    out += r[i];
    if (i + 1 < r.size()) out += std::string(w[i] > Width(r[i]) ? w[i] - Width(r[i]) + 2 : 2, ' ');
  }
  os << out << '\n';
}
}  // namespace

StreamingTable::StreamingTable(std::ostream& os, std::vector<std::string> header, std::vector<size_t> min_widths)
    : os_(os), widths_(std::move(min_widths)) {
  widths_.resize(header.size(), 0);
  for (size_t i = 0; i < header.size(); ++i) widths_[i] = std::max(widths_[i], Width(header[i]));
  PrintPadded(os_, header, widths_);
}

void StreamingTable::Row(const std::vector<std::string>& row) { PrintPadded(os_, row, widths_); }

void TextTable::Print(std::ostream& os) const {
  std::vector<size_t> w(header_.size(), 0);
  for (size_t i = 0; i < header_.size(); ++i) w[i] = Width(header_[i]);
  for (const auto& r : rows_)
    for (size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], Width(r[i]));
  PrintPadded(os, header_, w);
  for (const auto& r : rows_) PrintPadded(os, r, w);
}

}  // namespace vrecon
