#include "src/report/capacity_report.h"

#include <algorithm>
#include <cstdlib>

namespace vrecon::report {
namespace {

constexpr int kNever = 1 << 30;

int DaysLeft(const CapacityEntity& e) { return e.time_remaining_days.value_or(kNever); }

}  // namespace

StatusOr<CapacityReport> BuildCapacityReport(Store* store, const ReportRequest& req, bool keep_digests) {
  CapacityReport r;
  CapacityRequest creq;
  creq.risk = r.risk;
  creq.buffer_pct = r.buffer_pct;
  creq.target_util_pct = r.target_util_pct;
  creq.as_of = req.to;
  creq.host_history = true;
  creq.keep_digests = keep_digests;
  if (req.vm) {
    // A report of some VMs answers for those VMs, not for the hosts they share with others.
    creq.scope = "vm";
    creq.names = {*req.vm};
  }
  StatusOr<std::vector<CapacityEntity>> entities = RunCapacity(store, creq);
  if (!entities.ok() && !entities.status().IsNotFound()) return entities.status();
  if (entities.ok()) r.entities = std::move(*entities);
  r.as_of = req.to;
  if (!r.as_of)
    for (const CapacityEntity& e : r.entities)
      if (e.as_of && (!r.as_of || *e.as_of > *r.as_of)) r.as_of = e.as_of;
  if (r.entities.empty())
    r.notes.push_back(req.vm ? "no VM matching " + *req.vm + " has host-side CPU data (vSphere, esxtop or Hyper-V)"
                             : "no host-side CPU data (vSphere, esxtop or Hyper-V) to forecast from");
  return r;
}

std::vector<const CapacityEntity*> HostsAndClusters(const CapacityReport& r) {
  std::vector<const CapacityEntity*> out;
  for (const CapacityEntity& e : r.entities)
    if (e.scope != "vm") out.push_back(&e);
  return out;  // the entities are worst first already
}

const models::Flag* ResizeHint(const CapacityEntity& e) {
  for (const models::Flag& f : e.flags)
    if (f.code == "fewer-vcpus" || f.code == "more-vcpus") return &f;
  return nullptr;
}

std::vector<const CapacityEntity*> VmsToResize(const CapacityReport& r) {
  std::vector<const CapacityEntity*> out;
  for (const CapacityEntity& e : r.entities)
    if (e.scope == "vm" && (ResizeHint(e) || e.time_remaining_days)) out.push_back(&e);
  auto off = [](const CapacityEntity* e) {
    return e->vcpus && e->recommended_vcpus ? std::abs(*e->vcpus - *e->recommended_vcpus) : 0;
  };
  std::stable_sort(out.begin(), out.end(), [&](const CapacityEntity* a, const CapacityEntity* b) {
    if (DaysLeft(*a) != DaysLeft(*b)) return DaysLeft(*a) < DaysLeft(*b);
    return off(a) > off(b);
  });
  return out;
}

std::vector<const CapacityEntity*> VmsWithGrowth(const CapacityReport& r) {
  std::vector<const CapacityEntity*> out;
  for (const CapacityEntity& e : r.entities)
    if (e.scope == "vm" && !e.growth_drivers.empty()) out.push_back(&e);
  return out;
}

}  // namespace vrecon::report
