#include "src/core/sample.h"

namespace vrecon {

std::string_view SourceKindName(SourceKind k) {
  switch (k) {
    case SourceKind::kGuest: return "guest";
    case SourceKind::kVmTools: return "vmtools";
    case SourceKind::kHyperV: return "hyperv";
    case SourceKind::kEsxtop: return "esxtop";
    case SourceKind::kVsphere: return "vsphere";
  }
  return "guest";
}

bool ParseSourceKind(std::string_view s, SourceKind* out) {
  for (SourceKind k :
       {SourceKind::kGuest, SourceKind::kVmTools, SourceKind::kHyperV, SourceKind::kEsxtop, SourceKind::kVsphere}) {
    if (SourceKindName(k) == s) {
      *out = k;
      return true;
    }
  }
  return false;
}

}  // namespace vrecon
