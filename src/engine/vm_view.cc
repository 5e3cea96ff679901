#include "src/engine/vm_view.h"

#include <algorithm>
#include <tuple>

#include "models/vm_identity.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {
namespace {

// The entities of `vm_keys`, nullopt when one is not a vSphere VM's with an entity.
std::optional<std::vector<std::string>> VsphereEntities(const std::set<std::string>& vm_keys) {
  constexpr std::string_view kPrefix = "vsphere:";
  std::vector<std::string> out;
  for (const std::string& key : vm_keys) {
    if (!key.starts_with(kPrefix) || key.find('/', kPrefix.size()) == std::string::npos) return std::nullopt;
    out.push_back(key.substr(kPrefix.size()));
  }
  return out;
}

StatusOr<VmViewPtr> WholeView(Store* store, const std::map<std::string, std::string>& mappings) {
  auto view = std::make_shared<VmView>();
  ASSIGN_OR_RETURN(view->series, FindSeries(store, SeriesFilter{}));
  ASSIGN_OR_RETURN(view->dir, VmDirectory::Build(store, view->series, mappings));
  return VmViewPtr(std::move(view));
}

// Adds the rows of `more` that `inventory` lacks, keeping VsphereVms' order.
void MergeInventory(std::vector<StoredVm>&& more, std::vector<StoredVm>* inventory) {
  std::set<std::pair<std::string, std::string>> have;
  for (const StoredVm& v : *inventory) have.emplace(v.vcenter, v.moid);
  for (StoredVm& v : more)
    if (!have.contains({v.vcenter, v.moid})) inventory->push_back(std::move(v));
  std::sort(inventory->begin(), inventory->end(), [](const StoredVm& a, const StoredVm& b) {
    return std::tie(a.name, a.entity) < std::tie(b.name, b.entity);
  });
}

}  // namespace

StatusOr<std::map<std::string, std::string>> MergedMappings(Store* store,
                                                            const std::map<std::string, std::string>& extra) {
  ASSIGN_OR_RETURN(auto mappings, store->Mappings());
  for (const auto& [g, v] : extra) {
    // The guest's name through an init-capture: clang before 16 cannot capture a structured binding.
    std::erase_if(mappings, [&, guest = models::NormalizeVmName(g)](const auto& m) {
      return models::NormalizeVmName(m.first) == guest;
    });
    mappings[g] = v;
  }
  return mappings;
}

StatusOr<VmViewPtr> ReadVmView(Store* store, const std::optional<std::set<std::string>>& vm_keys,
                               const std::map<std::string, std::string>& mappings) {
  const std::optional<std::vector<std::string>> entities = vm_keys ? VsphereEntities(*vm_keys) : std::nullopt;
  if (!entities) return WholeView(store, mappings);
  // Their names and guest.hostNames, and every mapped guest's (a mapping may name one of them).
  ASSIGN_OR_RETURN(std::set<std::string> names, NameKeysOf(store, *entities));
  for (const auto& [guest, vm] : mappings) names.insert(models::NormalizeVmName(guest));
  names.erase("");
  // The inventory under those names: namesakes elsewhere, VMs whose guest.hostName is one of them.
  ASSIGN_OR_RETURN(std::vector<StoredVm> inventory,
                   VsphereVmsNamed(store, std::vector<std::string>(names.begin(), names.end()), *entities));
  // A VM known to the inventory but with its data from elsewhere (esxtop) maps its guest.hostName
  // to its name, which may be one of theirs: those guests, and what else their names match.
  std::vector<std::string> more;
  for (const StoredVm& v : inventory) {
    std::string host = models::NormalizeVmName(v.guest_hostname);
    if (!host.empty() && names.insert(host).second) more.push_back(std::move(host));
  }
  if (!more.empty()) {
    ASSIGN_OR_RETURN(std::vector<StoredVm> also, VsphereVmsNamed(store, more, {}));
    MergeInventory(std::move(also), &inventory);
  }
  std::vector<std::string> with_entities = *entities;
  for (const StoredVm& v : inventory)
    if (!v.entity.empty()) with_entities.push_back(v.entity);
  std::sort(with_entities.begin(), with_entities.end());
  with_entities.erase(std::unique(with_entities.begin(), with_entities.end()), with_entities.end());
  const std::vector<std::string> keys(names.begin(), names.end());
  auto view = std::make_shared<VmView>();
  view->scoped = true;
  ASSIGN_OR_RETURN(view->series, SeriesNamed(store, keys, with_entities));
  ASSIGN_OR_RETURN(view->dir, VmDirectory::Build(store, view->series, mappings, &inventory));
  // A key that names no VM found so (a PowerCLI export's "vsphere:<name>" whose name holds a '/'):
  // the whole store, as before.
  if (view->dir.Select(std::nullopt, *vm_keys).size() < vm_keys->size()) return WholeView(store, mappings);
  return VmViewPtr(std::move(view));
}

GuestCpus GuestCpuInstances(const VmView& view) {
  GuestCpus out;
  for (const StoredSeries& s : view.series) {
    const SeriesKey& k = s.key;
    if (k.source == SourceKind::kGuest && k.object == "Processor" && k.counter == "% Processor Time" &&
        !k.instance.empty() && k.instance.find("_Total") == std::string::npos)
      out[view.dir.GuestId(k.machine)].insert(k.instance);
  }
  return out;
}

std::optional<int> VcpusOf(const VmEntry& e, size_t host_vcpu_instances, const GuestCpus& guest_cpus,
                           const VmDirectory& dir) {
  if (e.num_cpu > 0) return e.num_cpu;
  if (host_vcpu_instances > 0) return static_cast<int>(host_vcpu_instances);
  if (e.guests.empty()) return std::nullopt;
  auto g = guest_cpus.find(dir.GuestId(e.guests.front()));
  if (g == guest_cpus.end()) return std::nullopt;
  return static_cast<int>(g->second.size());
}

}  // namespace vrecon
