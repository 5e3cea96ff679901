#include "models/vm_identity.h"

#include <charconv>
#include <set>

#include "src/core/text_util.h"

namespace vrecon::models {

std::string NormalizeVmName(std::string_view name) {
  name = Trim(name);
  const size_t dot = name.find('.');
  // An IP address is not a domain name: keep it whole.
  const bool numeric = !name.empty() && name.find_first_not_of("0123456789.") == std::string_view::npos;
  if (dot != std::string_view::npos && !numeric) name = name.substr(0, dot);
  return FoldCase(name);
}

std::optional<HyperVVp> ParseHyperVVpInstance(std::string_view inst) {
  const size_t pos = inst.rfind(":Hv VP ");
  if (pos == std::string_view::npos || pos == 0) return std::nullopt;
  HyperVVp out;
  out.vm = std::string(inst.substr(0, pos));
  std::string_view num = inst.substr(pos + 7);
  auto r = std::from_chars(num.data(), num.data() + num.size(), out.vp);
  if (r.ec != std::errc() || r.ptr != num.data() + num.size()) return std::nullopt;
  return out;
}

std::optional<std::string> ParseEsxtopGroupInstance(std::string_view inst) {
  const size_t colon = inst.find(':');
  if (colon == std::string_view::npos || colon + 1 >= inst.size()) return std::nullopt;
  return std::string(inst.substr(colon + 1));
}

std::vector<VmMatch> MatchVms(const std::vector<std::string>& guests, const std::vector<std::string>& host_vms,
                              const std::map<std::string, std::string>& mappings) {
  std::map<std::string, std::string> mapped;  // normalized guest -> normalized vm
  for (const auto& [g, v] : mappings) mapped[NormalizeVmName(g)] = NormalizeVmName(v);
  std::vector<VmMatch> out;
  std::set<std::string> used_hosts;
  for (const std::string& g : guests) {
    const std::string ng = NormalizeVmName(g);
    auto it = mapped.find(ng);
    const std::string target = it != mapped.end() ? it->second : ng;
    VmMatch m;
    m.guest = g;
    m.vm = g;
    for (const std::string& h : host_vms) {
      if (NormalizeVmName(h) == target) {
        m.vm = h;
        m.host_seen = true;
        used_hosts.insert(h);
        break;
      }
    }
    out.push_back(std::move(m));
  }
  for (const std::string& h : host_vms) {
    if (used_hosts.count(h)) continue;
    VmMatch m;
    m.vm = h;
    m.host_seen = true;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace vrecon::models
