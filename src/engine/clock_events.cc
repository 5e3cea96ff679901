#include "src/engine/clock_events.h"

#include <algorithm>

#include "models/vm_identity.h"
#include "src/core/text_util.h"

namespace vrecon {
namespace {

// source_file.machines is comma-separated (src/ingest/ingest_file.cc).
std::vector<std::string> SplitMachines(const std::string& list) {
  std::vector<std::string> out;
  size_t from = 0;
  while (from <= list.size()) {
    const size_t comma = std::min(list.find(',', from), list.size());
    if (comma > from) out.push_back(list.substr(from, comma - from));
    from = comma + 1;
  }
  return out;
}

}  // namespace

StatusOr<std::map<std::string, std::vector<models::ClockEvent>>> RecordedClockEvents(Store* store) {
  std::map<std::string, std::vector<models::ClockEvent>> out;
  ASSIGN_OR_RETURN(std::vector<Store::FileClockEvent> stored, store->ClockEvents());
  std::string last_file;
  bool have_previous = false;  // rows skipped after one step share the previous row
  TimeNs last_previous = 0;
  for (const Store::FileClockEvent& fe : stored) {
    if (fe.kinds.find("guest") == std::string::npos) continue;
    if (fe.event.file != last_file) have_previous = false, last_file = fe.event.file;
    const ClockRecord& e = fe.event;
    models::ClockEvent ev;
    if (e.kind == "dst-shift") {
      ev = {models::ClockEventKind::kDstShift, e.before, static_cast<double>(e.after - e.before) / kNsPerSec};
    } else if (e.kind == "restart") {
      ev = {models::ClockEventKind::kRestart, e.after, 0};
    } else if (e.kind == "time-backwards") {
      if (have_previous && last_previous == e.before) continue;
      have_previous = true;
      last_previous = e.before;
      // Just after the previous row: the interval that ends at the next kept row crosses the step.
      ev = {models::ClockEventKind::kStep, e.before + 1, static_cast<double>(e.after - e.before) / kNsPerSec};
    } else {
      continue;
    }
    for (const std::string& m : SplitMachines(fe.machines)) out[models::NormalizeVmName(m)].push_back(ev);
  }
  for (auto& [m, v] : out) std::sort(v.begin(), v.end(), models::EarlierEvent);
  return out;
}

}  // namespace vrecon
