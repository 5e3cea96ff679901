#include <filesystem>
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/ingest_runner.h"
#include "src/engine/correction_job.h"
#include "src/engine/counter_job.h"
#include "src/report/correction_report.h"
#include "src/report/counter_report.h"

namespace vrecon::cli {

RunFn AddCorrectCommand(CLI::App& app) {
  struct Opts {
    std::string db = "vrecon.db";
    std::vector<std::string> guest, host, maps;
    std::string vm, from, to, format = "table", hyperv_counter = "total";
    int window = 300;
    int top = -1;
    double idle = 5.0;
    std::optional<int> tz_bias;
    bool no_align = false;
    bool counters = false;  // typed guest counters (docs/counter-types.md)
    std::string host_disk;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand(
      "correct", "Corrected per-process CPU per VM and UTC window: w = host run % / guest % Processor Time");
  auto* db = cmd->add_option("--db", o->db, "Store to read")->capture_default_str();
  auto* guest = cmd->add_option("--guest", o->guest, "Ad hoc: guest Perfmon logs (nothing is written to disk)")
                    ->check(CLI::ExistingFile);
  auto* host = cmd->add_option("--host", o->host, "Ad hoc: host logs (Hyper-V Perfmon, esxtop batch CSV)")
                   ->check(CLI::ExistingFile);
  db->excludes(guest)->excludes(host);
  cmd->add_option("--vm", o->vm, "Only this VM or guest (name or glob; domain suffix ignored)");
  cmd->add_option("--window", o->window, "Window length in seconds")->check(CLI::Range(15, 86400))->capture_default_str();
  cmd->add_option("--from", o->from, "Start of the range, ISO 8601 (UTC unless an offset is given)");
  cmd->add_option("--to", o->to, "End of the range, ISO 8601");
  cmd->add_option("--map", o->maps, "Guest computer name to VM name (GUEST=VM); wins over name matching");
  cmd->add_option("--hyperv-counter", o->hyperv_counter,
                  "Hyper-V VP counter for host utilization: total = % Total Run Time, guest = % Guest Run Time")
      ->check(CLI::IsMember({"total", "guest"}))
      ->capture_default_str();
  cmd->add_option("--idle-threshold", o->idle, "Guest % busy under which w is undefined")->capture_default_str();
  cmd->add_option("--top", o->top, "Processes shown per window in the table (0 = all; default 10)");
  cmd->add_flag("--no-align", o->no_align,
               "Use guest timestamps as they are instead of estimating the guest clock's offset and drift "
               "against the host (to compare; no clock offset is reported)");
  auto* counters_flag = cmd->add_flag("--counters", o->counters,
                "Also the guest's other counters per window, typed and corrected (docs/counter-types.md): a "
                "\"counters\" array per JSON window, a second block in the table; for CSV use vrecon counters");
  cmd->add_option("--host-disk", o->host_disk,
                  "With --counters: host disk instance holding the VM's virtual disk (e.g. D:), for disk latency")
      ->needs(counters_flag);
  cmd->add_option("--tz-bias", o->tz_bias, "Ad hoc: bias for logs whose header has none (minutes, UTC - local)");
  AddFormatOption(cmd, &o->format);
  return [o]() {
    CorrectionRequest req;
    req.window = static_cast<TimeNs>(o->window) * kNsPerSec;
    if (!o->vm.empty()) req.vm = o->vm;
    req.hyperv_guest_run_time = o->hyperv_counter == "guest";
    req.align = !o->no_align;
    req.config.idle_guest_pct = o->idle;
    for (const auto& [opt, text, out] : {std::tuple{"--from", &o->from, &req.from}, std::tuple{"--to", &o->to, &req.to}}) {
      Status s = ParseTimeOption(opt, *text, out);
      if (!s.ok()) {
        PrintError(s.message());
        return kExitUsage;
      }
    }
    for (const std::string& m : o->maps) {
      std::string g, v;
      Status s = ParseMapping(m, &g, &v);
      if (!s.ok()) {
        PrintError(s.message());
        return kExitUsage;
      }
      req.mappings[g] = v;
    }
    if (o->counters && o->format == "csv") {
      PrintError("--counters has no CSV form here (one row per process): use vrecon counters --format csv");
      return kExitUsage;
    }
    const bool ad_hoc = !o->guest.empty() || !o->host.empty();
    auto store = ad_hoc ? Store::Open(":memory:") : OpenExistingStore(o->db);
    if (!store.ok()) {
      PrintError(store.status().message());
      return kExitFailure;
    }
    if (ad_hoc) {
      IngestRunOptions ro;
      ro.ingest.tz_bias_minutes = o->tz_bias;
      ro.print = false;
      std::vector<std::string> files = o->guest;
      files.insert(files.end(), o->host.begin(), o->host.end());
      if (IngestAll(store->get(), files, ro, std::cerr).failed > 0) return kExitFailure;
    }
    std::map<std::string, models::ClockModel> clocks;
    auto windows = RunCorrection(store->get(), req, &clocks);
    if (!windows.ok()) {
      PrintError(windows.status().message());
      return kExitFailure;
    }
    StatusOr<std::vector<std::vector<models::CounterValue>>> counters = std::vector<std::vector<models::CounterValue>>{};
    if (o->counters) {
      CounterRequest creq;
      creq.window = req.window;
      if (!o->host_disk.empty()) creq.host_disk = o->host_disk;
      UseClocks(clocks, &creq);
      counters = RunCounters(store->get(), *windows, creq);
      if (!counters.ok()) {
        PrintError(counters.status().message());
        return kExitFailure;
      }
    }
    if (windows->empty()) std::cerr << "vrecon: no windows with guest or host CPU data in the selected range\n";
    const OutputFormat fmt = ToFormat(o->format);
    WriteCorrection(std::cout, *windows, fmt, o->top < 0 ? 10 : o->top, o->counters ? &*counters : nullptr);
    if (o->counters && fmt == OutputFormat::kTable) {
      std::cout << "\nTyped counters\n";
      WriteCounters(std::cout, *windows, *counters, fmt);
    }
    return kExitOk;
  };
}

}  // namespace vrecon::cli
