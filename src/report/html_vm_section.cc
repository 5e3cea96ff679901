// One VM's section of the HTML report: summary line, utilization chart with w, ready / co-stop
// chart with threshold bands, flag timeline, processes as reported and corrected, hints.
#include <algorithm>
#include <map>
#include <set>

#include "src/core/text_util.h"
#include "src/report/html_report.h"
#include "src/report/svg_chart.h"

namespace vrecon::report {
namespace {

std::optional<double> PerVm(const std::optional<double>& pct_of_one_cpu, const std::optional<int>& vcpus) {
  if (!pct_of_one_cpu || !vcpus || *vcpus <= 0) return std::nullopt;
  return *pct_of_one_cpu / *vcpus;
}

// Processes an ETW trace measured (models/event_correction.h): seed 002's heater ratio (CPU over
// all the VM's CPUs) beside the bottleneck ratio (time at least one thread ran), which tells a
// process that spreads its work from one bound by a single thread; their CPU queue time; and
// Perfmon's figure beside the trace's where both saw the process.
void WriteEventTable(Sink& s, const VmReport& v, size_t top) {
  std::vector<const ProcessAggregate*> traced;
  for (const ProcessAggregate& p : v.processes)
    if (p.n_events > 0 && traced.size() < top) traced.push_back(&p);
  if (traced.empty()) return;
  s << "<h4>Heater vs bottleneck (ETW context switches)</h4><p class=\"meta\">Over the windows an ETW trace "
       "covers. Heater: the process's CPU over all the VM's CPUs (what Perfmon shows, divided by the vCPUs); "
       "bottleneck: the share of the time at least one of its threads ran. A bottleneck near 100% with a low "
       "heater is a process bound by one thread: more vCPUs will not help it. Queue: CPU queue time per "
       "switch-in. Perfmon vs events: the tick-sampled counter and the trace over the windows both cover.</p>";
  s << "<table class=\"events\"><tr><th>process</th><th>CPU (events, % of one CPU)</th><th>heater</th>"
       "<th>bottleneck</th><th>queue mean</th><th>queue p95</th><th>Perfmon</th><th>events</th><th>windows</th></tr>";
  for (const ProcessAggregate* p : traced) {
    s << "<tr><td>" << H(p->name) << "</td><td>" << Num(p->MeanGuest(), 1, "%") << "</td><td>"
      << Num(PerVm(p->MeanGuest(), v.vm.vcpus), 1, "%") << "</td><td>" << Num(p->MeanBottleneck(), 1, "%")
      << "</td><td>" << Num(p->MeanQueueMs(), 2, " ms") << "</td><td>" << Num(p->max_queue_p95, 2, " ms") << "</td><td>"
      << Num(p->MeanSampled(), 1, "%") << "</td><td>" << Num(p->MeanPairedEvents(), 1, "%") << "</td><td>"
      << std::to_string(p->n_events) << "</td></tr>";
  }
  s << "</table>\n";
}

// The summary line, what is missing, the VM's key, source, period and coverage, its clock offset.
void WriteVmHeader(Sink& s, size_t index, const VmReport& v, const HtmlOptions& opt) {
  const VmStats& st = v.stats;
  s << "<details class=\"vm\" id=\"" << VmAnchor(index) << "\"" << (index < opt.open_sections ? " open" : "")
    << "><summary><b>" << H(v.label) << "</b>";
  if (!v.vm.guest_machine.empty() && v.vm.guest_machine != v.vm.vm) s << " (guest " << H(v.vm.guest_machine) << ")";
  s << " &middot; guest " << Num(st.guest.value(), 1, "%");
  if (const std::optional<double> u = st.utility.value()) s << " (utility " << Num(u, 1, "%") << ")";
  s << " vs real " << Num(st.host.value(), 1, "%") << " &middot; w " << Num(st.w.value(), 2) << " &middot; ready "
    << Num(st.ready.value(), 2, "%/vCPU") << " &middot; " << std::to_string(st.windows) << " windows</summary>\n";
  if (!v.missing.empty()) s << "<p class=\"missing\">Missing: " << H(v.missing) << ".</p>\n";
  s << "<p class=\"meta\">VM key: <code>" << H(v.vm.vm_key) << "</code>; host-side source: " << H(v.vm.host_source)
    << (v.vm.host_counter.empty() ? std::string() : " (" + H(v.vm.host_counter) + ")")
    << "; vCPUs: " << (v.vm.vcpus ? std::to_string(*v.vm.vcpus) : std::string("unknown"));
  if (st.windows) s << "; period " << H(Iso(st.first)) << " to " << H(Iso(st.last)) << " UTC";
  if (auto z = opt.guest_zones.find(v.vm.guest_machine); z != opt.guest_zones.end())
    s << " (guest log time zone: " << H(z->second) << ")";
  s << "; data coverage: guest "
    << Num(st.guest_cov.value() ? std::optional<double>(100 * *st.guest_cov.value()) : std::nullopt, 0, "%")
    << ", host " << Num(st.host_cov.value() ? std::optional<double>(100 * *st.host_cov.value()) : std::nullopt, 0, "%")
    << ".</p>\n<p class=\"meta\">Estimated guest clock offset (guest minus host): ";
  if (auto c = st.clock_offset.value()) {
    s << Num(c, 3, " s") << " (mean over " << std::to_string(st.clock_offset.n) << " windows)";
  } else {
    s << "not estimated for this VM";
  }
  s << ".</p>\n";
}

// The utilization and ready / co-stop charts and the flag timeline over the VM's own span, one
// bucket per window up to opt.chart_buckets.
void WriteVmCharts(Sink& s, const VmReport& v, const std::vector<StoredWindow>& windows, const HtmlOptions& opt,
                   SvgDefs* defs) {
  const VmStats& st = v.stats;
  const TimeNs t0 = st.first, t1 = st.last;
  const TimeNs window = windows.empty() ? 0 : windows.front().end - windows.front().start;
  int n = opt.chart_buckets;
  if (window > 0) n = static_cast<int>(std::clamp<TimeNs>((t1 - t0 + window - 1) / window, 1, opt.chart_buckets));
  Buckets guest(t0, t1, n), host(t0, t1, n), w(t0, t1, n), ready(t0, t1, n), costop(t0, t1, n);
  std::map<int, std::map<Severity, std::set<std::string>>> marks;  // bucket -> codes by severity
  for (const StoredWindow& win : windows) {
    guest.Add(win.start, win.end, win.guest_util);
    host.Add(win.start, win.end, win.host_util);
    w.Add(win.start, win.end, win.w);
    ready.Add(win.start, win.end, win.ready);
    costop.Add(win.start, win.end, win.costop);
    if (!win.flags.empty()) {
      const int b = guest.Index(win.start, win.end);
      if (b >= 0)
        for (const StoredFlag& f : win.flags) marks[b][f.severity].insert(f.code);
    }
  }
  ChartSpec util;
  util.title = "CPU utilization of " + v.label + ": guest-reported vs host-measured, and w";
  util.y_label = "CPU utilization (% of the VM)";
  util.y2_label = "w (host / guest)";
  util.y_min_max = 10;
  util.series = {{"guest-reported %", "#1f77b4", &guest, false, false, false},
                 {"host-measured (real) %", "#d62728", &host, false, true, false},
                 {"w (right axis)", "#2e7d32", &w, true, false, true}};
  s << "<h4>Guest-reported vs real CPU</h4>" << RenderChart(util, t0, t1, defs) << "\n";
  ChartSpec rc;
  rc.title = "Ready and co-stop per vCPU of " + v.label;
  rc.y_label = "% of time, per vCPU";
  rc.series = {{"ready %/vCPU", "#e65100", &ready, false, true, false},
               {"co-stop %/vCPU", "#6a1b9a", &costop, false, false, false}};
  rc.bands = {{5, 10, "#ffe08a", "ready 5-10% (warn)", "#c99a00"},
              {10, 1e18, "#f6b0a8", "ready > 10% (critical)", "#c0392b"}};
  rc.lines = {{3, "co-stop 3% threshold"}};
  s << "<h4>Ready / co-stop per vCPU</h4>" << RenderChart(rc, t0, t1, defs) << "\n";
  std::vector<FlagMark> fm;
  for (const auto& [b, by_severity] : marks)
    for (const auto& [sev, codes_set] : by_severity) {
      std::string codes;
      for (const auto& c : codes_set) codes += (codes.empty() ? "" : ", ") + c;
      fm.push_back({b, sev, codes});
    }
  s << "<h4>Flags over time</h4>" << RenderFlagStrip(fm, n, t0, t1, defs) << "\n";
}

void WriteVmFlagTable(Sink& s, const VmStats& st) {
  if (st.flags.empty()) return;
  s << "<table><tr><th>flag</th><th>severity</th><th>windows</th><th>first (UTC)</th><th>last (UTC)</th></tr>";
  for (const auto& [code, f] : st.flags)
    s << "<tr><td>" << FlagLink(code) << "</td><td class=\"sev-" << SeverityName(f.severity) << "\">"
      << SeverityName(f.severity) << "</td><td>" << std::to_string(f.windows) << "</td><td>" << H(Iso(f.first))
      << "</td><td>" << H(Iso(f.last)) << "</td></tr>";
  s << "</table>\n";
}

void WriteVmProcessTable(Sink& s, const VmReport& v, const HtmlOptions& opt) {
  s << "<h4>Top processes (% of one CPU, mean over the period)</h4>";
  if (v.processes.empty()) {
    s << "<p class=\"missing\">No per-process data for this VM.</p>";
  } else {
    s << "<table><tr><th>process</th><th>as reported</th><th>corrected (real)</th><th>95% "
         "interval</th><th>windows</th></tr>";
    for (size_t k = 0; k < v.processes.size() && k < opt.top_processes; ++k) {
      const ProcessAggregate& p = v.processes[k];
      const auto c = p.MeanCorrected();
      const auto hw = p.HalfWidth95();
      s << "<tr><td>" << H(p.name) << "</td><td>" << Num(p.MeanGuest(), 1, "%") << "</td><td>" << Num(c, 1, "%")
        << "</td><td>";
      if (c && hw) {
        s << Num(*c - *hw, 1, "%") << " &ndash; " << Num(*c + *hw, 1, "%");
      } else {
        s << "n/a";
      }
      s << "</td><td>" << std::to_string(p.n_corr) << "</td></tr>";
    }
    s << "</table>\n";
  }
}

}  // namespace

void WriteVmSection(Sink& s, size_t index, const VmReport& v, const std::vector<StoredWindow>& windows,
                    const HtmlOptions& opt, SvgDefs* defs) {
  WriteVmHeader(s, index, v, opt);
  WriteVmCharts(s, v, windows, opt, defs);
  WriteVmFlagTable(s, v.stats);
  WriteVmProcessTable(s, v, opt);
  WriteEventTable(s, v, opt.top_processes);
  for (const StoredReady& rd : v.ready)
    for (const StoredFlag& h : rd.hints)
      s << "<p class=\"hint sev-" << SeverityName(h.severity) << "\">Hint (" << H(rd.source) << ") <code>" << H(h.code)
        << "</code>: " << H(h.message) << "</p>\n";
  s << "</details>\n";
}

}  // namespace vrecon::report
