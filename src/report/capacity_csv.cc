// The report CSV's capacity rows and the markdown summary's capacity lines (docs/report.md).
#include "src/core/text_util.h"
#include "src/report/capacity_output.h"
#include "src/report/csv_row.h"

namespace vrecon::report {

void WriteCapacityRows(Sink& s, const CapacityReport& c) {
  for (const CapacityEntity& e : c.entities) {
    Row row;
    row.record = "capacity";
    row.vm = e.name;
    row.item = e.scope;
    row.source = e.source;
    if (e.as_of) row.start = Iso(*e.as_of);
    row.count = std::to_string(e.history_days);
    row.vcpus = OptInt(e.vcpus);
    row.flags = FlagCodes(e.flags);
    row.message = e.model;
    row.vm_key = e.key;
    row.host_counter = e.demand_counter;
    row.capacity = e.capacity_cores;
    row.usable = e.usable_cores;
    row.demand_p95 = e.demand_p95_cores;
    row.days_left = AsNumber(e.time_remaining_days);
    row.peak_days_left = AsNumber(e.peak_time_remaining_days);
    row.room = e.capacity_remaining_pct;
    row.recommended = AsNumber(e.recommended_vcpus);
    row.Write(s);
  }
  for (const CapacityEntity& e : c.entities)
    for (const models::ForecastDay& d : e.forecast) {
      Row row;
      row.record = "forecast";
      row.vm = e.name;
      row.item = e.scope;
      row.start = Iso(d.day * kNsPerDay);
      row.vm_key = e.key;
      row.lower = d.lower;
      row.mid = d.mid;
      row.upper = d.upper;
      row.Write(s);
    }
  for (const CapacityEntity& e : c.entities)
    for (const GrowthDriver& g : e.growth_drivers) {
      Row row;
      row.record = "growth";
      row.vm = e.name;
      row.item = g.process;
      row.vm_key = e.key;
      row.cores_now = g.cores_now;
      row.per_30d = g.cores_per_30d;
      row.Write(s);
    }
}

void WriteCapacityMarkdown(std::ostream& os, const CapacityReport& c) {
  constexpr size_t kLines = 5;
  auto days = [](const std::optional<int>& d) { return d ? std::to_string(*d) + " days left" : "no crossing"; };
  auto fx = [](const D& v, int decimals) { return v ? FormatFixed(*v, decimals) : std::string("n/a"); };
  os << "**Capacity** (as of " << (c.as_of ? Iso(*c.as_of) : std::string("the end of the data")) << "; conservative, "
     << FormatFixed(c.buffer_pct, 0) << "% buffer)\n\n";
  const std::vector<const CapacityEntity*> hosts = HostsAndClusters(c);
  for (size_t k = 0; k < hosts.size() && k < kLines; ++k) {
    const CapacityEntity& e = *hosts[k];
    os << "- " << e.scope << " " << (e.label.empty() ? e.name : e.label) << ": " << days(e.time_remaining_days)
       << ", demand p95 " << fx(e.demand_p95_cores, 2) << " of " << fx(e.usable_cores, 2) << " usable cores\n";
  }
  const std::vector<const CapacityEntity*> resize = VmsToResize(c);
  if (!resize.empty()) os << "- VMs to resize: " << resize.size() << "\n";
  for (size_t k = 0; k < resize.size() && k < kLines; ++k) {
    const CapacityEntity& e = *resize[k];
    const models::Flag* hint = ResizeHint(e);
    os << "  - " << (e.label.empty() ? e.name : e.label) << ": " << OptInt(e.vcpus) << " -> "
       << OptInt(e.recommended_vcpus) << " vCPUs, " << days(e.time_remaining_days)
       << (hint ? " (" + hint->code + ")" : std::string()) << "\n";
  }
  for (const CapacityEntity* e : VmsWithGrowth(c))
    for (const GrowthDriver& g : e->growth_drivers)
      os << "- Growth: " << (e->label.empty() ? e->name : e->label) << " " << g.process << " +"
         << FormatFixed(g.cores_per_30d, 2) << " cores per 30 days (now " << FormatFixed(g.cores_now, 2) << ")\n";
  for (const std::string& n : c.notes) os << "- Note: " << n << "\n";
  os << "\n";
}

}  // namespace vrecon::report
