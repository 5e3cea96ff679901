#include "src/report/html_report.h"

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "src/core/text_util.h"
#include "src/report/capacity_report.h"
#include "src/report/flags_doc.h"
#include "src/report/svg_chart.h"

namespace vrecon::report {
namespace {

constexpr const char* kCss = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px 40px;color:#222}
h1{font-size:22px;margin:18px 0 4px}h2{font-size:18px;border-bottom:1px solid #ccc;padding-top:10px}h3{font-size:15px}h4{font-size:13px;margin:14px 0 2px;color:#444}
table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}
.meta,.note{color:#555}.missing{color:#a33;font-weight:600}.sev-error{color:#c62828}.sev-warning{color:#b26a00}.sev-info{color:#1565c0}
details.vm{border:1px solid #ccc;border-radius:4px;margin:8px 0;padding:4px 10px}details.vm>summary{cursor:pointer;padding:4px 0}
svg.chart{width:100%;max-width:760px;height:auto;display:block}svg .empty{font-size:13px;fill:#a33}
svg .line{fill:none;stroke-width:1.6}svg .dash{stroke-dasharray:5 3}svg .env{opacity:.18}svg .thr{stroke:#555;stroke-dasharray:4 3}
.grid2{display:flex;flex-wrap:wrap;gap:18px}.grid2>div{flex:1 1 320px}
.flagdoc{border-left:3px solid #ccc;padding:2px 10px;margin:8px 0}
@media print{details::details-content{content-visibility:visible}body{max-width:none;font-size:11px}details.vm{break-inside:avoid}nav{display:none}}
)css";

std::string Pct(int64_t a, int64_t b) {
  return b ? FormatFixed(100.0 * static_cast<double>(a) / static_cast<double>(b), 1) + "%" : "n/a";
}

// Where a VM's name links: its section below, or what the page's server makes of it.
std::string VmHref(const HtmlOptions& opt, const FleetReport& r, size_t i) {
  return opt.vm_href ? opt.vm_href(r.vms[i]) : "#" + VmAnchor(i);
}

void RankTable(Sink& s, const FleetReport& r, const HtmlOptions& opt, const std::vector<size_t>& idx, size_t rows,
               const char* title, const char* value_head, const std::function<std::string(const VmReport&)>& value) {
  s << "<div><h3>" << title << "</h3>";
  if (idx.empty()) {
    s << "<p class=\"missing\">No VM has the data for this ranking.</p></div>";
    return;
  }
  s << "<table><tr><th>#</th><th>VM</th><th>" << value_head << "</th></tr>";
  for (size_t k = 0; k < idx.size() && k < rows; ++k)
    s << "<tr><td class=\"n\">" << std::to_string(k + 1) << "</td><td><a href=\"" << H(VmHref(opt, r, idx[k])) << "\">"
      << H(r.vms[idx[k]].label) << "</a></td><td class=\"n\">" << value(r.vms[idx[k]]) << "</td></tr>";
  s << "</table>";
  if (idx.size() > rows)
    s << "<p class=\"note\">" << std::to_string(idx.size() - rows) << " more in the VM sections below.</p>";
  s << "</div>";
}

void FleetPage(Sink& s, const FleetReport& r, const HtmlOptions& opt) {
  s << "<section id=\"fleet\"><h2>Fleet</h2>";
  for (const std::string& n : r.notes) s << "<p class=\"missing\">" << H(n) << ".</p>";
  s << "<table><tr><th>period (UTC)</th><td>"
    << (r.windows ? H(Iso(r.first)) + " to " + H(Iso(r.last)) : std::string("no data"))
    << "</td></tr><tr><th>VMs</th><td>" << std::to_string(r.vms.size()) << "</td></tr><tr><th>windows</th><td>"
    << std::to_string(r.windows) << "</td></tr><tr><th>windows with guest data</th><td>" << Pct(r.with_guest, r.windows)
    << "</td></tr><tr><th>windows with host data</th><td>" << Pct(r.with_host, r.windows)
    << "</td></tr><tr><th>windows with w (both sides, usable)</th><td>" << Pct(r.with_w, r.windows)
    << "</td></tr></table>";
  s << "<div class=\"grid2\">";
  RankTable(s, r, opt, RankByGap(r), opt.ranking_rows, "Gap between guest-reported and real CPU",
            "real - guest (points), w",
            [](const VmReport& v) { return Num(v.stats.gap.value(), 1, " pt") + ", w " + Num(v.stats.w.value(), 2); });
  RankTable(s, r, opt, RankByReady(r), opt.ranking_rows, "Ready time", "mean / max, % per vCPU", [](const VmReport& v) {
    return Num(v.stats.ready.value(), 2, "%") + " / " + Num(v.stats.max_ready, 1, "%");
  });
  RankTable(s, r, opt, RankByCostop(r), opt.ranking_rows, "Co-stop", "mean / max, % per vCPU", [](const VmReport& v) {
    return Num(v.stats.costop.value(), 2, "%") + " / " + Num(v.stats.max_costop, 1, "%");
  });
  s << "<div><h3>Hosts by load</h3>";
  if (r.hosts.empty()) {
    s << "<p class=\"missing\">No host load data.</p>";
  } else {
    s << "<table><tr><th>host</th><th>VMs</th><th>load mean</th><th>load p95</th></tr>";
    for (const HostLoad& h : r.hosts)
      s << "<tr><td>" << H(h.host) << "</td><td class=\"n\">" << std::to_string(h.vms) << "</td><td class=\"n\">"
        << Num(h.load_mean, 1, "%") << "</td><td class=\"n\">" << Num(h.load_p95, 1, "%") << "</td></tr>";
    s << "</table>";
  }
  s << "</div></div>";
  s << "<h3>Flags by kind</h3>";
  if (r.flags.empty()) {
    s << "<p>No window raised a flag.</p>";
  } else {
    s << "<table><tr><th>flag</th><th>severity</th><th>windows</th><th>first (UTC)</th><th>last (UTC)</th></tr>";
    for (const auto& [code, f] : r.flags)
      s << "<tr><td>" << FlagLink(code) << "</td><td class=\"sev-" << SeverityName(f.severity) << "\">"
        << SeverityName(f.severity) << "</td><td class=\"n\">" << std::to_string(f.windows) << "</td><td>"
        << H(Iso(f.first)) << "</td><td>" << H(Iso(f.last)) << "</td></tr>";
    s << "</table>";
  }
  s << "<h3>Right-sizing hints</h3>";
  size_t hints = 0;
  for (size_t i = 0; i < r.vms.size(); ++i)
    for (const StoredReady& rd : r.vms[i].ready)
      for (const StoredFlag& h : rd.hints) {
        if (hints++ == 0) s << "<table><tr><th>VM</th><th>hint</th><th>severity</th><th>what to change</th></tr>";
        s << "<tr><td><a href=\"" << H(VmHref(opt, r, i)) << "\">" << H(r.vms[i].label) << "</a></td><td><code>"
          << H(h.code) << "</code></td><td class=\"sev-" << SeverityName(h.severity) << "\">"
          << SeverityName(h.severity) << "</td><td>" << H(h.message) << "</td></tr>";
      }
  s << (hints ? "</table>" : "<p>No hints: no VM crossed the Ready-Time thresholds.</p>") << "</section>\n";
}

void FlagExplanations(Sink& s, const FleetReport& r) {
  s << "<section id=\"flags\"><h2>Flags explained</h2><p class=\"note\">From docs/flags.md of this vrecon build.</p>";
  std::set<std::string> documented;
  for (const FlagDoc& d : ParseFlagDocs(FlagsMarkdown())) {
    documented.insert(d.code);
    s << "<div class=\"flagdoc\" id=\"flag-" << H(d.code) << "\"><h3><code>" << H(d.code)
      << "</code> <span class=\"sev-" << H(d.severity) << "\">" << H(d.severity) << "</span></h3><p><b>When:</b> "
      << InlineMarkdownToHtml(d.when) << "</p><p><b>What happens:</b> " << InlineMarkdownToHtml(d.what) << "</p></div>";
  }
  for (const auto& [code, f] : r.flags)
    if (!documented.contains(code))
      s << "<div class=\"flagdoc\" id=\"flag-" << H(code) << "\"><h3><code>" << H(code)
        << "</code></h3><p>Not described in docs/flags.md of this build. Example: " << H(f.message) << "</p></div>";
  for (const auto& [title, text] : ParseFlagNotes(FlagsMarkdown()))
    s << "<h3>" << H(title) << "</h3><p>" << InlineMarkdownToHtml(text) << "</p>";
  s << "</section>\n";
}

}  // namespace

std::string H(std::string_view text) { return XmlEscape(text); }
std::string Num(const std::optional<double>& v, int decimals, std::string_view unit) {
  if (!v || !std::isfinite(*v)) return "n/a";
  return FormatFixed(*v, decimals) + std::string(unit);
}
std::string VmAnchor(size_t index) { return "vm-" + std::to_string(index); }
std::string FlagLink(const std::string& code) {
  return "<a href=\"#flag-" + H(code) + "\"><code>" + H(code) + "</code></a>";
}

StatusOr<FleetReport> WriteHtmlReport(std::ostream& os, Store* store, const ReportRequest& req,
                                      const HtmlOptions& options) {
  HtmlOptions opt = options;
  ASSIGN_OR_RETURN(std::vector<CorrVm> stored, ListCorrVms(store));
  if (stored.size() > opt.large_fleet_vms && !req.vm) {
    opt.chart_buckets = std::min(opt.chart_buckets, opt.large_fleet_buckets);
    opt.top_processes = std::min(opt.top_processes, opt.large_fleet_processes);
  }
  std::ostringstream sections_text;
  SvgDefs defs;
  StatusOr<FleetReport> fleet = [&]() {
    Sink sections(sections_text);
    return BuildFleetReport(store, req, [&](size_t i, const VmReport& v, const std::vector<StoredWindow>& windows) {
      WriteVmSection(sections, i, v, windows, opt, &defs);
      return Status::Ok();
    });
  }();
  if (!fleet.ok()) return fleet.status();
  const FleetReport& r = *fleet;
  ASSIGN_OR_RETURN(const CapacityReport capacity, BuildCapacityReport(store, req, opt.keep_capacity_digests));
  std::map<std::string, std::string> vm_links;
  for (size_t i = 0; i < r.vms.size(); ++i) vm_links[r.vms[i].vm.vm_key] = VmHref(opt, r, i);
  std::ostringstream capacity_text;
  {
    Sink cs(capacity_text);
    WriteCapacitySection(cs, capacity, vm_links, opt, &defs);
  }
  Sink s(os);
  s << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
       "content=\"width=device-width, initial-scale=1\"><title>vrecon CPU capacity report</title><style>"
    << kCss << "</style></head><body>\n<h1>CPU capacity report</h1><p class=\"meta\">Store " << H(r.db);
  if (r.from || r.to)
    s << "; asked for " << (r.from ? H(Iso(*r.from)) : std::string("the start")) << " to "
      << (r.to ? H(Iso(*r.to)) : std::string("the end"));
  s << ". All times are UTC";
  // Zone name as the log gave it -> the guests that wrote in it (two logs may name UTC differently).
  std::map<std::string, std::vector<std::string>> zones;
  for (const auto& [guest, zone] : opt.guest_zones) zones[zone].push_back(guest);
  if (!zones.empty()) {
    s << "; guest logs were written in local time ";
    bool first = true;
    for (const auto& [zone, guests] : zones) {
      s << (first ? "" : "; ") << H(zone) << " (";
      for (size_t i = 0; i < guests.size() && i < 3; ++i) s << (i ? ", " : "") << H(guests[i]);
      if (guests.size() > 3) s << " and " << std::to_string(guests.size() - 3) << " more";
      s << ")";
      first = false;
    }
  }
  s << ". CPU figures are % of the VM's vCPUs (utilization) or % of one CPU (processes). w = host-measured / "
       "guest-reported CPU.</p>\n<nav><a href=\"#capacity\">Capacity</a> &middot; <a href=\"#fleet\">Fleet</a> "
       "&middot; <a href=\"#vms\">VMs</a> &middot; <a href=\"#flags\">Flags explained</a></nav>\n";
  // The charts' shared parts first: the capacity section and the VM sections draw with them.
  s << defs.Block() << capacity_text.view();
  FleetPage(s, r, opt);
  s << "<section id=\"vms\"><h2>VMs</h2>";
  if (r.vms.empty()) s << "<p class=\"missing\">No VM in the stored corrections.</p>";
  if (r.vms.size() > opt.open_sections)
    s << "<p class=\"note\">The first " << std::to_string(opt.open_sections)
      << " sections are open; click a VM's line to open the others.</p>";
  s << sections_text.view();
  s << "</section>\n";
  FlagExplanations(s, r);
  s << "</body></html>\n";
  s.Flush();
  if (!s.ok()) return Status::IOError("could not write the HTML report");
  return fleet;
}

StatusOr<CapacityReport> WriteCapacityPage(std::ostream& os, Store* store, const ReportRequest& req,
                                           const HtmlOptions& opt, const std::map<std::string, std::string>& vm_links) {
  ASSIGN_OR_RETURN(CapacityReport capacity, BuildCapacityReport(store, req, opt.keep_capacity_digests));
  std::ostringstream section;
  SvgDefs defs;
  {
    Sink cs(section);
    WriteCapacitySection(cs, capacity, vm_links, opt, &defs);
  }
  Sink s(os);
  s << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
       "content=\"width=device-width, initial-scale=1\"><title>vrecon capacity</title><style>"
    << kCss << "</style></head><body>\n<h1>Capacity</h1><p class=\"meta\">Store " << H(store->label())
    << ". All times are UTC.</p>\n<nav><a href=\"/\">The whole report</a></nav>\n"
    << defs.Block() << section.view() << "</body></html>\n";
  s.Flush();
  if (!s.ok()) return Status::IOError("could not write the capacity page");
  return capacity;
}

}  // namespace vrecon::report
