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

// What a batch of VMs has stored (LoadReadyDigests), read before they are visited: the VM ids
// it was read for, and by (id, source) the sources with a total.
struct ReadBatch {
  std::set<int64_t> ids;
  TimeNs from_day = 0;
  std::map<std::pair<int64_t, std::string>, StoredReadyDigests> digests;
};

// The VM's total without the days from `from` on: what stays as it is.
StatusOr<models::ReadyDigest> TotalBefore(Store* store, int64_t id, const std::string& source, TimeNs from,
                                          const ReadBatch& batch) {
  models::ReadyDigest total;
  std::optional<std::string> stored;
  std::map<TimeNs, std::string> days;
  if (batch.ids.contains(id) && batch.from_day == from) {
    if (auto it = batch.digests.find({id, source}); it != batch.digests.end()) {
      stored = it->second.total;
      days = it->second.days;
    }
  } else {
    ASSIGN_OR_RETURN(stored, LoadReadyTotal(store, id, source));
    if (stored) {
      ASSIGN_OR_RETURN(days, LoadReadyDays(store, id, source, from));
    }
  }
  if (!stored) return total;
  ASSIGN_OR_RETURN(total, DecodeReadyDigest(*stored));
  for (const auto& [day, blob] : days) {
    ASSIGN_OR_RETURN(models::ReadyDigest d, DecodeReadyDigest(blob));
    total.Merge(d, -1);
  }
  return total;
}

Status UpdateVm(Store* store, const VmEntry& e, models::ReadyInput&& in, TimeNs from,
                std::map<std::string, int64_t>* ids, const ReadBatch& batch) {
  ASSIGN_OR_RETURN(const int64_t id, VmId(store, e, in, ids));
  ASSIGN_OR_RETURN(models::ReadyDigest total, TotalBefore(store, id, in.source, from, batch));
  std::map<TimeNs, std::string> days;
  for (const auto& [day, part] : models::SplitByDay(in)) {
    if (day < from) continue;  // a sample overlapping `from` from the day before: that day stays
    const models::ReadyDigest d = models::DigestReady(part);
    total.Merge(d);
    days.emplace(day, EncodeReadyDigest(d));
  }
  RETURN_IF_ERROR(ReplaceReadyDays(store, id, in.source, from, days));
  models::VmReadySummary summary = models::SummarizeDigest(total, in);  // named as `in`
  StoredReady r = ToStoredReady(summary);
  r.digest = EncodeReadyDigest(total);
  return UpsertReady(store, id, r);
}

}  // namespace

Status UpdateReadySummaries(Store* store, const ReadySummaryUpdate& u, std::map<std::string, int64_t>* ids) {
  ASSIGN_OR_RETURN(auto with_total, ReadySummariesWithDigest(store));
  const TimeNs kept_from = u.kept_from ? FloorTo(*u.kept_from, kNsPerDay) : std::numeric_limits<TimeNs>::min();
  const TimeNs asked_from = u.from ? std::max(FloorTo(*u.from, kNsPerDay), kept_from) : kept_from;
  auto from_of = [&](const std::string& key, const std::string& source) {
    return with_total.contains({key, source}) ? asked_from : kept_from;
  };
  ReadyRequest req;
  req.vm = u.vm;
  req.vm_keys = u.vm_keys;
  ReadBatch batch;
  Status s = ForEachReadyInput(
      store, req,
      [&](const std::string& key, const std::string& source) {
        TimeRange r;
        r.from = from_of(key, source);
        return r;
      },
      [&](const VmEntry& e, models::ReadyInput&& in) {
        const TimeNs from = from_of(e.key, in.source);
        return UpdateVm(store, e, std::move(in), from, ids, batch);
      },
      [&](const std::vector<std::pair<const VmEntry*, std::string>>& vms) -> Status {
        // The stored totals and days of the batch's VMs with a total, in two queries.
        batch = ReadBatch{};
        batch.from_day = asked_from;
        for (const auto& [e, source] : vms)
          if (auto it = ids->find(e->key); it != ids->end() && with_total.contains({e->key, source}))
            batch.ids.insert(it->second);
        ASSIGN_OR_RETURN(batch.digests,
                         LoadReadyDigests(store, std::vector<int64_t>(batch.ids.begin(), batch.ids.end()), asked_from));
        return Status::Ok();
      });
  return s.code() == Status::Code::kNotFound ? Status::Ok() : s;
}

}  // namespace vrecon
