#include "src/store/clock_event_migration.h"

#include <string>
#include <vector>

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

}  // namespace

std::optional<ClockRecord> ClockEventFromIssue(const ImportIssue& i) {
  if (i.code == "dst-shift") {
    const auto at = TimeAfter(i.message, "shift at ");
    if (!at) return std::nullopt;
    const bool forward = i.message.find("forward") != std::string::npos;
    return ClockRecord{"dst-shift", *at, *at + (forward ? kNsPerHour : -kNsPerHour), i.file, i.line};
  }
  if (i.code == "time-backwards") {
    const auto row = TimeAfter(i.message, "the row's time "), prev = TimeAfter(i.message, "previous row's ");
    if (!row || !prev) return std::nullopt;
    return ClockRecord{"time-backwards", *prev, *row, i.file, i.line};
  }
  return std::nullopt;
}

Status ClockEventsFromIssues(Database* db) {
  ASSIGN_OR_RETURN(Statement q,
                   db->Prepare("SELECT file_id, file, line, code, message FROM import_issue WHERE "
                               "file_id IS NOT NULL AND code IN ('dst-shift', 'time-backwards') ORDER BY id"));
  std::vector<std::pair<int64_t, ClockRecord>> events;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    const ImportIssue issue{q.ColumnText(1), q.ColumnInt(2), Severity::kInfo, q.ColumnText(3), q.ColumnText(4)};
    if (auto e = ClockEventFromIssue(issue)) events.emplace_back(q.ColumnInt(0), std::move(*e));
  }
  ASSIGN_OR_RETURN(Statement insert, db->Prepare("INSERT INTO clock_event(file_id, line, kind, before_ns, after_ns) "
                                                 "VALUES(?1, ?2, ?3, ?4, ?5)"));
  for (const auto& [file_id, e] : events) {
    insert.Bind(1, file_id).Bind(2, e.line).Bind(3, e.kind).Bind(4, static_cast<int64_t>(e.before));
    RETURN_IF_ERROR(insert.Bind(5, static_cast<int64_t>(e.after)).Run());
  }
  return Status::Ok();
}

}  // namespace vrecon
