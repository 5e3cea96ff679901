#include "src/store/ready_rows.h"

#include "src/store/array_literal.h"

namespace vrecon {

ReadyRows::ReadyRows(Store* store)
    : store_(store),
      held_(store->db()->backend() == Backend::kPostgres),
      days_(ReadyDayInsert(store->db())),
      summaries_(ReadyUpsert(store->db())) {}

Status ReadyRows::ReplaceDays(int64_t vm_id, const std::string& source, TimeNs from_day,
                              const std::map<TimeNs, std::string>& days) {
  if (!held_) return ReplaceReadyDays(store_, vm_id, source, from_day, days);
  // A VM and source given twice before a Flush would meet itself in one statement.
  if (!seen_.insert({vm_id, source}).second) {
    RETURN_IF_ERROR(Flush());
    seen_.insert({vm_id, source});
  }
  replaced_[from_day].emplace_back(vm_id, source);
  for (const auto& [day, blob] : days) days_.Add({vm_id, source, static_cast<int64_t>(day), RowBatch::Blob{blob}});
  return Status::Ok();
}

Status ReadyRows::Upsert(int64_t vm_id, const StoredReady& r) {
  if (!held_) return UpsertReady(store_, vm_id, r);
  if (!summarised_.insert({vm_id, r.source}).second) {  // as in ReplaceDays
    RETURN_IF_ERROR(summaries_.Flush());
    summarised_ = {{vm_id, r.source}};
  }
  summaries_.Add(ReadyRow(vm_id, r));
  if (summaries_.held() < RowBatch::kRowsPerStatement) return Status::Ok();
  summarised_.clear();
  return summaries_.Flush();
}

Status ReadyRows::Flush() {
  // The days from each first day go, then the new days.
  for (const auto& [from_day, keys] : replaced_) {
    std::vector<int64_t> ids;
    std::vector<std::string> sources;
    for (const auto& [id, source] : keys) {
      ids.push_back(id);
      sources.push_back(source);
    }
    ASSIGN_OR_RETURN(Statement * d, store_->db()->Cached("DELETE FROM corr_ready_day WHERE day_ns >= ? AND (vm_id, "
                                                         "source) IN (SELECT * FROM unnest(?::bigint[], ?::text[]))"));
    RETURN_IF_ERROR(
        d->Bind(1, static_cast<int64_t>(from_day)).Bind(2, ArrayLiteral(ids)).Bind(3, TextArrayLiteral(sources)).Run());
  }
  replaced_.clear();
  seen_.clear();
  summarised_.clear();
  RETURN_IF_ERROR(days_.Flush());
  return summaries_.Flush();
}

}  // namespace vrecon
