// The options of the commands that read a store: correct, counters, samples, ready, report,
// status, serve. Each runs through its Run*Command (src/cli/command_options.h).
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>

#include "src/cli/command_line.h"
#include "src/core/host_counters.h"

namespace vrecon::cli {
namespace {

// A number from 0 to 100 (CLI11's Range lets NaN through: every comparison with it is false).
std::function<std::string(const std::string&)> PercentValidator() {
  return [](const std::string& s) -> std::string {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v) || v < 0 || v > 100) return "must be a number from 0 to 100";
    return "";
  };
}

}  // namespace

Command AddCorrectCommand(CLI::App& app) {
  auto o = std::make_shared<CorrectArgs>();
  CLI::App* cmd = app.add_subcommand(
      "correct", "Corrected per-process CPU per VM and UTC window: w = host run % / guest % Processor Time");
  auto* db = AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  auto* guest =
      cmd->add_option(
             "--guest", o->guest,
             "Ad hoc: guest Perfmon logs or ETW traces (xperf dumper text, WPA CSV; nothing is written to disk)")
          ->check(CLI::ExistingFile);
  cmd->add_option("--machine", o->machine, "Ad hoc: the computer --guest files are from where they do not say (ETW)")
      ->needs(guest);
  cmd->add_option("--trace-start", o->trace_start,
                  "Ad hoc: absolute start of an ETW trace whose text does not carry it (ISO 8601 with its offset)")
      ->needs(guest);
  auto* host = cmd->add_option("--host", o->host, "Ad hoc: host logs (Hyper-V Perfmon, esxtop batch CSV)")
                   ->check(CLI::ExistingFile);
  db->excludes(guest)->excludes(host);
  AddCorrectionOptions(cmd, &o->sel);
  cmd->add_option("--idle-threshold", o->idle, "Guest % busy under which w is undefined")
      ->check(PercentValidator())
      ->capture_default_str();
  cmd->add_option("--top", o->top, "Processes shown per window in the table (0 = all; default 10)")
      ->check([](const std::string& s) {
        return s.find_first_not_of("0123456789") == std::string::npos && !s.empty()
                   ? std::string()
                   : "must be a whole number, 0 or more";
      });
  auto* counters_flag =
      cmd->add_flag("--counters", o->counters,
                    "Also the guest's other counters per window, typed and corrected (docs/counter-types.md): a "
                    "\"counters\" array per JSON window, a second block in the table; for CSV use vrecon counters");
  cmd->add_option("--host-disk", o->host_disk,
                  "With --counters: host disk instance holding the VM's virtual disk (e.g. D:), for disk latency")
      ->needs(counters_flag);
  cmd->add_option("--tz-bias", o->tz_bias, "Ad hoc: bias for logs whose header has none (minutes, UTC - local)");
  cmd->add_flag("--calibrate-bias", o->calibrate_bias,
                "In windows without an ETW trace, correct the processes sampling-bias flags as the trace would: "
                "Perfmon's figure x the ratio ETW measured to it where both cover windows, w over the total the "
                "same way (docs/accuracy.md)");
  AddFormatOption(cmd, &o->format);
  return {cmd, [o]() { return RunCorrectCommand(*o); }};
}

Command AddCountersCommand(CLI::App& app) {
  auto o = std::make_shared<CountersArgs>();
  CLI::App* cmd = app.add_subcommand(
      "counters",
      "The guest's other counters per VM and UTC window, typed (percent-time, rate, instantaneous, tick-snapshot, "
      "qpc-latency, unknown) and corrected as their type needs");
  AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  AddCorrectionOptions(cmd, &o->sel);
  cmd->add_option("--host-disk", o->host_disk,
                  "Host LogicalDisk/PhysicalDisk instance holding the VM's virtual disk (e.g. D:), for the "
                  "virtualization delay of Avg. Disk sec/* counters");
  AddFormatOption(cmd, &o->format);
  return {cmd, [o]() { return RunCountersCommand(*o); }};
}

Command AddSamplesCommand(CLI::App& app) {
  auto o = std::make_shared<SamplesArgs>();
  CLI::App* cmd = app.add_subcommand("samples", "List stored intervals exactly as they are in the store");
  AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  cmd->add_option("--machine", o->machine, "Machine (computer or ESXi/Hyper-V host) name; glob allowed");
  cmd->add_option("--object", o->object, "Object, English name (Processor, Process, ...); glob allowed");
  cmd->add_option("--counter", o->counter, "Counter, English name (% Processor Time, ...); glob allowed");
  cmd->add_option("--instance", o->instance, "Instance (_Total, 0, chrome#2, WEB01:Hv VP 0, ...); glob allowed");
  cmd->add_option("--source", o->source,
                  "guest, vmtools, hyperv, esxtop, vsphere or vsphere-host (a host's own counters)")
      ->check(CLI::IsMember({"guest", "vmtools", "hyperv", "esxtop", "vsphere", "vsphere-host"}));
  cmd->add_option("--from", o->from, "Start of the range, ISO 8601");
  cmd->add_option("--to", o->to, "End of the range, ISO 8601");
  AddFormatOption(cmd, &o->format);
  return {cmd, [o]() { return RunSamplesCommand(*o); }};
}

Command AddReadyCommand(CLI::App& app) {
  auto o = std::make_shared<ReadyArgs>();
  CLI::App* cmd = app.add_subcommand(
      "ready", "Ready-Time analysis per VM (ready, co-stop, wait per dispatch, host load) and right-sizing hints");
  AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  cmd->add_option("--vm", o->vm,
                  "Only this VM: its vm_key, or a name or glob (every VM of that name; domain suffix ignored)");
  cmd->add_option("--from", o->from, "Start of the range, ISO 8601 (UTC unless an offset is given)");
  cmd->add_option("--to", o->to, "End of the range, ISO 8601");
  AddFormatOption(cmd, &o->format);
  return {cmd, [o]() { return RunReadyCommand(*o); }};
}

Command AddCapacityCommand(CLI::App& app) {
  auto o = std::make_shared<CapacityArgs>();
  CLI::App* cmd = app.add_subcommand(
      "capacity", "Headroom, time remaining and right sizes, forecast from demand (docs/capacity.md)");
  AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  cmd->add_option("--scope", o->scope,
                  "Entities to answer for: vCenter clusters, hosts (a vCenter's, esxtop and Hyper-V logs'), VMs")
      ->check(CLI::IsMember({"all", "cluster", "host", "vm"}))
      ->capture_default_str();
  cmd->add_option("--name", o->names, "Only this entity: a VM's vm_key, or a name or glob; may be repeated");
  cmd->add_option("--horizon-days", o->horizon_days, "Days the forecast reaches")
      ->check(CLI::Range(1, 3650))
      ->capture_default_str();
  cmd->add_option("--risk", o->risk, "conservative: the forecast's upper band; aggressive: its middle")
      ->check(CLI::IsMember({"conservative", "aggressive"}))
      ->capture_default_str();
  cmd->add_option("--buffer-pct", o->buffer_pct, "Capacity held back: usable = capacity x (1 - buffer/100)")
      ->check(CLI::Range(0.0, 99.0))
      ->capture_default_str();
  cmd->add_option("--target-util-pct", o->target_util_pct, "Utilisation a recommended VM size aims at")
      ->check(CLI::Range(1.0, 100.0))
      ->capture_default_str();
  cmd->add_option("--ha-hosts", o->ha_hosts,
                  "Hosts a cluster holds back for failures (default: what its HA admission control holds back, else 1 "
                  "from 2 hosts on)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--as-of", o->as_of, "Read data up to this time, ISO 8601 (default: all of it)");
  cmd->add_option("--forecast-out", o->forecast_out, "Also write each entity's daily forecast to this CSV file");
  AddFormatOption(cmd, &o->format);
  return {cmd, [o]() { return RunCapacityCommand(*o); }};
}

Command AddReportCommand(CLI::App& app) {
  auto o = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Capacity report from the stored corrections: guest vs real CPU, processes, ready/co-stop, flags, hints");
  AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  cmd->add_option("--vm", o->vm, "Only this VM (name or glob; domain suffix ignored)");
  cmd->add_option("--from", o->from, "Start of the range, ISO 8601 (UTC unless an offset is given)");
  cmd->add_option("--to", o->to, "End of the range, ISO 8601");
  cmd->add_option("--format", o->format, "Output format")
      ->check(CLI::IsMember({"html", "csv", "json", "pdh-csv", "markdown"}))
      ->capture_default_str();
  cmd->add_option("--out", o->out, "File to write; - for standard output")->required();
  cmd->add_flag("--recompute", o->recompute, "Recompute and store the corrections from the samples first");
  cmd->add_option("--vsphere-counter", o->vsphere_counter,
                  "For --recompute and --format pdh-csv: vSphere host utilization, usage = cpu.usage.average, run = "
                  "cpu.run.summation (as for vrecon correct)")
      ->check(CLI::IsMember(VsphereCounterWords()))
      ->capture_default_str();
  cmd->add_option("--esxtop-counter", o->esxtop_counter,
                  "For --recompute and --format pdh-csv: esxtop host utilization, used = % Used, run = % Run (as for "
                  "vrecon correct)")
      ->check(CLI::IsMember(EsxtopCounterWords()))
      ->capture_default_str();
  return {cmd, [o]() { return RunReportCommand(*o); }};
}

Command AddStatusCommand(CLI::App& app) {
  auto o = std::make_shared<StatusArgs>();
  CLI::App* cmd = app.add_subcommand(
      "status",
      "Per collection source: last success, lag, rows added, last error; exits 1 when a source's last attempt "
      "failed or it is stale, with one line per such source on stderr");
  cmd->footer(
      "Exit status: 0 when every source's last attempt succeeded and none is stale; 1 when a source is failing "
      "or stale (stderr: \"vrecon: error: source NAME failing: ERROR\" or \"... stale: no success for 47m "
      "(threshold 15m)\"), or the store cannot be read; 2 for a usage error.");
  AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  cmd->add_option("--stale-after", o->stale_after,
                  "A source without a success for this long is stale (30s, 15m, 1h; default 3 x the collector's "
                  "--every, or 15m after --once rounds)");
  AddFormatOption(cmd, &o->format);
  return {cmd, [o]() { return RunStatusCommand(*o); }};
}

Command AddServeCommand(CLI::App& app) {
  auto o = std::make_shared<ServeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "serve",
      "Serve the stored corrections over HTTP until SIGINT/SIGTERM: a web view (/ is the HTML report of "
      "?from=&to=&vm=, /api/vms and /api/vms/{vm_key}/windows their JSON) and Prometheus /metrics (each VM's "
      "latest complete window, its top processes' corrected CPU, flags, each source's status; docs/metrics.md)");
  AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  AddListenOptions(cmd, &o->listen);
  return {cmd, [o] { return RunServeCommand(*o); }};
}

}  // namespace vrecon::cli
