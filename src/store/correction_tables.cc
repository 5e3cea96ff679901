#include "src/store/correction_tables.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "src/store/blob_codec.h"
#include "src/store/event_aggregates.h"
#include "src/store/keyed_query.h"
#include "src/store/optional_columns.h"

namespace vrecon {
namespace {

std::string Clean(std::string_view s) {
  std::string o(s);
  for (char& c : o)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return o;
}

using blob::Put;
using blob::Take;

}  // namespace

void ProcessAggregate::Add(const ProcessAggregate& o) {
  n_guest += o.n_guest;
  n_corr += o.n_corr;
  sum_guest += o.sum_guest;
  sum_corr += o.sum_corr;
  sum_hw2 += o.sum_hw2;
  n_events += o.n_events;
  n_bottleneck += o.n_bottleneck;
  n_queue += o.n_queue;
  n_paired += o.n_paired;
  sum_bottleneck += o.sum_bottleneck;
  sum_queue_ms += o.sum_queue_ms;
  sum_sampled += o.sum_sampled;
  sum_paired_events += o.sum_paired_events;
  if (o.max_queue_p95) max_queue_p95 = std::max(max_queue_p95.value_or(*o.max_queue_p95), *o.max_queue_p95);
}
namespace {
std::optional<double> MeanOf(double sum, int64_t n) {
  return n > 0 ? std::optional<double>(sum / static_cast<double>(n)) : std::nullopt;
}
}  // namespace
const char* ProcessAggregate::Basis() const {
  if (n_events == 0) return "samples";
  return n_events >= n_guest ? "events" : "mixed";
}
std::optional<double> ProcessAggregate::MeanBottleneck() const { return MeanOf(sum_bottleneck, n_bottleneck); }
std::optional<double> ProcessAggregate::MeanQueueMs() const { return MeanOf(sum_queue_ms, n_queue); }
std::optional<double> ProcessAggregate::MeanSampled() const { return MeanOf(sum_sampled, n_paired); }
std::optional<double> ProcessAggregate::MeanPairedEvents() const { return MeanOf(sum_paired_events, n_paired); }
std::optional<double> ProcessAggregate::MeanGuest() const {
  if (n_guest == 0) return std::nullopt;
  return sum_guest / static_cast<double>(n_guest);
}
std::optional<double> ProcessAggregate::MeanCorrected() const {
  if (n_corr == 0) return std::nullopt;
  return sum_corr / static_cast<double>(n_corr);
}
std::optional<double> ProcessAggregate::HalfWidth95() const {
  if (n_corr == 0) return std::nullopt;
  return std::sqrt(sum_hw2) / static_cast<double>(n_corr);
}

std::string EncodeFlags(const std::vector<StoredFlag>& flags) {
  std::string out;
  for (const StoredFlag& f : flags)
    out += Clean(SeverityName(f.severity)) + "\t" + Clean(f.code) + "\t" + Clean(f.message) + "\n";
  return out;
}

std::vector<StoredFlag> DecodeFlags(std::string_view text) {
  std::vector<StoredFlag> out;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    const size_t t1 = line.find('\t');
    const size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string_view::npos) continue;
    // Only this program writes these; an unknown severity (a store edited by hand) keeps the flag.
    out.push_back({std::string(line.substr(t1 + 1, t2 - t1 - 1)),
                   ParseSeverity(line.substr(0, t1)).value_or(Severity::kWarning), std::string(line.substr(t2 + 1))});
  }
  return out;
}

std::string EncodeProcesses(const std::vector<ProcessAggregate>& procs) {
  std::string out;
  for (const ProcessAggregate& p : procs) {
    const uint16_t n = static_cast<uint16_t>(std::min<size_t>(p.name.size(), 65535));
    Put(&out, n);
    out.append(p.name.data(), n);
    Put(&out, p.n_guest);
    Put(&out, p.n_corr);
    Put(&out, p.sum_guest);
    Put(&out, p.sum_corr);
    Put(&out, p.sum_hw2);
  }
  return out;
}

StatusOr<std::vector<ProcessAggregate>> DecodeProcesses(std::string_view in) {
  std::vector<ProcessAggregate> out;
  while (!in.empty()) {
    ProcessAggregate p;
    uint16_t n = 0;
    if (!Take(&in, &n) || in.size() < n) return Status::ParseError("corrupt process aggregate blob");
    p.name.assign(in.data(), n);
    in.remove_prefix(n);
    if (!Take(&in, &p.n_guest) || !Take(&in, &p.n_corr) || !Take(&in, &p.sum_guest) || !Take(&in, &p.sum_corr) ||
        !Take(&in, &p.sum_hw2))
      return Status::ParseError("corrupt process aggregate blob");
    out.push_back(std::move(p));
  }
  return out;
}

namespace {

constexpr const char* kCorrVmInsert =
    "INSERT INTO corr_vm(vm_key, vm, vm_source, guest_machine, host_source, vcpus, stored_at, host_counter) VALUES";
constexpr const char* kCorrVmOnConflict =
    " ON CONFLICT(vm_key) DO UPDATE SET vm = excluded.vm, vm_source = excluded.vm_source, "
    "guest_machine = excluded.guest_machine, host_source = excluded.host_source, "
    "vcpus = excluded.vcpus, stored_at = excluded.stored_at, host_counter = excluded.host_counter";

}  // namespace

RowBatch CorrVmUpsert(Database* db) { return RowBatch(db, kCorrVmInsert, kCorrVmOnConflict, 8); }

// A VM whose values did not change keeps its row, stored_at included: a fleet round recomputes
// every VM it collected, and rewriting each unchanged row was, on PostgreSQL, a new row version
// and an entry in each of the table's indexes a VM and round.
RowBatch CorrVmRewrite(Database* db) {
  return RowBatch(db, kCorrVmInsert,
                  std::string(kCorrVmOnConflict) +
                      " WHERE (corr_vm.vm, corr_vm.vm_source, corr_vm.guest_machine, corr_vm.host_source, "
                      "corr_vm.vcpus, corr_vm.host_counter) IS DISTINCT FROM (excluded.vm, excluded.vm_source, "
                      "excluded.guest_machine, excluded.host_source, excluded.vcpus, excluded.host_counter)",
                  8);
}

std::vector<RowBatch::Value> CorrVmRow(const CorrVm& vm) {
  std::vector<RowBatch::Value> row;
  row.reserve(8);
  row.emplace_back(vm.vm_key);
  row.emplace_back(vm.vm);
  row.emplace_back(vm.vm_source);
  row.emplace_back(vm.guest_machine);
  row.emplace_back(vm.host_source);
  row.push_back(OptValue(vm.vcpus));
  row.emplace_back(NowIso());
  row.emplace_back(vm.host_counter);
  return row;
}

StatusOr<int64_t> UpsertCorrVm(Store* store, const CorrVm& vm) {
  RowBatch upsert = CorrVmUpsert(store->db());
  upsert.Add(CorrVmRow(vm));
  std::optional<int64_t> id;
  RETURN_IF_ERROR(upsert.FlushReturning(" RETURNING id", [&](const Statement& q) { id = q.ColumnInt(0); }));
  if (!id) return Status::Internal("the corr_vm upsert of " + vm.vm_key + " gave no id");
  return *id;
}

Status RewriteCorrVm(Store* store, const CorrVm& vm) {
  RowBatch rewrite = CorrVmRewrite(store->db());
  rewrite.Add(CorrVmRow(vm));
  return rewrite.Flush();
}

StatusOr<std::map<std::string, int64_t>> UpsertCorrVms(Store* store, const std::vector<CorrVm>& vms) {
  RowBatch upsert = CorrVmUpsert(store->db());
  for (const CorrVm& vm : vms) upsert.Add(CorrVmRow(vm));
  std::map<std::string, int64_t> ids;
  RETURN_IF_ERROR(upsert.FlushReturning(" RETURNING id, vm_key",
                                        [&](const Statement& q) { ids[q.ColumnText(1)] = q.ColumnInt(0); }));
  for (const CorrVm& vm : vms)
    if (!ids.contains(vm.vm_key)) return Status::Internal("the corr_vm upsert of " + vm.vm_key + " gave no id");
  return ids;
}

Status DeleteProcessHours(Store* store, int64_t vm_id, TimeNs from, TimeNs to) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement * s,
                   db->Cached("DELETE FROM corr_process_hour WHERE vm_id = ?1 AND hour_ns >= ?2 AND hour_ns < ?3"));
  s->Bind(1, vm_id).Bind(2, static_cast<int64_t>(from)).Bind(3, static_cast<int64_t>(to));
  return s->Run();
}

RowBatch ProcessHourUpsert(Database* db) {
  return RowBatch(db, "INSERT INTO corr_process_hour(vm_id, hour_ns, procs, events) VALUES",
                  " ON CONFLICT(vm_id, hour_ns) DO UPDATE SET procs = excluded.procs, events = excluded.events", 4);
}

std::vector<RowBatch::Value> ProcessHourRow(int64_t vm_id, TimeNs hour, const std::vector<ProcessAggregate>& procs) {
  return {vm_id, static_cast<int64_t>(hour), RowBatch::Blob{EncodeProcesses(procs)},
          RowBatch::Blob{EncodeEventAggregates(procs)}};
}

Status InsertProcessHour(Store* store, int64_t vm_id, TimeNs hour, const std::vector<ProcessAggregate>& procs) {
  RowBatch upsert = ProcessHourUpsert(store->db());
  upsert.Add(ProcessHourRow(vm_id, hour, procs));
  return upsert.Flush();
}

StatusOr<std::vector<CorrVm>> ListCorrVms(Store* store, const std::optional<std::set<std::string>>& vm_keys) {
  Database* db = store->db();
  constexpr const char* kColumns =
      "SELECT id, vm, guest_machine, host_source, vcpus, vm_key, vm_source, host_counter FROM corr_vm";
  std::vector<CorrVm> out;
  auto take = [&out](Statement* q) -> Status {
    for (;;) {
      ASSIGN_OR_RETURN(bool row, q->Step());
      if (!row) break;
      out.push_back({q->ColumnInt(0), q->ColumnText(1), q->ColumnText(2), q->ColumnText(3), OptInt(*q, 4),
                     q->ColumnText(5), q->ColumnText(6), q->ColumnText(7)});
    }
    return Status::Ok();
  };
  if (!vm_keys) {
    ASSIGN_OR_RETURN(Statement q, db->Prepare(std::string(kColumns) + " ORDER BY vm, vm_key"));
    RETURN_IF_ERROR(take(&q));
    return out;
  }
  const std::vector<std::string> keys(vm_keys->begin(), vm_keys->end());
  RETURN_IF_ERROR(QueryByKeys(db, std::string(kColumns) + " WHERE ", {{"vm_key", &keys}}, take));
  std::sort(out.begin(), out.end(),
            [](const CorrVm& a, const CorrVm& b) { return std::tie(a.vm, a.vm_key) < std::tie(b.vm, b.vm_key); });
  return out;
}

StatusOr<int64_t> CountSeries(Store* store) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT count(*) FROM series"));
  ASSIGN_OR_RETURN(bool row, q.Step());
  return row ? q.ColumnInt(0) : 0;
}

namespace {

using MergedProcesses = std::map<std::string, ProcessAggregate, std::less<>>;

// A process hour's blob (EncodeProcesses' layout) added to `merged`, by process, decoded in place
// and looked up by string_view: a week is 168 blobs per VM.
Status MergeProcesses(std::string_view in, MergedProcesses* merged) {
  while (!in.empty()) {
    uint16_t n = 0;
    if (!Take(&in, &n) || in.size() < n) return Status::ParseError("corrupt process aggregate blob");
    const std::string_view name = in.substr(0, n);
    in.remove_prefix(n);
    ProcessAggregate p;
    if (!Take(&in, &p.n_guest) || !Take(&in, &p.n_corr) || !Take(&in, &p.sum_guest) || !Take(&in, &p.sum_corr) ||
        !Take(&in, &p.sum_hw2))
      return Status::ParseError("corrupt process aggregate blob");
    auto it = merged->find(name);
    if (it == merged->end()) {
      it = merged->emplace(std::string(name), ProcessAggregate{}).first;
      it->second.name = std::string(name);
    }
    it->second.Add(p);
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::map<TimeNs, std::vector<ProcessAggregate>>> LoadProcessDays(Store* store, int64_t vm_id, TimeNs from,
                                                                          TimeNs to) {
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached("SELECT hour_ns, procs FROM corr_process_hour WHERE vm_id = ? "
                                                      "AND hour_ns >= ? AND hour_ns < ? ORDER BY hour_ns"));
  q->Bind(1, vm_id).Bind(2, static_cast<int64_t>(from)).Bind(3, static_cast<int64_t>(to));
  std::map<TimeNs, MergedProcesses> days;
  for (;;) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    RETURN_IF_ERROR(MergeProcesses(q->ColumnBlob(1), &days[FloorTo(q->ColumnInt(0), kNsPerDay)]));
  }
  std::map<TimeNs, std::vector<ProcessAggregate>> out;
  for (auto& [day, merged] : days)
    for (auto& [name, p] : merged) out[day].push_back(std::move(p));
  return out;
}

StatusOr<std::vector<ProcessAggregate>> LoadProcessAggregates(Store* store, int64_t vm_id, TimeNs from, TimeNs to) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement * q, db->Cached("SELECT procs, events FROM corr_process_hour WHERE vm_id = ?1 AND "
                                             "hour_ns > ?2 AND hour_ns < ?3 ORDER BY hour_ns"));
  // An hour overlaps [from, to) when hour < to and hour + 1 h > from.
  const TimeNs after =
      from < std::numeric_limits<TimeNs>::min() + kNsPerHour ? std::numeric_limits<TimeNs>::min() : from - kNsPerHour;
  q->Bind(1, vm_id).Bind(2, static_cast<int64_t>(after)).Bind(3, static_cast<int64_t>(to));
  MergedProcesses merged;
  for (;;) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    RETURN_IF_ERROR(MergeProcesses(q->ColumnBlob(0), &merged));
    RETURN_IF_ERROR(DecodeEventAggregates(q->ColumnBlob(1), [&](std::string_view name) -> ProcessAggregate* {
      auto it = merged.find(name);
      return it == merged.end() ? nullptr : &it->second;
    }));
  }
  std::vector<ProcessAggregate> out;
  out.reserve(merged.size());
  for (auto& [name, p] : merged) out.push_back(std::move(p));
  auto key = [](const ProcessAggregate& p) { return p.MeanCorrected().value_or(p.MeanGuest().value_or(-1)); };
  std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) { return key(a) > key(b); });
  return out;
}

namespace {

constexpr const char* kReadyColumns =
    "source, host, vcpus, samples, ready_mean, ready_p95, ready_above_5, ready_above_10, costop_mean, costop_p95, "
    "costop_above_3, run_mean, wait_mean, usage_mean, wait_dispatch_us_mean, wait_dispatch_us_p95, host_load_mean, "
    "host_load_p95, hints";

// The row's kReadyColumns from column `first` on.
StoredReady ReadyRow(const Statement& q, int first) {
  StoredReady r;
  r.source = q.ColumnText(first);
  r.host = q.ColumnText(first + 1);
  r.vcpus = OptInt(q, first + 2);
  r.samples = q.ColumnInt(first + 3);
  int i = first + 4;
  for (auto* v : {&r.ready_mean, &r.ready_p95, &r.ready_above_5, &r.ready_above_10, &r.costop_mean, &r.costop_p95,
                  &r.costop_above_3, &r.run_mean, &r.wait_mean, &r.usage_mean, &r.wait_dispatch_us_mean,
                  &r.wait_dispatch_us_p95, &r.host_load_mean, &r.host_load_p95})
    *v = OptDouble(q, i++);
  r.hints = DecodeFlags(q.ColumnBlob(i));
  return r;
}

}  // namespace

StatusOr<std::vector<StoredReady>> LoadReady(Store* store, int64_t vm_id) {
  ASSIGN_OR_RETURN(Statement * q, store->db()->Cached(std::string("SELECT ") + kReadyColumns +
                                                      " FROM corr_ready WHERE vm_id = ?1 ORDER BY source"));
  q->Bind(1, vm_id);
  std::vector<StoredReady> out;
  for (;;) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) return out;
    out.push_back(ReadyRow(*q, 0));
  }
}

StatusOr<std::multimap<int64_t, StoredReady>> LoadAllReady(Store* store) {
  ASSIGN_OR_RETURN(Statement q, store->db()->Prepare(std::string("SELECT vm_id, ") + kReadyColumns +
                                                     " FROM corr_ready ORDER BY vm_id, source"));
  std::multimap<int64_t, StoredReady> out;
  for (;;) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) return out;
    out.emplace_hint(out.end(), q.ColumnInt(0), ReadyRow(q, 1));
  }
}

}  // namespace vrecon
