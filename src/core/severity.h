// How bad a reported problem is: an import issue, a correction flag, a readiness hint. One type
// everywhere; its text form ("info", "warning", "error") is what the store, the CSV and JSON
// outputs and the reports show, so SeverityName's strings are part of the file formats.
#ifndef VRECON_SRC_CORE_SEVERITY_H_
#define VRECON_SRC_CORE_SEVERITY_H_

#include <optional>
#include <string_view>

namespace vrecon {

enum class Severity { kInfo, kWarning, kError };

std::string_view SeverityName(Severity s);
// The inverse of SeverityName; nullopt for any other text (exact, lower case).
std::optional<Severity> ParseSeverity(std::string_view name);

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_SEVERITY_H_
