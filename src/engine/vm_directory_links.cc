// The directory's link pass (src/engine/host_links.h): an esxtop VM and the vSphere VM of its
// name made one entry.
#include <algorithm>
#include <set>
#include <string_view>

#include "models/vm_identity.h"
#include "src/core/host_counters.h"
#include "src/engine/vm_directory.h"

namespace vrecon {

using models::FoldVmName;

Status VmDirectory::LinkHostSources(Store* store, const std::vector<StoredSeries>& all,
                                    const std::vector<StoredVm>& inventory) {
  // Most stores hold one of the two kinds: nothing to link, and no name to fold.
  const auto is_esxtop = [](const VmEntry& e) { return e.key.starts_with("esxtop:"); };
  const auto is_vsphere = [](const VmEntry& e) { return e.key.starts_with("vsphere:"); };
  if (std::none_of(entries_.begin(), entries_.end(), is_esxtop) ||
      std::none_of(entries_.begin(), entries_.end(), is_vsphere))
    return Status::Ok();
  std::set<std::string> vsphere_names, esxtop_names;
  for (const VmEntry& e : entries_) {
    if (is_vsphere(e)) vsphere_names.insert(FoldVmName(e.name));
    if (is_esxtop(e)) esxtop_names.insert(FoldVmName(e.name));
  }
  std::map<size_t, LinkSide> sides;  // entries whose name both kinds show
  for (size_t i = 0; i < entries_.size(); ++i) {
    const VmEntry& e = entries_[i];
    if (!is_vsphere(e) && !is_esxtop(e)) continue;
    if (!vsphere_names.contains(FoldVmName(e.name)) || !esxtop_names.contains(FoldVmName(e.name))) continue;
    sides[i] = LinkSide{i, FoldVmName(e.name), e.hosts, nullptr, {}, {}};
  }
  if (sides.empty()) return Status::Ok();
  std::map<std::string, const StoredVm*> by_entity;
  for (const StoredVm& v : inventory) by_entity[v.entity] = &v;
  for (const StoredSeries& s : all) {
    const int i = HostEntryOf(s.key);
    auto side = i < 0 ? sides.end() : sides.find(static_cast<size_t>(i));
    if (side == sides.end()) continue;
    const SeriesKey& k = s.key;
    const bool vsphere = k.source == SourceKind::kVsphere && k.instance.empty(),
               esxtop = k.source == SourceKind::kEsxtop;
    if ((vsphere && k.counter == kVsphereUsageCounter) || (esxtop && k.counter == kEsxtopUsedCounter))
      side->second.used.push_back(s.id);
    if ((vsphere && k.counter == kVsphereRunCounter) || (esxtop && k.counter == kEsxtopRunCounter))
      side->second.run.push_back(s.id);
  }
  std::vector<LinkSide> vsphere, esxtop;
  for (auto& [i, side] : sides) {
    if (is_esxtop(entries_[i])) {
      esxtop.push_back(std::move(side));
      continue;
    }
    const std::string entity = entries_[i].key.substr(std::string_view("vsphere:").size());
    if (auto inv = by_entity.find(entity); inv != by_entity.end()) side.inventory = inv->second;
    vsphere.push_back(std::move(side));
  }
  ASSIGN_OR_RETURN(std::vector<HostLink> links, LinkHostEntries(store, vsphere, esxtop));
  Merge(links);
  return Status::Ok();
}

// Each esxtop entry linked into its vSphere entry: its hosts and key move there, the entry goes.
void VmDirectory::Merge(const std::vector<HostLink>& links) {
  if (links.empty()) return;
  std::vector<int> moved(entries_.size());
  for (size_t i = 0; i < moved.size(); ++i) moved[i] = static_cast<int>(i);
  for (const HostLink& l : links) {
    VmEntry& into = entries_[l.vsphere];
    into.hosts = entries_[l.esxtop].hosts;
    into.linked.push_back(entries_[l.esxtop].key);
    into.linked_by = l.how;
    moved[l.esxtop] = static_cast<int>(l.vsphere);
  }
  std::vector<int> index(entries_.size(), -1);  // old index -> new
  std::vector<VmEntry> kept;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (moved[i] != static_cast<int>(i)) continue;
    index[i] = static_cast<int>(kept.size());
    kept.push_back(std::move(entries_[i]));
  }
  entries_ = std::move(kept);
  for (auto& [id, entry] : host_index_) entry = index[moved[entry]];
}

}  // namespace vrecon
