// `vrecon counters`: every other counter of each corrected VM's guest log, typed and treated per
// window as seed 003 says (docs/counter-types.md).
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/engine/counter_job.h"
#include "src/report/counter_report.h"

namespace vrecon::cli {

int RunCountersCommand(const CountersArgs& o) {
  CorrectionRequest req;
  if (Status s = ToCorrectionRequest(o.sel, &req); !s.ok()) return FailUsage(s);
  auto store = OpenExistingStore(o.db);
  if (!store.ok()) return Fail(store.status());
  std::optional<std::string> host_disk;
  if (!o.host_disk.empty()) host_disk = o.host_disk;
  auto result = RunCorrectionWithCounters(store->get(), req, host_disk);
  if (!result.ok()) return Fail(result.status());
  const auto& [windows, counters] = *result;
  if (windows.empty()) {
    std::cerr << "vrecon: no windows with guest or host CPU data in the selected range\n";
  } else if (std::all_of(counters.begin(), counters.end(), [](const auto& c) { return c.empty(); })) {
    std::cerr << "vrecon: the selected guests log no counters besides the correction's own\n";
  }
  WriteCounters(std::cout, windows, counters, ToFormat(o.format));
  return kExitOk;
}

}  // namespace vrecon::cli
