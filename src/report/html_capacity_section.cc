// The HTML report's Capacity section (docs/report.md, "Capacity"): hosts and clusters by time
// remaining, each with its forecast chart, the VMs to resize, and the processes that drive growth.
#include <algorithm>
#include <map>

#include "src/core/text_util.h"
#include "src/report/capacity_output.h"
#include "src/report/capacity_report.h"
#include "src/report/html_report.h"
#include "src/report/svg_chart.h"

namespace vrecon::report {
namespace {

constexpr size_t kCharts = 12;  // forecast charts at most: the worst hosts and clusters
constexpr size_t kResizeRows = 25;

// A VM's name, linked to its section when the report has one.
std::string VmCell(const CapacityEntity& e, const std::map<std::string, std::string>& href) {
  const std::string name = H(e.label.empty() ? e.name : e.label);
  auto it = href.find(e.key);
  return it == href.end() ? name : "<a href=\"" + H(it->second) + "\">" + name + "</a>";
}

// The chart's days after as_of: the horizon, shortened to what a reader needs to see (at least
// 90 days and as many as the history shows, or the crossing and a month past it) so that the
// history is not squeezed into a corner of a year.
int64_t ChartForecastDays(const CapacityEntity& e) {
  int64_t days = std::max<int64_t>(90, static_cast<int64_t>(e.history.size()));
  if (e.time_remaining_days) days = std::max<int64_t>(days, *e.time_remaining_days + 30);
  return std::min<int64_t>(days, static_cast<int64_t>(e.forecast.size()));
}

std::string ForecastChart(const CapacityEntity& e, int max_buckets, SvgDefs* defs) {
  constexpr int64_t kYear = 365;
  const int64_t ahead = ChartForecastDays(e);
  const int64_t first = e.history.empty() ? (e.forecast.empty() ? 0 : e.forecast.front().day)
                                          : std::max(e.history.front().day, e.history.back().day - kYear + 1);
  const int64_t last =
      ahead > 0 ? e.forecast[static_cast<size_t>(ahead - 1)].day : (e.history.empty() ? first : e.history.back().day);
  const TimeNs t0 = first * kNsPerDay, t1 = (last + 1) * kNsPerDay;
  const int n = static_cast<int>(std::clamp<int64_t>(last - first + 1, 1, max_buckets));
  Buckets demand(t0, t1, n), mid(t0, t1, n), band(t0, t1, n);
  for (const models::DailyDemand& d : e.history)
    if (d.day >= first) demand.Add(d.day * kNsPerDay, (d.day + 1) * kNsPerDay, d.cores);
  for (int64_t i = 0; i < ahead; ++i) {
    const models::ForecastDay& f = e.forecast[static_cast<size_t>(i)];
    const TimeNs s = f.day * kNsPerDay, end = s + kNsPerDay;
    mid.Add(s, end, f.mid);
    band.Add(s, end, f.lower);
    band.Add(s, end, f.upper);
  }
  ChartSpec spec;
  spec.title = "Daily p95 demand of " + (e.label.empty() ? e.name : e.label) + ", its forecast and usable capacity";
  spec.y_label = "CPU demand (cores)";
  spec.series = {{"daily p95 demand", "#1f77b4", &demand, false, false, false},
                 {"forecast", "#d62728", &mid, false, false, true},
                 {"90% band", "#d62728", &band, false, true, false, false}};
  if (e.usable_cores) {
    spec.lines = {{*e.usable_cores, "usable " + FormatFixed(*e.usable_cores, 1) + " cores"}};
    spec.y_min_max = *e.usable_cores * 1.05;  // the usable line always in view
  }
  return RenderChart(spec, t0, t1, defs);
}

void HostTable(Sink& s, const std::vector<const CapacityEntity*>& hosts) {
  s << "<h3>Hosts and clusters by time remaining</h3>";
  if (hosts.empty()) {
    s << "<p class=\"missing\">No host or cluster with capacity data.</p>";
    return;
  }
  s << "<table><tr><th>scope</th><th>name</th><th>source</th><th>capacity (cores)</th><th>usable</th><th>demand p95 "
       "(30 d)</th><th>days left</th><th>peak days left</th><th>room, next 3 d</th><th>history</th><th>model</th>"
       "<th>flags</th></tr>";
  for (const CapacityEntity* e : hosts)
    s << "<tr><td>" << H(e->scope) << "</td><td>" << H(e->label.empty() ? e->name : e->label) << "</td><td>"
      << H(e->source) << "</td><td class=\"n\">" << Num(e->capacity_cores, 1) << "</td><td class=\"n\">"
      << Num(e->usable_cores, 1) << "</td><td class=\"n\">" << Num(e->demand_p95_cores, 2) << "</td><td class=\"n\">"
      << CountText(e->time_remaining_days) << "</td><td class=\"n\">" << CountText(e->peak_time_remaining_days)
      << "</td><td class=\"n\">" << Num(e->capacity_remaining_pct, 0, "%") << "</td><td class=\"n\">"
      << std::to_string(e->history_days) << " d</td><td>" << H(e->model) << "</td><td>" << H(FlagCodes(e->flags, ", "))
      << "</td></tr>";
  s << "</table>";
}

void ResizeTable(Sink& s, const std::vector<const CapacityEntity*>& vms,
                 const std::map<std::string, std::string>& href) {
  s << "<h3>VMs to resize</h3>";
  if (vms.empty()) {
    s << "<p>No VM needs another size, and none runs out within the horizon.</p>";
    return;
  }
  s << "<table><tr><th>VM</th><th>host</th><th>vCPUs</th><th>recommended</th><th>demand p95 (30 d, cores)</th>"
       "<th>days left</th><th>why</th></tr>";
  for (size_t i = 0; i < vms.size() && i < kResizeRows; ++i) {
    const CapacityEntity& e = *vms[i];
    const models::Flag* hint = ResizeHint(e);
    s << "<tr><td>" << VmCell(e, href) << "</td><td>" << H(e.host) << "</td><td class=\"n\">" << CountText(e.vcpus)
      << "</td><td class=\"n\">" << CountText(e.recommended_vcpus) << "</td><td class=\"n\">"
      << Num(e.demand_p95_cores, 2) << "</td><td class=\"n\">" << CountText(e.time_remaining_days) << "</td><td>"
      << (hint ? "<code>" + H(hint->code) + "</code> " + H(hint->message)
               : std::string("its demand reaches its usable vCPUs within the horizon"))
      << "</td></tr>";
  }
  s << "</table>";
  if (vms.size() > kResizeRows)
    s << "<p class=\"note\">" << std::to_string(vms.size() - kResizeRows)
      << " more: <code>vrecon capacity --scope vm</code> lists every VM.</p>";
}

void GrowthTable(Sink& s, const std::vector<const CapacityEntity*>& vms,
                 const std::map<std::string, std::string>& href) {
  s << "<h3>Growth drivers</h3>";
  if (vms.empty()) {
    s << "<p>No VM that runs out within the horizon has stored per-process corrections to name its growth.</p>";
    return;
  }
  s << "<table><tr><th>VM</th><th>process</th><th>cores now</th><th>cores per 30 days</th></tr>";
  for (const CapacityEntity* e : vms)
    for (const GrowthDriver& g : e->growth_drivers)
      s << "<tr><td>" << VmCell(*e, href) << "</td><td>" << H(g.process) << "</td><td class=\"n\">"
        << FormatFixed(g.cores_now, 2) << "</td><td class=\"n\">" << FormatFixed(g.cores_per_30d, 3) << "</td></tr>";
  s << "</table>";
}

}  // namespace

void WriteCapacitySection(Sink& s, const CapacityReport& c, const std::map<std::string, std::string>& href,
                          const HtmlOptions& opt, SvgDefs* defs) {
  s << "<section id=\"capacity\"><h2>Capacity</h2><p class=\"meta\">As of "
    << (c.as_of ? H(Iso(*c.as_of)) : std::string("the end of the data")) << ". Demand is host-measured CPU in cores "
    << "(run + ready); a day's figure is its p95 of 5-minute demand. Usable = capacity less a "
    << FormatFixed(c.buffer_pct, 0) << "% buffer. Days left: until the forecast's "
    << (c.risk == models::Risk::kConservative ? "upper band (conservative)" : "middle (aggressive)")
    << " first exceeds usable; '-' when not within a year. Right sizes at " << FormatFixed(c.target_util_pct, 0)
    << "% target utilization. <code>vrecon capacity</code> answers with other settings.</p>";
  for (const std::string& n : c.notes) s << "<p class=\"note\">" << H(n) << ".</p>";
  const std::vector<const CapacityEntity*> hosts = HostsAndClusters(c);
  HostTable(s, hosts);
  for (size_t i = 0; i < hosts.size() && i < kCharts; ++i)
    s << "<h4>" << H(hosts[i]->scope) << " " << H(hosts[i]->label.empty() ? hosts[i]->name : hosts[i]->label) << "</h4>"
      << ForecastChart(*hosts[i], opt.chart_buckets, defs) << "\n";
  if (hosts.size() > kCharts)
    s << "<p class=\"note\">Charts for the " << std::to_string(kCharts) << " that run out first; "
      << "<code>vrecon capacity --format json</code> has every forecast.</p>";
  ResizeTable(s, VmsToResize(c), href);
  GrowthTable(s, VmsWithGrowth(c), href);
  s << "</section>\n";
}

}  // namespace vrecon::report
