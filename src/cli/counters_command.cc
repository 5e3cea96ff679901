// `vrecon counters`: every other counter of each corrected VM's guest log, typed and treated per
// window as seed 003 says (docs/counter-types.md).
#include <algorithm>
#include <iostream>

#include "src/cli/commands.h"
#include "src/engine/correction_job.h"
#include "src/engine/counter_job.h"
#include "src/report/counter_report.h"

namespace vrecon::cli {

RunFn AddCountersCommand(CLI::App& app) {
  struct Opts {
    std::string db = "vrecon.db";
    std::vector<std::string> maps;
    std::string vm, from, to, host_disk, format = "table", hyperv_counter = "total";
    int window = 300;
    bool no_align = false;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand(
      "counters",
      "The guest's other counters per VM and UTC window, typed (percent-time, rate, instantaneous, qpc-latency, "
      "unknown) and corrected as their type needs");
  cmd->add_option("--db", o->db, "Store to read")->capture_default_str();
  cmd->add_option("--vm", o->vm, "Only this VM or guest (name or glob; domain suffix ignored)");
  cmd->add_option("--window", o->window, "Window length in seconds")->check(CLI::Range(15, 86400))->capture_default_str();
  cmd->add_option("--from", o->from, "Start of the range, ISO 8601 (UTC unless an offset is given)");
  cmd->add_option("--to", o->to, "End of the range, ISO 8601");
  cmd->add_option("--map", o->maps, "Guest computer name to VM name (GUEST=VM); wins over name matching");
  cmd->add_option("--hyperv-counter", o->hyperv_counter,
                  "Hyper-V VP counter for host utilization: total = % Total Run Time, guest = % Guest Run Time")
      ->check(CLI::IsMember({"total", "guest"}))
      ->capture_default_str();
  cmd->add_option("--host-disk", o->host_disk,
                  "Host LogicalDisk/PhysicalDisk instance holding the VM's virtual disk (e.g. D:), for the "
                  "virtualization delay of Avg. Disk sec/* counters");
  cmd->add_flag("--no-align", o->no_align,
               "Use guest timestamps as they are: rates keep the guest's interval (as vrecon correct --no-align)");
  AddFormatOption(cmd, &o->format);
  return [o]() {
    CorrectionRequest req;
    req.window = static_cast<TimeNs>(o->window) * kNsPerSec;
    if (!o->vm.empty()) req.vm = o->vm;
    req.hyperv_guest_run_time = o->hyperv_counter == "guest";
    req.align = !o->no_align;
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
    auto store = OpenExistingStore(o->db);
    if (!store.ok()) {
      PrintError(store.status().message());
      return kExitFailure;
    }
    std::map<std::string, models::ClockModel> clocks;
    auto windows = RunCorrection(store->get(), req, &clocks);
    if (!windows.ok()) {
      PrintError(windows.status().message());
      return kExitFailure;
    }
    CounterRequest creq;
    creq.window = req.window;
    if (!o->host_disk.empty()) creq.host_disk = o->host_disk;
    UseClocks(clocks, &creq);
    auto counters = RunCounters(store->get(), *windows, creq);
    if (!counters.ok()) {
      PrintError(counters.status().message());
      return kExitFailure;
    }
    if (windows->empty()) {
      std::cerr << "vrecon: no windows with guest or host CPU data in the selected range\n";
    } else if (std::all_of(counters->begin(), counters->end(), [](const auto& c) { return c.empty(); })) {
      std::cerr << "vrecon: the selected guests log no counters besides the correction's own\n";
    }
    WriteCounters(std::cout, *windows, *counters, ToFormat(o->format));
    return kExitOk;
  };
}

}  // namespace vrecon::cli
