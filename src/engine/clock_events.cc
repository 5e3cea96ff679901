#include "src/engine/clock_events.h"

#include <algorithm>

#include "models/vm_identity.h"
#include "src/core/text_util.h"

namespace vrecon {
namespace {

// The ISO time right after `marker` in `message` ("2026-11-01T06:00:00.000Z"), if any.
std::optional<TimeNs> TimeAfter(const std::string& message, std::string_view marker) {
  const size_t at = message.find(marker);
  if (at == std::string::npos) return std::nullopt;
  std::string_view rest = std::string_view(message).substr(at + marker.size());
  const size_t end = rest.find_first_of(" ;)");
  return ParseIso(rest.substr(0, end));
}

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
  ASSIGN_OR_RETURN(std::vector<FileRecord> files, store->Files());
  for (const FileRecord& f : files) {
    if (f.kinds.find("guest") == std::string::npos) continue;
    ASSIGN_OR_RETURN(std::vector<ImportIssue> issues, store->Issues(f.id));
    std::vector<models::ClockEvent> events;
    std::optional<TimeNs> last_previous;  // skipped rows after one step share the previous row
    for (const ImportIssue& i : issues) {
      if (i.code == "dst-shift") {
        const auto at = TimeAfter(i.message, "shift at ");
        if (!at) continue;  // stored by a vrecon that did not record the time
        const bool forward = i.message.find("forward") != std::string::npos;
        events.push_back({models::ClockEventKind::kDstShift, *at, forward ? 3600.0 : -3600.0});
      } else if (i.code == "time-backwards") {
        const auto row = TimeAfter(i.message, "the row's time "), prev = TimeAfter(i.message, "previous row's ");
        if (!row || !prev || prev == last_previous) continue;
        last_previous = prev;
        // Just after the previous row: the interval that ends at the next kept row crosses the step.
        events.push_back({models::ClockEventKind::kStep, *prev + 1, static_cast<double>(*row - *prev) / kNsPerSec});
      }
    }
    if (events.empty()) continue;
    for (const std::string& m : SplitMachines(f.machines)) {
      auto& v = out[models::NormalizeVmName(m)];
      v.insert(v.end(), events.begin(), events.end());
    }
  }
  for (auto& [m, v] : out)
    std::sort(v.begin(), v.end(), [](const models::ClockEvent& a, const models::ClockEvent& b) { return a.at < b.at; });
  return out;
}

}  // namespace vrecon
