#include "src/engine/vm_directory.h"

#include <algorithm>
#include <set>

#include "models/vm_identity.h"
#include "src/core/host_counters.h"
#include "src/core/text_util.h"

namespace vrecon {
namespace {

using models::FoldVmName;
using models::NormalizeVmName;

// What a host-side series says about the VM it measures.
struct HostRef {
  std::string kind;    // vsphere | hyperv | esxtop
  std::string host;    // the host machine (host logs)
  std::string vm;      // the VM's name
  std::string entity;  // vSphere
};

std::optional<HostRef> HostRefOf(const SeriesKey& k) {
  if (k.source == SourceKind::kVsphere) return HostRef{"vsphere", "", k.machine, k.entity};
  if (k.source == SourceKind::kHyperV && k.object == "Hyper-V Hypervisor Virtual Processor") {
    if (auto vp = models::ParseHyperVVpInstance(k.instance)) return HostRef{"hyperv", k.machine, vp->vm, ""};
  } else if (k.source == SourceKind::kEsxtop && k.object == "Group Cpu") {
    if (auto g = models::ParseEsxtopGroupInstance(k.instance)) return HostRef{"esxtop", k.machine, *g, ""};
  }
  return std::nullopt;
}

std::string IndexKey(const HostRef& r) {
  if (r.kind == "vsphere") return "vsphere\x1f" + (r.entity.empty() ? "name:" + FoldVmName(r.vm) : r.entity);
  return r.kind + "\x1f" + FoldVmName(r.host) + "\x1f" + FoldVmName(r.vm);
}

// The counter whose presence stands for the VM's on a host.
bool IsPresenceCounter(const SeriesKey& k) {
  return k.counter == kHyperVTotalRunCounter || k.counter == kEsxtopUsedCounter;
}

// One VM name on one host as the host logs show it.
struct Sighting {
  std::string host;     // as spelled
  int64_t series = -1;  // the series read for its presence
};
struct NamedVm {
  std::string kind, name;  // name as first spelled
  std::vector<Sighting> hosts;
};

StatusOr<std::vector<models::Span>> Presence(Store* store, int64_t series) {
  std::vector<models::Span> spans;
  RETURN_IF_ERROR(ForEachSample(store, series, TimeRange{}, [&](TimeNs b, TimeNs e, double v) {
    if (!IsMissing(v)) models::AddSpan(&spans, b, e);
  }));
  std::sort(spans.begin(), spans.end(), [](const models::Span& a, const models::Span& b) { return a.from < b.from; });
  std::vector<models::Span> merged;  // several files of one host may interleave
  for (const models::Span& s : spans) models::AddSpan(&merged, s.from, s.to);
  return merged;
}

}  // namespace

std::string VmDirectory::GuestId(const std::string& machine) const {
  const std::string short_name = NormalizeVmName(machine);
  auto it = guest_short_.find(short_name);
  return it != guest_short_.end() && it->second == "\x1f" ? FoldVmName(machine) : short_name;
}

int VmDirectory::HostEntryOf(const SeriesKey& k) const {
  const std::optional<HostRef> r = HostRefOf(k);
  if (!r) return -1;
  auto it = host_index_.find(IndexKey(*r));
  return it == host_index_.end() ? -1 : it->second;
}

Status VmDirectory::AddHostEntries(Store* store, const std::vector<StoredSeries>& all,
                                   const std::vector<StoredVm>& inventory) {
  std::map<std::string, const StoredVm*> by_entity;
  for (const StoredVm& v : inventory) by_entity[v.entity] = &v;
  ASSIGN_OR_RETURN(auto vcenter_urls, VcenterUrls(store));

  std::vector<NamedVm> named;  // in order of first appearance
  std::map<std::string, size_t> named_index;
  for (const StoredSeries& s : all) {
    const std::optional<HostRef> r = HostRefOf(s.key);
    if (!r) continue;
    const std::string group = r->kind == "vsphere" ? IndexKey(*r) : r->kind + "\x1f" + FoldVmName(r->vm);
    auto [it, added] = named_index.emplace(group, named.size());
    if (added) named.push_back(NamedVm{r->kind, r->vm, {}});
    NamedVm& n = named[it->second];
    if (r->kind == "vsphere") {
      if (n.hosts.empty()) n.hosts.push_back(Sighting{r->entity, s.id});
      continue;
    }
    auto h = std::find_if(n.hosts.begin(), n.hosts.end(),
                          [&](const Sighting& x) { return FoldVmName(x.host) == FoldVmName(r->host); });
    if (h == n.hosts.end()) h = n.hosts.insert(n.hosts.end(), Sighting{r->host, -1});
    if (h->series < 0 && IsPresenceCounter(s.key)) h->series = s.id;
  }

  std::set<std::string> with_data;
  for (const NamedVm& n : named)
    if (n.kind == "vsphere") with_data.insert(n.hosts.front().host);
  for (const StoredVm& v : inventory)
    if (!v.guest_hostname.empty() && !with_data.contains(v.entity))
      inventory_only_.emplace_back(v.guest_hostname, v.name);

  for (const NamedVm& n : named) {
    if (n.kind == "vsphere") {
      const std::string& entity = n.hosts.front().host;
      VmEntry e;
      e.key = "vsphere:" + (entity.empty() ? FoldVmName(n.name) : entity);
      e.name = n.name;
      const std::string vcenter = entity.substr(0, entity.rfind('/'));
      // The vCenter as people know it: the host of a URL that reaches it.
      auto url = vcenter_urls.find(vcenter);
      e.source = entity.empty() ? "PowerCLI export" : url != vcenter_urls.end() ? UrlHost(url->second) : vcenter;
      if (auto inv = by_entity.find(entity); !entity.empty() && inv != by_entity.end()) {
        e.num_cpu = inv->second->num_cpu;
        e.guest_hostname = inv->second->guest_hostname;
      }
      host_index_[IndexKey(HostRef{"vsphere", "", n.name, entity})] = static_cast<int>(entries_.size());
      entries_.push_back(std::move(e));
      continue;
    }
    std::vector<models::HostSighting> sightings;
    for (const Sighting& h : n.hosts) {
      models::HostSighting hs{h.host, {}};
      if (n.hosts.size() > 1 && h.series >= 0) {
        ASSIGN_OR_RETURN(hs.present, Presence(store, h.series));
      }
      sightings.push_back(std::move(hs));
    }
    for (const std::vector<size_t>& group : models::GroupSightings(sightings)) {
      VmEntry e;
      e.name = n.name;
      for (size_t i : group) {
        e.hosts.push_back(n.hosts[i].host);
        host_index_[IndexKey(HostRef{n.kind, n.hosts[i].host, n.name, ""})] = static_cast<int>(entries_.size());
      }
      e.key = n.kind + ":" + FoldVmName(e.hosts.front()) + "/" + FoldVmName(n.name);
      e.source = Join(e.hosts, " -> ");
      entries_.push_back(std::move(e));
    }
  }
  return LinkHostSources(store, all, inventory);
}

StatusOr<VmDirectory> VmDirectory::Build(Store* store, const std::vector<StoredSeries>& all,
                                         const std::map<std::string, std::string>& mappings,
                                         const std::vector<StoredVm>* inventory) {
  VmDirectory d;
  std::vector<std::string> guests;
  std::set<std::string> seen;
  for (const StoredSeries& s : all) {
    const SeriesKey& k = s.key;
    // A guest is a machine with Perfmon's processor or process objects, or an ETW trace's or
    // sampled profile's (ETW Process, ETW Processor, ETW Profile Process, ETW Profile Processor).
    if (k.source == SourceKind::kGuest &&
        (k.object == "Processor" || k.object == "Processor Information" || k.object == "Process" ||
         k.object == "Process V2" || k.object.starts_with("ETW "))) {
      if (seen.insert(FoldVmName(k.machine)).second) guests.push_back(k.machine);
    }
  }
  // A short name stands for one guest unless two guests spell it with different domains.
  for (const std::string& g : guests) {
    if (FoldVmName(g) == NormalizeVmName(g)) continue;
    auto [it, added] = d.guest_short_.emplace(NormalizeVmName(g), FoldVmName(g));
    if (!added && it->second != FoldVmName(g)) it->second = "\x1f";
  }
  std::vector<std::string> distinct;  // one spelling per guest
  std::set<std::string> ids;
  for (const std::string& g : guests)
    if (ids.insert(d.GuestId(g)).second) distinct.push_back(g);
  std::vector<StoredVm> whole;
  if (!inventory) {
    ASSIGN_OR_RETURN(whole, VsphereVms(store));
    inventory = &whole;
  }
  RETURN_IF_ERROR(d.AddHostEntries(store, all, *inventory));
  d.MatchGuests(distinct, mappings);
  return d;
}

void VmDirectory::MatchGuests(const std::vector<std::string>& guests,
                              const std::map<std::string, std::string>& mappings) {
  std::vector<models::VmCandidate> candidates;
  for (const VmEntry& e : entries_)
    candidates.push_back(models::VmCandidate{e.key, e.name, e.guest_hostname, e.linked});
  const models::VmNameIndex index(candidates);
  std::map<std::string, std::string> mapped_full, mapped_id, inventory_only;
  for (const auto& [g, vm] : mappings) {
    mapped_full.emplace(FoldVmName(g), vm);
    mapped_id.emplace(GuestId(g), vm);
  }
  // The inventory of a VM whose data came from elsewhere (esxtop, a host log) still names its guest.
  for (const auto& [hostname, name] : inventory_only_) {
    inventory_only.emplace(FoldVmName(hostname), name);
    inventory_only.emplace(NormalizeVmName(hostname), name);
  }
  std::vector<bool> placed(entries_.size(), false);
  for (const std::string& g : guests) {
    const bool strip = GuestId(g) == NormalizeVmName(g);
    std::optional<std::string> mapped;
    // A mapping names the guest by its full name, else by any spelling of the same guest.
    if (auto it = mapped_full.find(FoldVmName(g)); it != mapped_full.end()) {
      mapped = it->second;
    } else if (auto id = mapped_id.find(GuestId(g)); id != mapped_id.end()) {
      mapped = id->second;
    } else if (auto inv = inventory_only.find(FoldVmName(g)); inv != inventory_only.end()) {
      mapped = inv->second;
    } else if (auto short_inv = inventory_only.find(NormalizeVmName(g)); strip && short_inv != inventory_only.end()) {
      mapped = short_inv->second;
    }
    const models::GuestMatch m = index.Match(g, strip, mapped);
    if (m.vms.size() == 1) {
      entries_[m.vms[0]].guests.push_back(g);
      if (!placed[m.vms[0]]) order_.push_back(m.vms[0]);
      placed[m.vms[0]] = true;
      continue;
    }
    VmEntry e;
    e.key = "guest:" + GuestId(g);
    e.name = g;
    e.source = "guest";
    e.guests = {g};
    for (size_t i : m.vms) e.ambiguous.push_back(entries_[i].key);
    order_.push_back(entries_.size());
    entries_.push_back(std::move(e));
  }
  for (size_t i = 0; i < placed.size(); ++i)
    if (!placed[i]) order_.push_back(i);
  std::map<std::string, int> names;
  for (const VmEntry& e : entries_) ++names[FoldVmName(e.name)];
  for (VmEntry& e : entries_) e.name_shared = names[FoldVmName(e.name)] > 1;
}

std::vector<size_t> VmDirectory::Select(const std::optional<std::string>& vm,
                                        const std::optional<std::set<std::string>>& keys) const {
  std::vector<size_t> out = SelectByName(vm);
  if (keys) std::erase_if(out, [&](size_t i) { return !keys->contains(entries_[i].key); });
  return out;
}

std::vector<size_t> VmDirectory::SelectByName(const std::optional<std::string>& vm) const {
  if (!vm) return order_;
  std::vector<size_t> out;
  const std::string key(Trim(*vm));
  for (size_t i : order_) {
    const VmEntry& e = entries_[i];
    if (e.key == key || std::find(e.linked.begin(), e.linked.end(), key) != e.linked.end()) out.push_back(i);
  }
  if (!out.empty()) return out;
  const std::string want = NormalizeVmName(*vm);
  auto hit = [&](const std::string& n) { return GlobMatch(*vm, n) || NormalizeVmName(n) == want; };
  for (size_t i : order_) {
    const VmEntry& e = entries_[i];
    if (hit(e.name) || std::any_of(e.guests.begin(), e.guests.end(), hit)) out.push_back(i);
  }
  return out;
}

}  // namespace vrecon
