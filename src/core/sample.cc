#include "src/core/sample.h"

namespace vrecon {

std::string_view SourceKindName(SourceKind k) {
  switch (k) {
    case SourceKind::kGuest: return "guest";
    case SourceKind::kVmTools: return "vmtools";
    case SourceKind::kHyperV: return "hyperv";
    case SourceKind::kEsxtop: return "esxtop";
    case SourceKind::kVsphere: return "vsphere";
    case SourceKind::kVsphereHost: return "vsphere-host";
  }
  return "guest";
}

bool ParseSourceKind(std::string_view s, SourceKind* out) {
  for (SourceKind k : {SourceKind::kGuest, SourceKind::kVmTools, SourceKind::kHyperV, SourceKind::kEsxtop,
                       SourceKind::kVsphere, SourceKind::kVsphereHost}) {
    if (SourceKindName(k) == s) {
      *out = k;
      return true;
    }
  }
  return false;
}

}  // namespace vrecon
