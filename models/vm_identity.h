// Which guest log belongs to which VM. A guest names itself by its computer name; Hyper-V
// names the VM in its virtual-processor instances ("WEB01:Hv VP 0"), esxtop in its group
// instances ("12345:WEB01"). They match case-insensitively with any domain suffix stripped;
// an explicit mapping wins.
#ifndef VRECON_MODELS_VM_IDENTITY_H_
#define VRECON_MODELS_VM_IDENTITY_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vrecon::models {

// "web01.corp.example" -> "web01"; case folded.
std::string NormalizeVmName(std::string_view name);

// "WEB01:Hv VP 3" -> {"WEB01", 3}; nullopt for "_Total" and other shapes.
struct HyperVVp {
  std::string vm;
  int vp = 0;
};
std::optional<HyperVVp> ParseHyperVVpInstance(std::string_view instance);
// "12345:WEB01" -> "WEB01".
std::optional<std::string> ParseEsxtopGroupInstance(std::string_view instance);

struct VmMatch {
  std::string vm;                    // host-side name (the guest name when no host side)
  std::optional<std::string> guest;  // guest computer name
  bool host_seen = false;
};

// Pairs guest machines with host-side VM names. `mappings` maps guest names to VM names
// (keys compared after NormalizeVmName). Unmatched names on either side appear alone.
std::vector<VmMatch> MatchVms(const std::vector<std::string>& guest_machines,
                              const std::vector<std::string>& host_vms,
                              const std::map<std::string, std::string>& mappings);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_VM_IDENTITY_H_
