#include "src/report/flags_doc.h"

#include "src/core/text_util.h"
#include "src/report/svg_chart.h"

namespace vrecon::report {
namespace {

std::vector<std::string_view> SplitLines(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const size_t nl = s.find('\n');
    out.push_back(s.substr(0, nl));
    if (nl == std::string_view::npos) break;
    s.remove_prefix(nl + 1);
  }
  return out;
}

// Cells of a table row "| a | b |"; "\|" inside a cell is a literal bar.
std::vector<std::string> Cells(std::string_view line) {
  std::vector<std::string> cells;
  std::string cur;
  line = Trim(line);
  if (!line.empty() && line.front() == '|') line.remove_prefix(1);
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cur += '|';
      ++i;
    } else if (line[i] == '|') {
      cells.emplace_back(Trim(cur));
      cur.clear();
    } else {
      cur += line[i];
    }
  }
  if (!Trim(cur).empty()) cells.emplace_back(Trim(cur));
  return cells;
}

}  // namespace

std::vector<FlagDoc> ParseFlagDocs(std::string_view markdown) {
  std::vector<FlagDoc> out;
  for (std::string_view line : SplitLines(markdown)) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> c = Cells(line);
    if (c.size() < 4 || c[0].size() < 3 || c[0].front() != '`' || c[0].back() != '`') continue;
    out.push_back({c[0].substr(1, c[0].size() - 2), c[1], c[2], c[3]});
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> ParseFlagNotes(std::string_view markdown) {
  std::vector<std::pair<std::string, std::string>> out;
  bool in_note = false;
  for (std::string_view line : SplitLines(markdown)) {
    if (line.starts_with("## ")) {
      out.emplace_back(std::string(line.substr(3)), "");
      in_note = true;
    } else if (line.starts_with("# ") || line.starts_with('|')) {
      in_note = false;
    } else if (in_note) {
      std::string& t = out.back().second;
      t += (t.empty() ? "" : " ") + std::string(Trim(line));
    }
  }
  return out;
}

std::string InlineMarkdownToHtml(std::string_view s) {
  std::string o;
  bool code = false, bold = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '`') {
      o += code ? "</code>" : "<code>";
      code = !code;
    } else if (!code && c == '*' && i + 1 < s.size() && s[i + 1] == '*') {
      o += bold ? "</b>" : "<b>";
      bold = !bold;
      ++i;
    } else if (!code && c == '[') {
      const size_t close = s.find("](", i);
      const size_t end = close == std::string_view::npos ? close : s.find(')', close);
      if (end == std::string_view::npos) {
        o += '[';
        continue;
      }
      o += XmlEscape(s.substr(i + 1, close - i - 1));
      i = end;
    } else {
      o += XmlEscape(std::string_view(&s[i], 1));
    }
  }
  if (code) o += "</code>";
  if (bold) o += "</b>";
  return o;
}

}  // namespace vrecon::report
