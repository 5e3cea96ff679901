// Building blocks of every data output: JSON values, CSV cells and aligned text tables.
#ifndef VRECON_SRC_REPORT_OUTPUT_H_
#define VRECON_SRC_REPORT_OUTPUT_H_

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace vrecon {

enum class OutputFormat { kTable, kCsv, kJson };
bool ParseOutputFormat(std::string_view s, OutputFormat* out);

std::string JsonString(std::string_view s);
// A JSON number, or null for a missing value (and for NaN/inf, which JSON cannot hold).
std::string JsonNumber(const std::optional<double>& v);
std::string CsvCell(std::string_view s);
// A VM's name for people: with what tells it apart ("WEB01 [vc-dr.example]") when another VM
// shares the name, else the name alone.
std::string VmLabel(std::string_view name, std::string_view source, bool name_shared);
std::string CsvNumber(const std::optional<double>& v);  // "" when missing
// The same, appended to *out: for writers of millions of rows, without a string per cell.
void AppendCsvCell(std::string* out, std::string_view s);
void AppendCsvNumber(std::string* out, const std::optional<double>& v);
// JsonNumber's text appended to *out (null for NaN/inf), for writers of millions of numbers: a
// value that is a whole number of ten-thousandths below 10^5 (a forecast's) is written without
// to_chars' general search, to the same bytes.
void AppendJsonNumber(std::string* out, double v);

// Collects rows, then prints them with columns padded to their widest cell.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void AddRow(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void Print(std::ostream& os) const;
  bool empty() const { return rows_.empty(); }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// Prints rows as they come, padded to widths known up front, so a long listing needs no
// memory. Cells wider than their column push the rest of that line right.
class StreamingTable {
 public:
  StreamingTable(std::ostream& os, std::vector<std::string> header, std::vector<size_t> min_widths);
  void Row(const std::vector<std::string>& row);

 private:
  std::ostream& os_;
  std::vector<size_t> widths_;
};

size_t DisplayWidth(const std::string& s);

}  // namespace vrecon

#endif  // VRECON_SRC_REPORT_OUTPUT_H_
