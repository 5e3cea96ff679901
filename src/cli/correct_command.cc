#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/correction_options.h"
#include "src/cli/ingest_runner.h"
#include "src/engine/correction_job.h"
#include "src/engine/counter_job.h"
#include "src/report/correction_report.h"
#include "src/report/counter_report.h"

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

RunFn AddCorrectCommand(CLI::App& app) {
  struct Opts {
    std::string db = "vrecon.db";
    CorrectionOptions sel;
    std::vector<std::string> guest, host;
    std::string machine, trace_start;  // ad hoc: for guest inputs that do not carry them (ETW traces)
    std::string format = "table";
    int top = -1;
    double idle = 5.0;
    std::optional<int> tz_bias;
    bool counters = false;  // typed guest counters (docs/counter-types.md)
    std::string host_disk;
  };
  auto o = std::make_shared<Opts>();
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
  AddFormatOption(cmd, &o->format);
  return [o]() {
    CorrectionRequest req;
    req.config.idle_guest_pct = o->idle;
    if (Status s = ToCorrectionRequest(o->sel, &req); !s.ok()) {
      PrintError(s.message());
      return kExitUsage;
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
      if (IngestAll(store->get(), o->host, ro, std::cerr).failed > 0) return kExitFailure;
      ro.ingest.machine = o->machine;
      if (!ParseTraceStartOption(o->trace_start, &ro.ingest.trace_start)) return kExitUsage;
      if (IngestAll(store->get(), o->guest, ro, std::cerr).failed > 0) return kExitFailure;
    }
    const OutputFormat fmt = ToFormat(o->format);
    const int top = o->top < 0 ? 10 : o->top;
    if (!o->counters) {  // printed VM by VM: memory holds one VM's windows, not the fleet's
      CorrectionWriter out(std::cout, fmt, top);
      const Status s = ForEachVmCorrection(store->get(), req, [&out](std::vector<models::WindowResult>&& vm) {
        out.Add(vm);
        return Status::Ok();
      });
      if (!s.ok()) {
        std::cout.flush();
        PrintError(s.message());
        return kExitFailure;
      }
      out.Finish();
      if (out.windows() == 0) std::cerr << "vrecon: no windows with guest or host CPU data in the selected range\n";
      return kExitOk;
    }
    std::map<std::string, models::ClockModel> clocks;
    auto windows = RunCorrection(store->get(), req, &clocks);
    if (!windows.ok()) {
      PrintError(windows.status().message());
      return kExitFailure;
    }
    // --counters: the typed counters are matched against every window at once.
    CounterRequest creq;
    creq.window = req.window;
    if (!o->host_disk.empty()) creq.host_disk = o->host_disk;
    UseClocks(clocks, &creq);
    StatusOr<std::vector<std::vector<models::CounterValue>>> counters = RunCounters(store->get(), *windows, creq);
    if (!counters.ok()) {
      PrintError(counters.status().message());
      return kExitFailure;
    }
    if (windows->empty()) std::cerr << "vrecon: no windows with guest or host CPU data in the selected range\n";
    WriteCorrection(std::cout, *windows, fmt, top, &*counters);
    if (fmt == OutputFormat::kTable) {
      std::cout << "\nTyped counters\n";
      WriteCounters(std::cout, *windows, *counters, fmt);
    }
    return kExitOk;
  };
}

}  // namespace vrecon::cli
