#include "src/cli/correction_options.h"

#include <tuple>

#include "src/cli/commands.h"

namespace vrecon::cli {

void AddCorrectionOptions(CLI::App* cmd, CorrectionOptions* o) {
  cmd->add_option("--vm", o->vm,
                  "Only this VM: its vm_key, or a VM or guest name or glob (every VM of that name; domain suffix "
                  "ignored)");
  cmd->add_option("--window", o->window, "Window length in seconds")
      ->check(CLI::Range(15, 86400))
      ->capture_default_str();
  cmd->add_option("--from", o->from, "Start of the range, ISO 8601 (UTC unless an offset is given)");
  cmd->add_option("--to", o->to, "End of the range, ISO 8601");
  // One value per --map (repeat it for more), as for `vrecon ingest`, where a list option would
  // take the log files after it.
  cmd->add_option("--map", o->maps, "Guest computer name to VM name (GUEST=VM; repeatable); wins over name matching")
      ->allow_extra_args(false);
  cmd->add_option("--hyperv-counter", o->hyperv_counter,
                  "Hyper-V VP counter for host utilization: total = % Total Run Time, guest = % Guest Run Time")
      ->check(CLI::IsMember({"total", "guest"}))
      ->capture_default_str();
  cmd->add_option("--vsphere-counter", o->vsphere_counter,
                  "vSphere host utilization: usage = cpu.usage.average (frequency-scaled: turbo and hyper-threading "
                  "move it), run = cpu.run.summation (time, as the guest's ticks count it)")
      ->check(CLI::IsMember({"usage", "run"}))
      ->capture_default_str();
  cmd->add_flag("--no-align", o->no_align,
                "Use guest timestamps as they are instead of estimating the guest clock's offset and drift "
                "against the host (to compare; no clock offset is reported, rates keep the guest's interval)");
}

Status ToCorrectionRequest(const CorrectionOptions& o, CorrectionRequest* req) {
  req->window = static_cast<TimeNs>(o.window) * kNsPerSec;
  if (!o.vm.empty()) req->vm = o.vm;
  req->hyperv_guest_run_time = o.hyperv_counter == "guest";
  req->vsphere_run = o.vsphere_counter == "run";
  req->align = !o.no_align;
  RETURN_IF_ERROR(ParseTimeRange(o.from, o.to, &req->from, &req->to));
  for (const std::string& m : o.maps) {
    std::string g, v;
    RETURN_IF_ERROR(ParseMapping(m, &g, &v));
    req->mappings[g] = v;
  }
  return Status::Ok();
}

}  // namespace vrecon::cli
