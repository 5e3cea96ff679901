// `vrecon report --format json` (docs/report.md): per-VM objects streamed, then the fleet.
#include <string>

#include "src/report/capacity_output.h"
#include "src/report/capacity_report.h"
#include "src/report/output.h"
#include "src/report/report_data.h"

namespace vrecon::report {
namespace {

using D = std::optional<double>;

std::string J(const std::string& s) { return JsonString(s); }
std::string JN(const D& v) { return JsonNumber(v); }

std::string JsonFlags(const std::map<std::string, FlagStat>& flags) {
  std::string o = "[";
  for (const auto& [code, f] : flags) {
    o += (o.size() > 1 ? ", " : "") + std::string("{\"code\": ") + J(code) +
         ", \"severity\": " + JsonString(SeverityName(f.severity)) + ", \"windows\": " + std::to_string(f.windows) +
         ", \"first\": " + J(Iso(f.first)) + ", \"last\": " + J(Iso(f.last)) + ", \"message\": " + J(f.message) +
         ", \"explanation\": " + J("#flag-" + code) + "}";
  }
  return o + "]";
}

std::string JsonRanking(const FleetReport& r, const std::vector<size_t>& idx) {
  std::string o = "[";
  for (size_t i : idx) o += (o.size() > 1 ? ", " : "") + J(r.vms[i].vm.vm);
  return o + "]";
}

}  // namespace

StatusOr<FleetReport> WriteReportJson(std::ostream& os, Store* store, const ReportRequest& req) {
  ASSIGN_OR_RETURN(const CapacityReport capacity, BuildCapacityReport(store, req));
  Sink s(os);
  s << "{\"vms\": [";
  auto visit = [&](size_t i, const VmReport& v, const std::vector<StoredWindow>& windows) -> Status {
    const VmStats& st = v.stats;
    s << (i ? ",\n  " : "\n  ") << "{\"vm\": " << J(v.vm.vm)
      << ", \"guest_machine\": " << (v.vm.guest_machine.empty() ? "null" : J(v.vm.guest_machine))
      << ", \"host_source\": " << J(v.vm.host_source)
      << ", \"vcpus\": " << (v.vm.vcpus ? std::to_string(*v.vm.vcpus) : "null")
      << ", \"missing\": " << (v.missing.empty() ? "null" : J(v.missing))
      << ",\n   \"summary\": {\"windows\": " << std::to_string(st.windows)
      << ", \"with_w\": " << std::to_string(st.with_w) << ", \"first\": " << (st.windows ? J(Iso(st.first)) : "null")
      << ", \"last\": " << (st.windows ? J(Iso(st.last)) : "null") << ", \"guest_util_pct\": " << JN(st.guest.value())
      << ", \"host_util_pct\": " << JN(st.host.value()) << ", \"gap_pct\": " << JN(st.gap.value())
      << ", \"w\": " << JN(st.w.value()) << ", \"steal_pct\": " << JN(st.steal.value())
      << ", \"ready_pct_per_vcpu\": " << JN(st.ready.value()) << ", \"ready_max\": " << JN(st.max_ready)
      << ", \"costop_pct_per_vcpu\": " << JN(st.costop.value()) << ", \"costop_max\": " << JN(st.max_costop)
      << ", \"clock_offset_s\": " << JN(st.clock_offset.value()) << ", \"guest_coverage\": " << JN(st.guest_cov.value())
      << ", \"host_coverage\": " << JN(st.host_cov.value()) << ", \"guest_utility_pct\": " << JN(st.utility.value())
      << "},\n   \"processes\": [";
    for (size_t j = 0; j < v.processes.size(); ++j) {
      const ProcessAggregate& p = v.processes[j];
      const D c = p.MeanCorrected(), hw = p.HalfWidth95();
      s << (j ? ", " : "") << "{\"name\": " << J(p.name) << ", \"windows\": " << std::to_string(p.n_corr)
        << ", \"guest_pct\": " << JN(p.MeanGuest()) << ", \"corrected_pct\": " << JN(c)
        << ", \"ci_lo\": " << JN(c && hw ? D(*c - *hw) : std::nullopt)
        << ", \"ci_hi\": " << JN(c && hw ? D(*c + *hw) : std::nullopt) << ", \"basis\": " << JsonString(p.Basis())
        << ", \"event_windows\": " << std::to_string(p.n_events) << ", \"bottleneck_pct\": " << JN(p.MeanBottleneck())
        << ", \"queue_ms_mean\": " << JN(p.MeanQueueMs()) << ", \"queue_ms_p95\": " << JN(p.max_queue_p95)
        << ", \"sampled_pct\": " << JN(p.MeanSampled()) << ", \"events_pct\": " << JN(p.MeanPairedEvents()) << "}";
    }
    s << "],\n   \"flags\": " << JsonFlags(st.flags) << ",\n   \"ready\": [";
    for (size_t j = 0; j < v.ready.size(); ++j) {
      const StoredReady& rd = v.ready[j];
      s << (j ? ", " : "") << "{\"source\": " << J(rd.source)
        << ", \"host\": " << (rd.host.empty() ? "null" : J(rd.host)) << ", \"samples\": " << std::to_string(rd.samples)
        << ", \"ready_mean\": " << JN(rd.ready_mean) << ", \"ready_p95\": " << JN(rd.ready_p95)
        << ", \"costop_mean\": " << JN(rd.costop_mean) << ", \"costop_p95\": " << JN(rd.costop_p95)
        << ", \"host_load_p95\": " << JN(rd.host_load_p95) << ", \"hints\": [";
      for (size_t k = 0; k < rd.hints.size(); ++k)
        s << (k ? ", " : "") << "{\"code\": " << J(rd.hints[k].code)
          << ", \"severity\": " << JsonString(SeverityName(rd.hints[k].severity))
          << ", \"message\": " << J(rd.hints[k].message) << "}";
      s << "]}";
    }
    s << "],\n   \"windows\": [";
    bool first = true;
    for (const StoredWindow& w : windows) {
      s << (first ? "\n    " : ",\n    ") << "{\"start\": " << J(Iso(w.start)) << ", \"end\": " << J(Iso(w.end))
        << ", \"vcpus\": " << (w.vcpus ? std::to_string(*w.vcpus) : "null")
        << ", \"guest_util_pct\": " << JN(w.guest_util) << ", \"host_util_pct\": " << JN(w.host_util)
        << ", \"w\": " << JN(w.w) << ", \"steal_pct\": " << JN(w.steal) << ", \"ready_pct_per_vcpu\": " << JN(w.ready)
        << ", \"costop_pct_per_vcpu\": " << JN(w.costop) << ", \"clock_offset_s\": " << JN(w.clock_offset_s)
        << ", \"guest_coverage\": " << JN(w.guest_cov) << ", \"host_coverage\": " << JN(w.host_cov) << ", \"flags\": [";
      for (size_t k = 0; k < w.flags.size(); ++k) s << (k ? ", " : "") << J(w.flags[k].code);
      s << "], \"guest_utility_pct\": " << JN(w.guest_utility) << "}";
      first = false;
    }
    s << "],\n   \"vm_key\": " << J(v.vm.vm_key) << ", \"vm_source\": " << J(v.vm.vm_source)
      << ", \"host_counter\": " << J(v.vm.host_counter) << "}";
    return Status::Ok();
  };
  ASSIGN_OR_RETURN(FleetReport r, BuildFleetReport(store, req, visit));
  s << (r.vms.empty() ? "]," : "\n],");
  s << "\n \"db\": " << J(r.db) << ",\n \"from\": " << (r.from ? J(Iso(*r.from)) : "null")
    << ", \"to\": " << (r.to ? J(Iso(*r.to)) : "null")
    << ",\n \"period\": {\"first\": " << (r.windows ? J(Iso(r.first)) : "null")
    << ", \"last\": " << (r.windows ? J(Iso(r.last)) : "null")
    << "},\n \"coverage\": {\"windows\": " << std::to_string(r.windows) << ", \"with_w\": " << std::to_string(r.with_w)
    << ", \"with_guest\": " << std::to_string(r.with_guest) << ", \"with_host\": " << std::to_string(r.with_host)
    << "},\n \"notes\": [";
  for (size_t i = 0; i < r.notes.size(); ++i) s << (i ? ", " : "") << J(r.notes[i]);
  s << "],\n \"flags\": " << JsonFlags(r.flags) << ",\n \"hosts\": [";
  for (size_t i = 0; i < r.hosts.size(); ++i) {
    const HostLoad& h = r.hosts[i];
    s << (i ? ", " : "") << "{\"host\": " << J(h.host) << ", \"vms\": " << std::to_string(h.vms)
      << ", \"load_mean_pct\": " << JN(h.load_mean) << ", \"load_p95_pct\": " << JN(h.load_p95) << "}";
  }
  s << "],\n \"rankings\": {\"gap\": " << JsonRanking(r, RankByGap(r))
    << ", \"ready\": " << JsonRanking(r, RankByReady(r)) << ", \"costop\": " << JsonRanking(r, RankByCostop(r))
    << "},\n \"capacity\": ";
  s.Flush();
  // `vrecon capacity --format json`'s object, with the report's settings.
  WriteCapacityJson(os, {capacity.as_of, capacity.risk, capacity.buffer_pct}, capacity.entities);
  os << "}\n";
  if (!os) return Status::IOError("could not write the JSON report");
  return r;
}

}  // namespace vrecon::report
