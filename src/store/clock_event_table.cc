// Store::AddClockEvents / ClockEvents: the clock_event table (schema 7, docs/storage.md).
#include "src/store/store.h"

namespace vrecon {

Status Store::AddClockEvents(int64_t file_id, const std::vector<ClockRecord>& events) {
  ASSIGN_OR_RETURN(Statement * q, db_->Cached("INSERT INTO clock_event(file_id, line, kind, before_ns, after_ns) "
                                              "VALUES(?1, ?2, ?3, ?4, ?5)"));
  for (const ClockRecord& e : events) {
    q->Bind(1, file_id).Bind(2, e.line).Bind(3, e.kind).Bind(4, static_cast<int64_t>(e.before));
    q->Bind(5, static_cast<int64_t>(e.after));
    RETURN_IF_ERROR(q->Run());
  }
  return Status::Ok();
}

StatusOr<std::vector<Store::FileClockEvent>> Store::ClockEvents() {
  ASSIGN_OR_RETURN(Statement q,
                   db_->Prepare("SELECT e.kind, e.before_ns, e.after_ns, e.line, f.path, f.machines, f.kinds "
                                "FROM clock_event e JOIN source_file f ON f.id = e.file_id "
                                "ORDER BY e.file_id, e.id"));
  std::vector<FileClockEvent> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    FileClockEvent e;
    e.event.kind = q.ColumnText(0);
    e.event.before = q.ColumnInt(1);
    e.event.after = q.ColumnInt(2);
    e.event.line = q.ColumnInt(3);
    e.event.file = q.ColumnText(4);
    e.machines = q.ColumnText(5);
    e.kinds = q.ColumnText(6);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace vrecon
