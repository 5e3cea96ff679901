#include "src/core/severity.h"

namespace vrecon {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "warning";  // not reached: every enumerator is handled above (-Wswitch checks)
}

std::optional<Severity> ParseSeverity(std::string_view name) {
  for (Severity s : {Severity::kInfo, Severity::kWarning, Severity::kError})
    if (SeverityName(s) == name) return s;
  return std::nullopt;
}

}  // namespace vrecon
