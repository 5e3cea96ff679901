#include "src/serve/metrics_text.h"

#include <map>
#include <optional>
#include <utility>

#include "src/serve/exposition.h"

namespace vrecon::serve {
namespace {

constexpr double kSecondsPerNs = 1e-9;

struct VmGauge {
  const char* name;
  const char* help;
  std::optional<double> (*value)(const VmMetrics&);
};

std::optional<double> Opt(const std::optional<int>& v) {
  if (!v) return std::nullopt;
  return static_cast<double>(*v);
}

// The window's figures, as `vrecon correct` shows them (docs/cli.md).
constexpr VmGauge kVmGauges[] = {
    {"vrecon_vm_window_start_timestamp_seconds", "Start of the VM's latest complete window (Unix time).",
     [](const VmMetrics& m) -> std::optional<double> { return static_cast<double>(m.window.start) * kSecondsPerNs; }},
    {"vrecon_vm_window_duration_seconds", "Length of the VM's latest complete window.",
     [](const VmMetrics& m) -> std::optional<double> {
       return static_cast<double>(m.window.end - m.window.start) * kSecondsPerNs;
     }},
    {"vrecon_vm_vcpus", "The VM's vCPUs in the window.", [](const VmMetrics& m) { return Opt(m.window.vcpus); }},
    {"vrecon_vm_guest_cpu_percent", "CPU the guest reported (% Processor Time), 0-100 of the VM's capacity.",
     [](const VmMetrics& m) { return m.window.guest_util; }},
    {"vrecon_vm_host_cpu_percent", "CPU the hypervisor measured for the VM, 0-100 of the VM's capacity.",
     [](const VmMetrics& m) { return m.window.host_util; }},
    {"vrecon_vm_w_ratio", "w = host-measured CPU / guest-reported CPU: the factor applied to each process.",
     [](const VmMetrics& m) { return m.window.w; }},
    {"vrecon_vm_ready_per_vcpu_percent", "Ready Time per vCPU, percent of the window.",
     [](const VmMetrics& m) { return m.window.ready; }},
    {"vrecon_vm_costop_per_vcpu_percent", "Co-stop per vCPU, percent of the window.",
     [](const VmMetrics& m) { return m.window.costop; }},
    {"vrecon_vm_steal_percent", "Steal time the Linux guest reported, percent.",
     [](const VmMetrics& m) { return m.window.steal; }},
    {"vrecon_vm_clock_offset_seconds", "Estimated guest clock minus host clock.",
     [](const VmMetrics& m) { return m.window.clock_offset_s; }},
    {"vrecon_vm_guest_coverage_ratio", "Share of the window the guest's samples cover.",
     [](const VmMetrics& m) -> std::optional<double> { return m.window.guest_cov; }},
    {"vrecon_vm_host_coverage_ratio", "Share of the window the host's samples cover.",
     [](const VmMetrics& m) -> std::optional<double> { return m.window.host_cov; }},
};

void VmInfo(const MetricsSnapshot& s, Exposition* e) {
  e->Family("vrecon_vm_info", "gauge", "1 for each VM with a complete window; labels say where its data comes from.");
  for (const VmMetrics& m : s.vms) {
    e->Sample({{"vm", m.vm.vm},
               {"vm_key", m.vm.vm_key},
               {"vm_source", m.vm.vm_source},
               {"guest_machine", m.vm.guest_machine},
               {"host_source", m.vm.host_source},
               {"host_counter", m.vm.host_counter}},
              1);
  }
}

void VmGauges(const MetricsSnapshot& s, Exposition* e) {
  for (const VmGauge& g : kVmGauges) {
    e->Family(g.name, "gauge", g.help);
    for (const VmMetrics& m : s.vms) {
      if (const std::optional<double> v = g.value(m)) e->Sample({{"vm", m.vm.vm}, {"vm_key", m.vm.vm_key}}, *v);
    }
  }
}

void DispatchWaits(const MetricsSnapshot& s, Exposition* e) {
  using Field = std::optional<double> DispatchWait::*;
  const std::pair<const char*, Field> families[] = {
      {"vrecon_vm_wait_per_dispatch_mean_seconds", &DispatchWait::mean_us},
      {"vrecon_vm_wait_per_dispatch_p95_seconds", &DispatchWait::p95_us},
  };
  for (const auto& [name, field] : families) {
    e->Family(name, "gauge", "Ready-Time wait per dispatch over the stored period (vrecon ready), by summary source.");
    for (const VmMetrics& m : s.vms) {
      for (const DispatchWait& d : m.dispatch) {
        if (const std::optional<double>& us = d.*field)
          e->Sample({{"vm", m.vm.vm}, {"vm_key", m.vm.vm_key}, {"source", d.source}}, *us * 1e-6);
      }
    }
  }
}

void Flags(const MetricsSnapshot& s, Exposition* e) {
  e->Family("vrecon_vm_flags", "gauge", "Flags on the VM's latest complete window, by code and severity.");
  std::map<std::pair<std::string_view, std::string_view>, int> counts;
  for (const VmMetrics& m : s.vms) {
    counts.clear();
    for (const StoredFlag& f : m.window.flags) ++counts[{f.code, SeverityName(f.severity)}];
    for (const auto& [key, n] : counts) {
      e->Sample({{"vm", m.vm.vm}, {"vm_key", m.vm.vm_key}, {"code", key.first}, {"severity", key.second}}, n);
    }
  }
}

void Processes(const MetricsSnapshot& s, Exposition* e) {
  using Value = std::optional<double> (ProcessAggregate::*)() const;
  const std::tuple<const char*, const char*, Value> families[] = {
      {"vrecon_process_guest_cpu_percent", "The process's % Processor Time as the guest reported it, % of one CPU.",
       &ProcessAggregate::MeanGuest},
      {"vrecon_process_corrected_cpu_percent",
       "The process's corrected CPU (w x guest), % of one CPU: what it really used.", &ProcessAggregate::MeanCorrected},
      {"vrecon_process_corrected_cpu_ci95_halfwidth_percent",
       "Half-width of the corrected CPU's 95% interval, % of one CPU.", &ProcessAggregate::HalfWidth95},
  };
  for (const auto& [name, help, value] : families) {
    e->Family(name, "gauge", help);
    for (const VmMetrics& m : s.vms) {
      for (const ProcessAggregate& p : m.processes) {
        if (const std::optional<double> v = (p.*value)())
          e->Sample({{"vm", m.vm.vm}, {"vm_key", m.vm.vm_key}, {"process", p.name}}, *v);
      }
    }
  }
}

std::optional<double> Seconds(const std::optional<TimeNs>& t) {
  if (!t) return std::nullopt;
  return static_cast<double>(*t) * kSecondsPerNs;
}

void Sources(const MetricsSnapshot& s, Exposition* e) {
  e->Family("vrecon_source_up", "gauge", "1 when the source's last collection attempt succeeded, else 0.");
  for (const SourceStatus& src : s.sources)
    e->Sample({{"source", src.source}, {"kind", src.kind}}, src.failures == 0 && src.last_success ? 1 : 0);
  using Time = std::optional<TimeNs> SourceStatus::*;
  const std::tuple<const char*, const char*, Time> times[] = {
      {"vrecon_source_last_attempt_timestamp_seconds", "When the source was last collected (Unix time).",
       &SourceStatus::last_attempt},
      {"vrecon_source_last_success_timestamp_seconds", "When the source was last collected without error.",
       &SourceStatus::last_success},
      {"vrecon_source_newest_data_timestamp_seconds", "End of the newest sample stored from the source.",
       &SourceStatus::newest_data},
      {"vrecon_source_last_error_timestamp_seconds", "When the source's newest error happened.",
       &SourceStatus::last_error_at},
  };
  for (const auto& [name, help, field] : times) {
    e->Family(name, "gauge", help);
    for (const SourceStatus& src : s.sources) {
      if (const std::optional<double> v = Seconds(src.*field))
        e->Sample({{"source", src.source}, {"kind", src.kind}}, *v);
    }
  }
  using Count = int64_t SourceStatus::*;
  const std::tuple<const char*, const char*, const char*, Count> counts[] = {
      {"vrecon_source_rows_added", "gauge", "Sample rows the source's last attempt added.", &SourceStatus::rows_added},
      {"vrecon_source_rows_total", "counter", "Sample rows added from the source by its collector's attempts.",
       &SourceStatus::rows_total},
      {"vrecon_source_consecutive_failures", "gauge", "Failed collection rounds in a row (0: the last succeeded).",
       &SourceStatus::failures},
      {"vrecon_source_rollups_due", "gauge", "vCenter: VMs whose 300 s rollups are still to be stored.",
       &SourceStatus::rollups_due},
  };
  for (const auto& [name, type, help, field] : counts) {
    e->Family(name, type, help);
    for (const SourceStatus& src : s.sources)
      e->Sample({{"source", src.source}, {"kind", src.kind}}, static_cast<double>(src.*field));
  }
}

void Capacity(const MetricsSnapshot& s, Exposition* e) {
  if (!s.capacity) return;
  using Field = std::optional<double> CapacityMetric::*;
  const std::tuple<const char*, const char*, Field> families[] = {
      {"vrecon_capacity_time_remaining_days",
       "Days until the forecast (upper band) exceeds usable capacity; +Inf: not within a year (vrecon capacity).",
       &CapacityMetric::time_remaining_days},
      {"vrecon_capacity_usable_cores", "Capacity less the 10% buffer, in cores (vrecon capacity).",
       &CapacityMetric::usable_cores},
      {"vrecon_capacity_demand_p95_cores", "p95 of the last 30 days' 5-minute demand, in cores (vrecon capacity).",
       &CapacityMetric::demand_p95_cores},
  };
  for (const auto& [name, help, field] : families) {
    e->Family(name, "gauge", help);
    for (const CapacityMetric& c : *s.capacity)
      if (const std::optional<double>& v = c.*field)
        e->Sample({{"scope", c.scope}, {"name", c.name}, {"key", c.key}, {"source", c.source}}, *v);
  }
}

}  // namespace

void RenderMetrics(const MetricsSnapshot& snapshot, double read_seconds, std::string* out) {
  Exposition e(out);
  if (!snapshot.version.empty()) {
    e.Family("vrecon_build_info", "gauge", "1; the labels name the vrecon serving these metrics.");
    e.Sample({{"version", snapshot.version}, {"commit", snapshot.commit}}, 1);
  }
  e.Family("vrecon_vms", "gauge", "VMs with a complete window in the store.");
  e.Sample({}, static_cast<double>(snapshot.vms.size()));
  VmInfo(snapshot, &e);
  VmGauges(snapshot, &e);
  DispatchWaits(snapshot, &e);
  Flags(snapshot, &e);
  Processes(snapshot, &e);
  Sources(snapshot, &e);
  Capacity(snapshot, &e);
  e.Family("vrecon_store_read_seconds", "gauge", "How long this scrape took to read the store.");
  e.Sample({}, read_seconds);
}

}  // namespace vrecon::serve
