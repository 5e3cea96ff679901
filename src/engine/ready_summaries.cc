#include "src/engine/ready_summaries.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/ready_digest.h"
#include "src/engine/ready_digest_codec.h"
#include "src/engine/ready_job.h"
#include "src/store/ready_rows.h"
#include "src/store/ready_tables.h"

namespace vrecon {
namespace {

std::optional<double> Share(const models::Summary& s, size_t i) {
  if (s.samples == 0 || i >= s.share_above.size()) return std::nullopt;
  return s.share_above[i];
}

StoredReady ToStoredReady(const models::VmReadySummary& v) {
  StoredReady r;
  r.source = v.source;
  r.host = v.host;
  r.vcpus = v.vcpus;
  r.samples = v.samples;
  r.ready_mean = v.ready.mean;
  r.ready_p95 = v.ready.p95;
  r.ready_above_5 = Share(v.ready, 0);
  r.ready_above_10 = Share(v.ready, 1);
  r.costop_mean = v.costop.mean;
  r.costop_p95 = v.costop.p95;
  r.costop_above_3 = Share(v.costop, 0);
  r.run_mean = v.run_mean;
  r.wait_mean = v.wait_mean;
  r.usage_mean = v.usage_mean;
  if (v.wait_per_dispatch_us) {
    r.wait_dispatch_us_mean = v.wait_per_dispatch_us->mean;
    r.wait_dispatch_us_p95 = v.wait_per_dispatch_us->p95;
  }
  if (v.host_load) {
    r.host_load_mean = v.host_load->mean;
    r.host_load_p95 = v.host_load->p95;
  }
  for (const models::Hint& h : v.hints) r.hints.push_back({h.code, h.severity, h.message});
  return r;
}

StatusOr<int64_t> VmId(Store* store, const VmEntry& e, const models::ReadyInput& in,
                       std::map<std::string, int64_t>* ids) {
  if (auto it = ids->find(e.key); it != ids->end()) return it->second;
  CorrVm vm;
  vm.vm = e.name;
  vm.vm_key = e.key;
  vm.vm_source = e.source;
  vm.host_source = in.source;
  vm.vcpus = in.vcpus;
  ASSIGN_OR_RETURN(const int64_t id, UpsertCorrVm(store, vm));
  ids->emplace(e.key, id);
  return id;
}

// A day's stored digest and how far its samples reach (nullopt: stored before reaches were kept).
struct StoredDay {
  models::ReadyDigest digest;
  std::optional<TimeNs> reach;
};

// What one VM and source has stored, decoded: its total and its days from the batch's first on.
struct StoredSummary {
  models::ReadyDigest total;
  std::map<TimeNs, StoredDay> days;
};

// What a batch of VMs with a total has stored (LoadReadyDigests), read before they are visited:
// their ids, and by (id, source) what is stored from `from_day` (a day before the update's
// first, so that a sample crossing into the update's first day finds the day it started in).
struct ReadBatch {
  std::set<int64_t> ids;
  TimeNs from_day = 0;
  std::map<std::pair<int64_t, std::string>, StoredSummary> stored;
};

StatusOr<StoredSummary> DecodeStored(const StoredReadyDigests& blobs) {
  StoredSummary out;
  if (blobs.total) {
    ASSIGN_OR_RETURN(out.total, DecodeReadyDigest(*blobs.total));
  }
  for (const auto& [day, blob] : blobs.days) {
    StoredDay d;
    ASSIGN_OR_RETURN(d.digest, DecodeReadyDigest(blob, &d.reach));
    out.days.emplace(day, std::move(d));
  }
  return out;
}

// Where a VM's new samples can be added to its stored days rather than its days read again: after
// the latest reach of the days it has stored, when every one of them records its reach and every
// sample the caller stored (`new_from`: the earliest end among them) ends after that point. Any
// sample that ends before it was in the store when those digests were made.
std::optional<TimeNs> FoldPoint(const StoredSummary& s, std::optional<TimeNs> new_from) {
  if (!new_from || s.days.empty()) return std::nullopt;
  TimeNs latest = std::numeric_limits<TimeNs>::min();
  for (const auto& [day, d] : s.days) {
    if (!d.reach) return std::nullopt;
    latest = std::max(latest, *d.reach);
  }
  if (*new_from <= latest) return std::nullopt;
  return latest;
}

// The VM's total without the days from `from` on: what stays as it is.
// `has_total`: the VM and source had a stored total when the update began (a new VM has none, and
// its total is not read for nothing).
StatusOr<models::ReadyDigest> TotalBefore(Store* store, int64_t id, const std::string& source, TimeNs from,
                                          const ReadBatch& batch, bool has_total) {
  if (!has_total) return models::ReadyDigest{};
  if (batch.ids.contains(id) && batch.from_day <= from) {
    auto it = batch.stored.find({id, source});
    if (it == batch.stored.end()) return models::ReadyDigest{};
    models::ReadyDigest total = it->second.total;
    for (const auto& [day, d] : it->second.days)
      if (day >= from) total.Merge(d.digest, -1);
    return total;
  }
  models::ReadyDigest total;
  ASSIGN_OR_RETURN(const std::optional<std::string> stored, LoadReadyTotal(store, id, source));
  if (!stored) return total;
  ASSIGN_OR_RETURN(const auto days, LoadReadyDays(store, id, source, from));
  ASSIGN_OR_RETURN(total, DecodeReadyDigest(*stored));
  for (const auto& [day, blob] : days) {
    ASSIGN_OR_RETURN(models::ReadyDigest d, DecodeReadyDigest(blob));
    total.Merge(d, -1);
  }
  return total;
}

Status WriteSummary(ReadyRows* rows, int64_t id, const models::ReadyInput& in, const models::ReadyDigest& total) {
  models::VmReadySummary summary = models::SummarizeDigest(total, in);  // named as `in`
  StoredReady r = ToStoredReady(summary);
  r.digest = EncodeReadyDigest(total);
  return rows->Upsert(id, r);
}

// The days from `from` on, digested again from all their samples (`in` holds them).
Status ReplaceDays(Store* store, ReadyRows* rows, int64_t id, const models::ReadyInput& in, TimeNs from,
                   const ReadBatch& batch, bool has_total) {
  ASSIGN_OR_RETURN(models::ReadyDigest total, TotalBefore(store, id, in.source, from, batch, has_total));
  std::map<TimeNs, std::string> days;
  for (const auto& [day, part] : models::SplitByDay(in)) {
    if (day < from) continue;  // a sample overlapping `from` from the day before: that day stays
    const models::ReadyDigest d = models::DigestReady(part);
    total.Merge(d);
    days.emplace(day, EncodeReadyDigest(d, models::LatestEnd(part)));
  }
  RETURN_IF_ERROR(rows->ReplaceDays(id, in.source, from, days));
  return WriteSummary(rows, id, in, total);
}

// The samples after `after` (FoldPoint) added to the stored days and total: a round reads a
// round's worth of samples, not its whole day.
Status FoldIntoDays(ReadyRows* rows, int64_t id, models::ReadyInput&& in, TimeNs after, const StoredSummary& stored,
                    TimeNs first_day) {
  models::KeepEndingAfter(&in, after);
  models::ReadyDigest total = stored.total;
  std::map<TimeNs, std::string> days;
  for (const auto& [day, part] : models::SplitByDay(in)) {
    if (day < first_day) continue;  // begun over a day before the stored days: not kept, as above
    models::ReadyDigest d = models::DigestReady(part);
    total.Merge(d);
    std::optional<TimeNs> reach = models::LatestEnd(part);
    if (auto it = stored.days.find(day); it != stored.days.end()) {
      d.Merge(it->second.digest);
      reach = std::max(reach, it->second.reach);
    }
    days.emplace(day, EncodeReadyDigest(d, reach));
  }
  // The days from the first changed one on are written again: a stored one in between that took
  // nothing new (a sample begun the day before, a series of another phase) as it was.
  if (!days.empty()) {
    for (auto it = stored.days.lower_bound(days.begin()->first); it != stored.days.end(); ++it)
      days.try_emplace(it->first, EncodeReadyDigest(it->second.digest, it->second.reach));
    RETURN_IF_ERROR(rows->ReplaceDays(id, in.source, days.begin()->first, days));
  }
  return WriteSummary(rows, id, in, total);
}

Status UpdateVm(Store* store, ReadyRows* rows, const VmEntry& e, models::ReadyInput&& in, TimeNs from,
                std::optional<TimeNs> fold, std::map<std::string, int64_t>* ids, const ReadBatch& batch,
                bool has_total) {
  ASSIGN_OR_RETURN(const int64_t id, VmId(store, e, in, ids));
  if (fold) {
    if (auto it = batch.stored.find({id, in.source}); batch.ids.contains(id) && it != batch.stored.end())
      return FoldIntoDays(rows, id, std::move(in), *fold, it->second, batch.from_day);
  }
  return ReplaceDays(store, rows, id, in, from, batch, has_total);
}

}  // namespace

Status UpdateReadySummaries(Store* store, const ReadySummaryUpdate& u, std::map<std::string, int64_t>* ids) {
  ASSIGN_OR_RETURN(auto with_total, ReadySummariesWithDigest(store, u.vm_keys));
  const TimeNs kept_from = u.kept_from ? FloorTo(*u.kept_from, kNsPerDay) : std::numeric_limits<TimeNs>::min();
  const TimeNs asked_from = u.from ? std::max(FloorTo(*u.from, kNsPerDay), kept_from) : kept_from;
  auto from_of = [&](const std::string& key, const std::string& source) {
    return with_total.contains({key, source}) ? asked_from : kept_from;
  };
  ReadyRequest req;
  req.vm = u.vm;
  req.vm_keys = u.vm_keys;
  req.view = u.view;
  ReadBatch batch;
  ReadyRows rows(store);
  std::map<std::pair<std::string, std::string>, TimeNs> folds;  // (vm_key, source) -> FoldPoint
  auto fold_of = [&](const std::string& key, const std::string& source) -> std::optional<TimeNs> {
    auto it = folds.find({key, source});
    return it == folds.end() ? std::nullopt : std::optional<TimeNs>(it->second);
  };
  Status s = ForEachReadyInput(
      store, req,
      [&](const std::string& key, const std::string& source) {
        TimeRange r;
        r.from = fold_of(key, source).value_or(from_of(key, source));
        return r;
      },
      [&](const VmEntry& e, models::ReadyInput&& in) {
        const TimeNs from = from_of(e.key, in.source);
        const std::optional<TimeNs> fold = fold_of(e.key, in.source);
        const bool has_total = with_total.contains({e.key, in.source});
        return UpdateVm(store, &rows, e, std::move(in), from, fold, ids, batch, has_total);
      },
      [&](const std::vector<std::pair<const VmEntry*, std::string>>& vms) -> Status {
        // The last batch's writes go out, then the stored totals and days of this batch's VMs with
        // a total are read, in two queries.
        RETURN_IF_ERROR(rows.Flush());
        batch = ReadBatch{};
        folds.clear();
        batch.from_day = asked_from == std::numeric_limits<TimeNs>::min() ? asked_from : asked_from - kNsPerDay;
        std::map<int64_t, const VmEntry*> by_id;
        for (const auto& [e, source] : vms)
          if (auto it = ids->find(e->key); it != ids->end() && with_total.contains({e->key, source})) {
            batch.ids.insert(it->second);
            by_id[it->second] = e;
          }
        ASSIGN_OR_RETURN(auto blobs, LoadReadyDigests(store, std::vector<int64_t>(batch.ids.begin(), batch.ids.end()),
                                                      batch.from_day));
        for (const auto& [id_source, b] : blobs) {
          ASSIGN_OR_RETURN(StoredSummary stored, DecodeStored(b));
          if (auto fold = FoldPoint(stored, u.new_from); fold && by_id.contains(id_source.first))
            folds[{by_id[id_source.first]->key, id_source.second}] = *fold;
          batch.stored.emplace(id_source, std::move(stored));
        }
        return Status::Ok();
      });
  if (!s.ok() && s.code() != Status::Code::kNotFound) return s;
  return rows.Flush();
}

}  // namespace vrecon
