// `vrecon correct`: corrected per-process CPU per VM and window, from a store or ad hoc from
// --guest and --host files read into memory.
#include <filesystem>
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/cli/ingest_runner.h"
#include "src/engine/correction_job.h"
#include "src/engine/counter_job.h"
#include "src/report/correction_report.h"
#include "src/report/counter_report.h"

namespace vrecon::cli {

int RunCorrectCommand(const CorrectArgs& o) {
  CorrectionRequest req;
  req.config.idle_guest_pct = o.idle;
  req.bias.calibrate = o.calibrate_bias;
  if (Status s = ToCorrectionRequest(o.sel, &req); !s.ok()) return FailUsage(s);
  if (o.counters && o.format == "csv")
    return FailUsage("--counters has no CSV form here (one row per process): use vrecon counters --format csv");
  const bool ad_hoc = !o.guest.empty() || !o.host.empty();
  auto store = ad_hoc ? Store::Open(":memory:") : OpenExistingStore(o.db);
  if (!store.ok()) return Fail(store.status());
  if (ad_hoc) {
    IngestRunOptions ro;
    ro.ingest.tz_bias_minutes = o.tz_bias;
    if (IngestAll(store->get(), o.host, ro).failed > 0) return kExitFailure;
    ro.ingest.machine = o.machine;
    if (Status s = ParseTraceStartOption(o.trace_start, &ro.ingest.trace_start); !s.ok()) return FailUsage(s);
    if (IngestAll(store->get(), o.guest, ro).failed > 0) return kExitFailure;
  }
  const OutputFormat fmt = ToFormat(o.format);
  const int top = o.top < 0 ? 10 : o.top;
  if (!o.counters) {  // printed VM by VM: memory holds one VM's windows, not the fleet's
    CorrectionWriter out(std::cout, fmt, top);
    const Status s = ForEachVmCorrection(store->get(), req, [&out](std::vector<models::WindowResult>&& vm) {
      out.Add(vm);
      return Status::Ok();
    });
    if (!s.ok()) {
      std::cout.flush();
      return Fail(s);
    }
    out.Finish();
    if (out.windows() == 0) std::cerr << "vrecon: no windows with guest or host CPU data in the selected range\n";
    return kExitOk;
  }
  // --counters: the typed counters are matched against every window at once.
  std::optional<std::string> host_disk;
  if (!o.host_disk.empty()) host_disk = o.host_disk;
  auto result = RunCorrectionWithCounters(store->get(), req, host_disk);
  if (!result.ok()) return Fail(result.status());
  const auto& [windows, counters] = *result;
  if (windows.empty()) std::cerr << "vrecon: no windows with guest or host CPU data in the selected range\n";
  WriteCorrection(std::cout, windows, fmt, top, &counters);
  if (fmt == OutputFormat::kTable) {
    std::cout << "\nTyped counters\n";
    WriteCounters(std::cout, windows, counters, fmt);
  }
  return kExitOk;
}

}  // namespace vrecon::cli
