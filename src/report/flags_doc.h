// docs/flags.md, embedded in the binary at build time (src/report/CMakeLists.txt reads it into
// flags_doc_text.cc at configure time and re-runs when it changes), so the HTML report explains
// every flag with the project's own text and no copy can drift.
#ifndef VRECON_SRC_REPORT_FLAGS_DOC_H_
#define VRECON_SRC_REPORT_FLAGS_DOC_H_

#include <string>
#include <string_view>
#include <vector>

namespace vrecon::report {

std::string_view FlagsMarkdown();

// One row of the flag table: "| `code` | severity | when | what happens |".
struct FlagDoc {
  std::string code, severity, when, what;
};
std::vector<FlagDoc> ParseFlagDocs(std::string_view markdown);
// The paragraphs after the table (e.g. "The 95% interval"), as (heading, text) pairs.
std::vector<std::pair<std::string, std::string>> ParseFlagNotes(std::string_view markdown);
// Inline markdown to HTML: escapes, `code`, **bold**, [text](link) -> text.
std::string InlineMarkdownToHtml(std::string_view s);

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_FLAGS_DOC_H_
