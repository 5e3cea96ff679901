#include "src/engine/correction_job.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "models/guest_timeline.h"
#include "models/host_sources.h"
#include "models/vm_identity.h"
#include "src/core/text_util.h"
#include "src/engine/clock_events.h"
#include "src/engine/vm_correction.h"
#include "src/engine/vm_directory.h"
#include "src/engine/vm_plan.h"
#include "src/store/read_snapshot.h"
#include "src/store/sample_reader.h"

namespace vrecon {
namespace {

// The identity on every window, and for a guest that matched several VMs the flag that says so.
void Annotate(const VmEntry& e, std::vector<models::WindowResult>* windows) {
  const std::string candidates = Join(e.ambiguous, ", ");
  for (models::WindowResult& r : *windows) {
    r.vm_key = e.key;
    r.vm_source = e.source;
    r.vm_name_shared = e.name_shared;
    if (e.ambiguous.empty()) continue;
    r.flags.push_back(models::Flag{"ambiguous-vm", Severity::kError,
                                   "guest " + e.name + " matches " + std::to_string(e.ambiguous.size()) +
                                       " VMs by name (" + candidates +
                                       "), so it is corrected against none of them; pin it with --map " + e.name +
                                       "=VM_KEY or a [[map]] entry in the fleet file"});
  }
}

// Windows are listed across gaps up to a day; a longer time without any sample of the VM is left
// out (one flag says so), so the cost follows the data, not the span: a row dated decades away
// costs one window, not millions.
constexpr TimeNs kLongestListedGap = 24 * 3600 * kNsPerSec;

void FlagGap(TimeNs from, TimeNs to, models::WindowResult* first_after) {
  first_after->flags.push_back(models::Flag{"data-gap", Severity::kInfo,
                                            "no sample of this VM from " + FormatIso(from, false) + " to " +
                                                FormatIso(to, false) + " (" + FormatSpan(to - from) +
                                                "); the windows in between are not listed"});
}

// The earliest time a run reads a VM's samples from (nullopt: the whole history): the request's
// start less the guest's widening for the clock search.
std::optional<TimeNs> ReadBound(const CorrectionRequest& req) {
  const TimeNs lag = req.align ? static_cast<TimeNs>(req.alignment.max_lag_s * kNsPerSec) : 0;
  if (!req.from || *req.from < std::numeric_limits<TimeNs>::min() + lag + kLongestListedGap) return std::nullopt;
  return *req.from - lag;
}

// The times the series have samples in from `bound` (BlockReader::Span, then Occupied).
StatusOr<std::optional<std::vector<TimeRange>>> LookFrom(RunContext* ctx, const std::vector<int64_t>& ids,
                                                         TimeNs bound) {
  ctx->reader.Forget();
  ASSIGN_OR_RETURN(std::optional<TimeRange> span, ctx->reader.Span(ids, bound));
  if (!span) return std::optional<std::vector<TimeRange>>();
  ASSIGN_OR_RETURN(std::vector<TimeRange> pieces, ctx->reader.Occupied(ids, kLongestListedGap));
  return std::optional<std::vector<TimeRange>>(std::move(pieces));
}

// Whether the request's start falls before the first piece seen from the read bound: a gap may
// then reach back further (Occupied looks a day more).
bool StartsBeforeFirstPiece(const CorrectionRequest& req, const std::optional<std::vector<TimeRange>>& pieces) {
  return pieces && !pieces->empty() && pieces->front().from > *req.from;
}

// The times the VM's series have samples in (BlockReader::Occupied), or nullopt when none has
// samples in the request's range. With a `from`, only the blocks the run can read are looked at
// (a fleet round's cost must not grow with the days kept): those ending at or after ReadBound.
// When `from` then falls before the first piece, a gap up to kLongestListedGap may separate it
// from earlier samples, whose windows are listed: the blocks of that day are looked at too, and
// the pieces are those the whole history gives.
StatusOr<std::optional<std::vector<TimeRange>>> Occupied(RunContext* ctx, const std::vector<int64_t>& ids) {
  const std::optional<TimeNs> bound = ReadBound(ctx->req);
  if (!bound) return LookFrom(ctx, ids, std::numeric_limits<TimeNs>::min());
  ASSIGN_OR_RETURN(std::optional<std::vector<TimeRange>> pieces, LookFrom(ctx, ids, *bound));
  if (!StartsBeforeFirstPiece(ctx->req, pieces)) return pieces;
  return LookFrom(ctx, ids, *bound - kLongestListedGap);
}

// A VM's clock over several pieces of data: each piece's segments, in time order.
void JoinClocks(std::map<std::string, models::ClockModel>* piece, std::map<std::string, models::ClockModel>* all) {
  for (auto& [key, clock] : *piece) {
    std::vector<models::ClockSegment>& to = (*all)[key].segments;
    to.insert(to.end(), clock.segments.begin(), clock.segments.end());
  }
  piece->clear();
}

// One VM of a run: its guests (one "" without a guest log), per guest a plan per host-side source
// (two where esxtop and vSphere both see it), their series.
struct VmWork {
  const VmEntry* entry = nullptr;
  std::vector<std::string> guests;
  std::vector<std::vector<VmPlan>> plans;
  std::vector<int64_t> ids;
};

// Entry `i`'s plans: one per guest of the VM's guest timeline (a VM without a guest log: one)
// and host-side source.
VmWork PlanVm(const CorrectionRequest& req, const VmDirectory& dir, size_t i,
              const std::vector<const StoredSeries*>& host_series,
              std::unordered_map<std::string, std::vector<const StoredSeries*>>& guest_series) {
  VmWork w;
  w.entry = &dir.entry(i);
  w.guests = w.entry->guests.empty() ? std::vector<std::string>{""} : w.entry->guests;
  const std::vector<std::vector<const StoredSeries*>> sources = HostSourceGroups(host_series);
  w.plans.resize(w.guests.size());
  for (size_t g = 0; g < w.guests.size(); ++g) {
    for (const std::vector<const StoredSeries*>& source : sources) {
      VmPlan& plan = w.plans[g].emplace_back();
      if (!w.guests[g].empty()) PlanGuest(guest_series[dir.GuestId(w.guests[g])], &plan);
      PlanHost(source, req.host_counters, &plan);
      const std::vector<int64_t> own = plan.AllIds();
      w.ids.insert(w.ids.end(), own.begin(), own.end());
    }
  }
  return w;
}

// Guest `g`'s windows over `range`: against each host-side source, joined window by window
// where there are two.
StatusOr<std::vector<models::WindowResult>> CorrectGuest(RunContext* ctx, const VmWork& vm, size_t g,
                                                         const TimeRange& range,
                                                         std::map<std::string, models::ClockModel>* clocks) {
  const std::vector<VmPlan>& plans = vm.plans[g];
  if (plans.size() == 1) return CorrectPlanned(ctx, plans[0], *vm.entry, vm.guests[g], range, clocks);
  std::vector<models::HostSourceWindows> sources(plans.size());
  std::vector<std::map<std::string, models::ClockModel>> source_clocks(plans.size());
  for (size_t i = 0; i < plans.size(); ++i) {
    ASSIGN_OR_RETURN(sources[i].windows, CorrectPlanned(ctx, plans[i], *vm.entry, vm.guests[g], range,
                                                        clocks ? &source_clocks[i] : nullptr, &sources[i].interval_s));
    sources[i].counter = plans[i].host_counter;
  }
  // The guest's clock as aligned against the preferred source.
  if (clocks) clocks->merge(source_clocks[models::HostPreference(sources).front()]);
  return models::JoinHostSources(std::move(sources), ctx->req.config);
}

// One VM's windows over the request's range, piece after piece of the times it has samples in,
// handed to `fn` (nothing when it has none there).
Status CorrectOccupiedPieces(RunContext* ctx, const VmWork& vm, const VmWindowsFn& fn,
                             std::map<std::string, models::ClockModel>* clocks) {
  const CorrectionRequest& req = ctx->req;
  ASSIGN_OR_RETURN(std::optional<std::vector<TimeRange>> occupied, Occupied(ctx, vm.ids));
  if (!occupied) return Status::Ok();
  std::vector<models::WindowResult> windows;
  std::map<std::string, models::ClockModel> piece_clocks;
  std::optional<TimeNs> last_end;  // of the previous piece with windows
  for (TimeRange range : *occupied) {
    if (req.from) range.from = std::max(range.from, *req.from);
    if (req.to) range.to = std::min(range.to, *req.to);
    if (range.to <= range.from) continue;
    std::vector<std::vector<models::WindowResult>> per_guest;
    for (size_t g = 0; g < vm.guests.size(); ++g) {
      ASSIGN_OR_RETURN(std::vector<models::WindowResult> r,
                       CorrectGuest(ctx, vm, g, range, clocks ? &piece_clocks : nullptr));
      per_guest.push_back(std::move(r));
    }
    std::vector<models::WindowResult> piece =
        per_guest.size() == 1 ? std::move(per_guest[0]) : models::JoinGuestTimelines(std::move(per_guest));
    if (piece.empty()) continue;
    if (last_end) FlagGap(*last_end, piece.front().start, &piece.front());
    last_end = piece.back().end;
    std::move(piece.begin(), piece.end(), std::back_inserter(windows));
    if (clocks) JoinClocks(&piece_clocks, clocks);
  }
  if (windows.empty()) return Status::Ok();
  Annotate(*vm.entry, &windows);
  return fn(std::move(windows));
}

// PostgreSQL: the batch's samples from `bound` read in two queries (BlockReader::Prefetch). The
// VMs whose range starts before their first samples (new ones, or back after a gap) look a day
// further back (Occupied): their earlier blocks are listed together, in one more query.
Status ReadAhead(RunContext* ctx, const std::vector<VmWork>& batch, const std::vector<int64_t>& batch_ids,
                 TimeNs bound) {
  RETURN_IF_ERROR(ctx->reader.Prefetch(batch_ids, bound));
  std::vector<int64_t> earlier;
  for (const VmWork& w : batch) {
    ASSIGN_OR_RETURN(std::optional<std::vector<TimeRange>> pieces, LookFrom(ctx, w.ids, bound));
    if (StartsBeforeFirstPiece(ctx->req, pieces)) earlier.insert(earlier.end(), w.ids.begin(), w.ids.end());
  }
  return ctx->reader.PrefetchEarlier(earlier, bound - kLongestListedGap);
}

}  // namespace

Status ForEachVmCorrection(Store* store, const CorrectionRequest& req, const VmWindowsFn& fn,
                           std::map<std::string, models::ClockModel>* clocks) {
  // One snapshot of the store for the run (collectors may write meanwhile), and no lock round trip
  // per query. Not taken when the caller already has a transaction open.
  ReadSnapshot snapshot(store);
  VmViewPtr view = req.view;
  if (!view) {
    ASSIGN_OR_RETURN(auto mappings, MergedMappings(store, req.mappings));
    ASSIGN_OR_RETURN(view, ReadVmView(store, req.vm_keys, mappings));
  }
  const std::vector<StoredSeries>& all = view->series;
  const VmDirectory& dir = view->dir;
  const std::vector<size_t> selected = dir.Select(req.vm, req.vm_keys);
  if (req.vm && selected.empty()) {
    return Status::NotFound("no VM or guest named \"" + *req.vm + "\" in " + store->location() +
                            " (vrecon samples --object Processor lists the guests it holds)");
  }
  RunContext ctx{req, BlockReader(store), {}, {}, {}, {}};
  ASSIGN_OR_RETURN(ctx.recorded, RecordedClockEvents(store));  // the interval flags need them, aligned or not

  // Each VM's own series, so that planning a VM looks at them, not at the whole fleet's.
  std::vector<std::vector<const StoredSeries*>> host_series(dir.entries().size());
  std::unordered_map<std::string, std::vector<const StoredSeries*>> guest_series;  // by GuestId
  for (const StoredSeries& s : all) {
    if (const int e = dir.HostEntryOf(s.key); e >= 0) host_series[e].push_back(&s);
    if (s.key.source == SourceKind::kGuest || s.key.source == SourceKind::kVmTools)
      guest_series[dir.GuestId(s.key.machine)].push_back(&s);
  }

  // The VMs a few dozen at a time: each batch's series are planned, then (PostgreSQL, a range
  // with a start) their blocks read in two queries instead of a few per VM.
  constexpr size_t kBatchVms = 64;
  const std::optional<TimeNs> bound = ReadBound(req);
  std::vector<VmWork> batch;
  std::vector<int64_t> batch_ids;
  for (size_t first = 0; first < selected.size(); first += kBatchVms) {
    batch.clear();
    batch_ids.clear();
    for (size_t k = first; k < std::min(selected.size(), first + kBatchVms); ++k) {
      const size_t i = selected[k];
      const VmWork& w = batch.emplace_back(PlanVm(req, dir, i, host_series[i], guest_series));
      for (const std::vector<VmPlan>& plans : w.plans) {
        for (const VmPlan& plan : plans) {
          const std::vector<int64_t> read = plan.ReadIds();
          batch_ids.insert(batch_ids.end(), read.begin(), read.end());
        }
      }
    }
    if (bound) RETURN_IF_ERROR(ReadAhead(&ctx, batch, batch_ids, *bound));
    for (const VmWork& w : batch) RETURN_IF_ERROR(CorrectOccupiedPieces(&ctx, w, fn, clocks));
    ctx.reader.EndPrefetch();
  }
  return Status::Ok();
}

StatusOr<std::vector<models::WindowResult>> RunCorrection(Store* store, const CorrectionRequest& req,
                                                          std::map<std::string, models::ClockModel>* clocks) {
  std::vector<models::WindowResult> out;
  RETURN_IF_ERROR(ForEachVmCorrection(
      store, req,
      [&out](std::vector<models::WindowResult>&& r) {
        std::move(r.begin(), r.end(), std::back_inserter(out));
        return Status::Ok();
      },
      clocks));
  return out;
}

}  // namespace vrecon
