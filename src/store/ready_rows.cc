#include "src/store/ready_rows.h"

#include "src/store/array_literal.h"

namespace vrecon {
namespace {

RowBatch::Value Opt(const std::optional<double>& v) { return v ? RowBatch::Value(*v) : RowBatch::Value(); }

}  // namespace

ReadyRows::ReadyRows(Store* store)
    : store_(store),
      held_(store->db()->backend() == Backend::kPostgres),
      days_(store->db(), "INSERT INTO corr_ready_day(vm_id, source, day_ns, digest) VALUES", "", 4),
      summaries_(store->db(),
                 "INSERT INTO corr_ready(vm_id, source, host, vcpus, samples, ready_mean, ready_p95, ready_above_5, "
                 "ready_above_10, costop_mean, costop_p95, costop_above_3, run_mean, wait_mean, usage_mean, "
                 "wait_dispatch_us_mean, wait_dispatch_us_p95, host_load_mean, host_load_p95, hints, digest) VALUES",
                 " ON CONFLICT(vm_id, source) DO UPDATE SET host = excluded.host, vcpus = excluded.vcpus, "
                 "samples = excluded.samples, ready_mean = excluded.ready_mean, ready_p95 = excluded.ready_p95, "
                 "ready_above_5 = excluded.ready_above_5, ready_above_10 = excluded.ready_above_10, "
                 "costop_mean = excluded.costop_mean, costop_p95 = excluded.costop_p95, "
                 "costop_above_3 = excluded.costop_above_3, run_mean = excluded.run_mean, "
                 "wait_mean = excluded.wait_mean, usage_mean = excluded.usage_mean, "
                 "wait_dispatch_us_mean = excluded.wait_dispatch_us_mean, "
                 "wait_dispatch_us_p95 = excluded.wait_dispatch_us_p95, host_load_mean = excluded.host_load_mean, "
                 "host_load_p95 = excluded.host_load_p95, hints = excluded.hints, digest = excluded.digest",
                 21) {}

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
  std::vector<RowBatch::Value> row = {vm_id, r.source, r.host};
  row.push_back(r.vcpus ? RowBatch::Value(static_cast<int64_t>(*r.vcpus)) : RowBatch::Value());
  row.emplace_back(static_cast<int64_t>(r.samples));
  for (const auto* v : {&r.ready_mean, &r.ready_p95, &r.ready_above_5, &r.ready_above_10, &r.costop_mean, &r.costop_p95,
                        &r.costop_above_3, &r.run_mean, &r.wait_mean, &r.usage_mean, &r.wait_dispatch_us_mean,
                        &r.wait_dispatch_us_p95, &r.host_load_mean, &r.host_load_p95})
    row.push_back(Opt(*v));
  row.emplace_back(EncodeFlags(r.hints));
  row.emplace_back(RowBatch::Blob{r.digest});
  summaries_.Add(std::move(row));
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
