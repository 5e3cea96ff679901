#include "src/engine/host_links.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "models/host_link.h"
#include "models/vm_identity.h"
#include "src/store/sample_reader.h"

namespace vrecon {
namespace {

using HostNames = std::map<std::pair<std::string, std::string>, std::string>;  // (vCenter, moid) -> name

// Host names compare short and case folded: esxtop's capture names "esx01", vCenter "esx01.corp".
bool SameHost(const std::string& a, const std::string& b) {
  return models::NormalizeVmName(a) == models::NormalizeVmName(b);
}

StatusOr<HostNames> ReadHostNames(Store* store, const std::vector<LinkSide>& vsphere) {
  HostNames out;
  const bool placed = std::any_of(vsphere.begin(), vsphere.end(),
                                  [](const LinkSide& v) { return v.inventory && !v.inventory->host_moid.empty(); });
  if (!placed) return out;
  ASSIGN_OR_RETURN(std::vector<StoredHost> hosts, VsphereHosts(store));
  for (StoredHost& h : hosts) out[{h.vcenter, h.moid}] = std::move(h.name);
  return out;
}

StatusOr<std::vector<models::TimedValue>> Samples(Store* store, const std::vector<int64_t>& ids) {
  std::vector<models::TimedValue> out;
  for (int64_t id : ids) {
    RETURN_IF_ERROR(ForEachSample(store, id, TimeRange{}, [&](TimeNs b, TimeNs e, double v) {
      if (!IsMissing(v)) out.push_back(models::TimedValue{b, e, v});
    }));
  }
  return out;
}

// The series compared: like with like where both sides have it (run against run, else used
// against usage), else across, a turbo factor apart.
struct Compared {
  const std::vector<int64_t>* esxtop;
  const std::vector<int64_t>* vsphere;
};
Compared Pick(const LinkSide& v, const LinkSide& e) {
  if (!e.run.empty() && !v.run.empty()) return {&e.run, &v.run};
  if (!e.used.empty() && !v.used.empty()) return {&e.used, &v.used};
  if (!e.run.empty() && !v.used.empty()) return {&e.run, &v.used};
  return {&e.used, &v.run};
}

StatusOr<models::SeriesAgreement> Agreement(Store* store, const LinkSide& v, const LinkSide& e) {
  const Compared c = Pick(v, e);
  if (c.esxtop->empty() || c.vsphere->empty()) return models::SeriesAgreement{};
  models::HostSeriesPair p;
  p.vsphere_per_vcpu = c.vsphere == &v.used;
  p.like_counters = (c.esxtop == &e.run) == (c.vsphere == &v.run);
  if (v.inventory && v.inventory->num_cpu > 0) p.vcpus = v.inventory->num_cpu;
  ASSIGN_OR_RETURN(p.esxtop, Samples(store, *c.esxtop));
  ASSIGN_OR_RETURN(p.vsphere, Samples(store, *c.vsphere));
  return models::CompareHostSeries(p);
}

// The one esxtop side on the host the inventory places `v` on, if exactly one is.
std::optional<size_t> ByPlacement(const LinkSide& v, const std::vector<const LinkSide*>& esxtop,
                                  const HostNames& hosts) {
  if (!v.inventory) return std::nullopt;
  auto host = hosts.find({v.inventory->vcenter, v.inventory->host_moid});
  if (host == hosts.end()) return std::nullopt;
  std::optional<size_t> found;
  for (size_t i = 0; i < esxtop.size(); ++i) {
    const std::vector<std::string>& on = esxtop[i]->hosts;
    if (std::none_of(on.begin(), on.end(), [&](const std::string& h) { return SameHost(h, host->second); })) continue;
    if (found) return std::nullopt;
    found = i;
  }
  return found;
}

// One name's sides: placement first, then series, each side linked at most once.
Status LinkName(Store* store, const std::vector<const LinkSide*>& vs, const std::vector<const LinkSide*>& es,
                const HostNames& hosts, std::vector<HostLink>* out) {
  std::set<size_t> used_v, used_e;
  for (size_t i = 0; i < vs.size(); ++i) {
    const std::optional<size_t> j = ByPlacement(*vs[i], es, hosts);
    if (!j || used_e.contains(*j)) continue;
    out->push_back(HostLink{vs[i]->entry, es[*j]->entry, "inventory"});
    used_v.insert(i);
    used_e.insert(*j);
  }
  std::vector<std::pair<size_t, size_t>> agree;
  for (size_t i = 0; i < vs.size(); ++i) {
    if (used_v.contains(i)) continue;
    for (size_t j = 0; j < es.size(); ++j) {
      if (used_e.contains(j)) continue;
      ASSIGN_OR_RETURN(models::SeriesAgreement a, Agreement(store, *vs[i], *es[j]));
      if (a.agree) agree.emplace_back(i, j);
    }
  }
  for (const std::pair<size_t, size_t>& a : agree) {
    const auto n_v = std::count_if(agree.begin(), agree.end(), [&](const auto& p) { return p.first == a.first; });
    const auto n_e = std::count_if(agree.begin(), agree.end(), [&](const auto& p) { return p.second == a.second; });
    if (n_v == 1 && n_e == 1) out->push_back(HostLink{vs[a.first]->entry, es[a.second]->entry, "series"});
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::vector<HostLink>> LinkHostEntries(Store* store, const std::vector<LinkSide>& vsphere,
                                                const std::vector<LinkSide>& esxtop) {
  std::vector<HostLink> out;
  std::map<std::string, std::pair<std::vector<const LinkSide*>, std::vector<const LinkSide*>>> by_name;
  for (const LinkSide& v : vsphere) by_name[v.name].first.push_back(&v);
  for (const LinkSide& e : esxtop) by_name[e.name].second.push_back(&e);
  std::erase_if(by_name, [](const auto& n) { return n.second.first.empty() || n.second.second.empty(); });
  if (by_name.empty()) return out;
  ASSIGN_OR_RETURN(HostNames hosts, ReadHostNames(store, vsphere));
  for (const auto& [name, sides] : by_name) RETURN_IF_ERROR(LinkName(store, sides.first, sides.second, hosts, &out));
  return out;
}

}  // namespace vrecon
