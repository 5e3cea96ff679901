// `vrecon report --format html`: one self-contained page (inline CSS and SVG, no scripts, no
// network): the fleet page, one collapsible section per VM, and the flag explanations from
// docs/flags.md. Windows are streamed per VM, so memory holds one VM's chart buckets.
#ifndef VRECON_SRC_REPORT_HTML_REPORT_H_
#define VRECON_SRC_REPORT_HTML_REPORT_H_

#include <functional>
#include <map>
#include <ostream>
#include <string>

#include "src/report/report_data.h"
#include "src/report/report_model.h"
#include "src/report/svg_defs.h"

namespace vrecon::report {

struct HtmlOptions {
  // Guest machine (case as stored) -> the time zone its logs were written in, e.g.
  // "Eastern Standard Time (UTC-05:00)": noted next to the UTC times.
  std::map<std::string, std::string> guest_zones;
  size_t open_sections = 10;  // VM sections shown expanded; the rest start collapsed
  size_t ranking_rows = 20;   // rows per fleet ranking table
  int chart_buckets = 120;    // points per chart line at most
  size_t top_processes = 10;  // process rows per VM section
  // Above this many stored VMs, charts use large_fleet_buckets points: keeps a 1,000-VM week
  // under 10 MB (docs/performance.md).
  size_t large_fleet_vms = 200;
  int large_fleet_buckets = 48;
  size_t large_fleet_processes = 5;  // process rows per VM section (csv/json keep 10)
  // Where the fleet tables link a VM: unset, to its section in the page; `vrecon serve` links
  // to a page of that VM alone.
  std::function<std::string(const VmReport&)> vm_href;
  // The Capacity section's day digests, brought up to date, are stored; `vrecon serve`, which
  // only reads, leaves them.
  bool keep_capacity_digests = true;
};

// VM sections are rendered while the windows are read (one pass) and kept in memory until the
// fleet page, which needs every VM, has been written before them.
StatusOr<FleetReport> WriteHtmlReport(std::ostream& os, Store* store, const ReportRequest& req, const HtmlOptions& opt);

// One VM's section (html_vm_section.cc).
void WriteVmSection(Sink& s, size_t index, const VmReport& v, const std::vector<StoredWindow>& windows,
                    const HtmlOptions& opt, SvgDefs* defs = nullptr);

struct CapacityReport;
// The Capacity section (html_capacity_section.cc). `vm_links`: vm_key -> where a VM's name links
// (a VM without one is named only).
void WriteCapacitySection(Sink& s, const CapacityReport& c, const std::map<std::string, std::string>& vm_links,
                          const HtmlOptions& opt, SvgDefs* defs);
// A page of the Capacity section alone (`vrecon serve`'s /capacity), with the report's style.
StatusOr<CapacityReport> WriteCapacityPage(std::ostream& os, Store* store, const ReportRequest& req,
                                           const HtmlOptions& opt, const std::map<std::string, std::string>& vm_links);

// Helpers shared by the files of the HTML report.
std::string H(std::string_view text);  // HTML-escaped
std::string Num(const std::optional<double>& v, int decimals, std::string_view unit = "");
std::string VmAnchor(size_t index);
std::string FlagLink(const std::string& code);

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_HTML_REPORT_H_
