#include "models/vm_identity.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <numeric>

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

std::string FoldVmName(std::string_view name) { return FoldCase(Trim(name)); }

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

std::string SeriesVmName(const SeriesKey& k) {
  switch (k.source) {
    case SourceKind::kGuest:
    case SourceKind::kVmTools:
    case SourceKind::kVsphere: return NormalizeVmName(k.machine);
    case SourceKind::kHyperV:
      if (k.object != "Hyper-V Hypervisor Virtual Processor") return "";
      if (auto vp = ParseHyperVVpInstance(k.instance)) return NormalizeVmName(vp->vm);
      return "";
    case SourceKind::kVsphereHost: return "";
    case SourceKind::kEsxtop:
      if (k.object != "Group Cpu") return "";
      if (auto g = ParseEsxtopGroupInstance(k.instance)) return NormalizeVmName(*g);
      return "";
  }
  return "";
}

std::vector<std::vector<size_t>> GroupSightings(const std::vector<HostSighting>& s, TimeNs max_overlap) {
  std::vector<size_t> order(s.size());
  std::iota(order.begin(), order.end(), 0);
  auto first = [&](size_t i) {
    return s[i].present.empty() ? std::numeric_limits<TimeNs>::max() : s[i].present.front().from;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return first(a) < first(b); });
  std::vector<std::vector<size_t>> groups;
  for (size_t i : order) {
    std::vector<size_t> fits;
    for (size_t g = 0; g < groups.size(); ++g) {
      const bool apart = std::all_of(groups[g].begin(), groups[g].end(), [&](size_t m) {
        const TimeNs shorter = std::min(PresentNs(s[i].present), PresentNs(s[m].present));
        return OverlapNs(s[i].present, s[m].present) <= std::min(max_overlap, shorter / 2);
      });
      if (apart) fits.push_back(g);
    }
    if (fits.size() == 1) {
      groups[fits[0]].push_back(i);
    } else {
      groups.push_back({i});
    }
  }
  return groups;
}

VmNameIndex::VmNameIndex(const std::vector<VmCandidate>& vms) {
  for (size_t i = 0; i < vms.size(); ++i) {
    by_key_.emplace(vms[i].key, i);
    for (const std::string& k : vms[i].also_keys) by_key_.emplace(k, i);
    by_name_.emplace(FoldVmName(vms[i].name), i);
    if (vms[i].guest_hostname.empty()) continue;
    by_hostname_.emplace(FoldVmName(vms[i].guest_hostname), i);
    // guest.hostName is a guest's name: its suffix may go as the guest's may.
    by_short_hostname_.emplace(NormalizeVmName(vms[i].guest_hostname), i);
  }
}

std::vector<size_t> VmNameIndex::Find(const std::multimap<std::string, size_t>& by, const std::string& key) const {
  std::vector<size_t> out;
  for (auto [it, end] = by.equal_range(key); it != end; ++it) out.push_back(it->second);
  std::sort(out.begin(), out.end());
  return out;
}

GuestMatch VmNameIndex::Match(std::string_view guest, bool strip_suffix,
                              const std::optional<std::string>& mapped_to) const {
  if (mapped_to) {
    std::vector<size_t> r = Find(by_key_, std::string(Trim(*mapped_to)));
    if (r.empty()) r = Find(by_name_, FoldVmName(*mapped_to));
    return GuestMatch{r, r.empty() ? "" : "map"};
  }
  const std::string full = FoldVmName(guest), short_name = NormalizeVmName(guest);
  std::vector<size_t> r = Find(by_hostname_, full);
  if (r.empty() && strip_suffix) r = Find(by_short_hostname_, short_name);
  if (!r.empty()) return GuestMatch{r, "inventory"};
  r = Find(by_name_, full);
  if (r.empty() && strip_suffix && short_name != full) r = Find(by_name_, short_name);
  return GuestMatch{r, r.empty() ? "" : "name"};
}

}  // namespace vrecon::models
