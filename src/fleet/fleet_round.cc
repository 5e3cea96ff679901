#include "src/fleet/fleet_round.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "src/collect/vsphere_collect.h"
#include "src/core/interruptible_sleep.h"
#include "src/core/text_util.h"
#include "src/engine/capacity_days.h"
#include "src/engine/capacity_job.h"
#include "src/engine/stored_corrections.h"
#include "src/fleet/drop_folder.h"
#include "src/fleet/fleet_retention.h"
#include "src/store/source_tables.h"
#include "src/store/vsphere_tables.h"

namespace vrecon::fleet {
namespace {

// Each source writes through its own connection; SQLite serializes the writers, so a writer
// may wait for another's transaction (an ingest of a large file) longer than the default.
StatusOr<std::unique_ptr<Store>> OpenForSource(const std::string& db) {
  ASSIGN_OR_RETURN(auto store, Store::Open(db));
  RETURN_IF_ERROR(store->WaitForWritersUpTo(std::chrono::minutes(2)));
  return store;
}

void CollectVcenter(const RoundContext& ctx, const VcenterConfig& vc, Store* store, SourceOutcome* out) {
  const FleetConfig& cfg = *ctx.config;
  VsphereCollectOptions opt;
  opt.client.transport.url = vc.url;
  opt.client.transport.ca_file = vc.ca;
  opt.client.transport.insecure = vc.insecure;
  if (vc.insecure) ctx.log->Warn(vc.id + ": insecure = true: the server's certificate is not verified");
  opt.client.transport.allow_http = vc.allow_http;
  if (IsPlainHttpUrl(vc.url))
    ctx.log->Warn(vc.id + ": allow_insecure_http = true: the password is sent unencrypted to " + UrlHost(vc.url));
  opt.client.transport.timeout_s = vc.timeout_s;
  opt.client.user = vc.user;
  opt.client.password = vc.password;
  opt.include_globs = vc.include;
  opt.exclude_globs = vc.exclude;
  opt.historical = vc.historical;
  opt.since = cfg.since;
  opt.backfill = static_cast<TimeNs>(vc.backfill_days) * 86400 * kNsPerSec;
  opt.concurrency = vc.concurrency;
  opt.stop = ctx.stop;
  Logger* log = ctx.log;
  opt.progress = [log, id = vc.id](int done, int total) {
    const std::string line = id + ": QueryPerf batches " + std::to_string(done) + "/" + std::to_string(total);
    log->Progress(line);
    log->Debug(line + " stored");
  };
  TimeNs wait = cfg.retry_backoff;
  for (int attempt = 0; attempt <= cfg.retries; ++attempt) {
    ++out->attempts;
    auto r = CollectVsphere(store, opt);
    bool transient = false;
    if (r.ok()) {
      out->rows += r->samples;
      if (r->first_new_end && (!out->first_new_end || *r->first_new_end < *out->first_new_end))
        out->first_new_end = r->first_new_end;
      if (r->last_new_end && (!out->last_new_end || *r->last_new_end > *out->last_new_end))
        out->last_new_end = r->last_new_end;
      out->rollups_due = r->rollups_due;
      if (!out->vm_keys) out->vm_keys.emplace();
      out->vm_keys->merge(r->vm_keys);
      out->detail = std::to_string(r->vms_collected) + " of " + std::to_string(r->vms_selected) + " VMs" +
                    (r->vms_caught_up ? ", " + std::to_string(r->vms_caught_up) + " caught up from rollups" : "") +
                    (r->vms_backfilled ? ", " + std::to_string(r->vms_backfilled) + " backfilled" : "") +
                    (r->rollups_due ? ", " + std::to_string(r->rollups_due) + " rollup ranges still due" : "");
      if (r->rollups_expired)
        ctx.log->Warn(vc.id + ": " + std::to_string(r->rollups_expired) +
                      " VMs' rollup ranges aged out of vCenter before they could be stored: those hours stay a gap");
      for (const ImportIssue& issue : r->issues)
        if (issue.code == "backfill-failed") ctx.log->Warn(vc.id + ": " + issue.message);
      if (r->stopped) {
        out->error = "stopped by a signal before every batch was asked";
        return;
      }
      if (r->batches_failed == 0 && r->vms_collected == r->vms_selected) {
        out->ok = true;
        out->error.clear();
        return;
      }
      // A failed batch stored nothing and moved no mark: the next attempt asks for it again.
      out->error = std::to_string(r->batches_failed) + " of " + std::to_string(r->batches) +
                   " QueryPerf batches failed: " + (r->errors.empty() ? "" : r->errors.front());
      transient = true;
    } else {
      out->error = r.status().message();
      transient = r.status().code() == Status::Code::kUnavailable;
    }
    if (!transient || attempt == cfg.retries) return;
    ctx.log->Warn(vc.id + ": " + out->error + "; retrying in " + std::to_string(wait / kNsPerSec) + " s");
    if (!SleepFor(wait, ctx.stop)) return;
    wait *= 2;
  }
}

// The VMs a round's new samples belong to, when every source that stored any can say (its
// vCenter's VMs); unset, meaning all, when a drop folder stored some. Collectors sharing a
// store thus recompute their own VMs only, not each other's.
std::optional<std::set<std::string>> TouchedVms(const std::vector<SourceOutcome>& sources) {
  std::set<std::string> keys;
  for (const SourceOutcome& s : sources) {
    if (!s.first_new_end) continue;
    if (!s.vm_keys) return std::nullopt;
    keys.insert(s.vm_keys->begin(), s.vm_keys->end());
  }
  return keys;
}

void CollectFolder(const RoundContext& ctx, const DropFolderConfig& df, Store* store, SourceOutcome* out) {
  ++out->attempts;
  auto r = CollectDropFolder(store, df, ctx.config->settle, ctx.stop, ctx.log);
  if (!r.ok()) {
    out->error = r.status().message();
    return;
  }
  out->rows = r->rows;
  out->first_new_end = r->first_new_end;
  out->last_new_end = r->last_new_end;
  out->detail = std::to_string(r->files_ingested) + " of " + std::to_string(r->files_seen) + " files ingested" +
                (r->files_waiting ? ", " + std::to_string(r->files_waiting) + " still being written" : "");
  if (!r->errors.empty()) {
    out->error = std::to_string(r->errors.size()) + " file(s) could not be ingested: " + r->errors.front();
    return;
  }
  out->ok = true;
}

// The runner's connection (RoundContext::store), or the round's own: a PostgreSQL connection
// costs the client a password exchange (SCRAM, about 60 M instructions) and the server a new backend,
// so it is kept from round to round, and replaced when it no longer answers (the server
// restarted since).
StatusOr<Store*> RunnerStore(const RoundContext& ctx, std::unique_ptr<Store>* own) {
  std::unique_ptr<Store>& store = ctx.store ? *ctx.store : *own;
  if (store && store->Ping().ok()) return store.get();
  store.reset();
  ASSIGN_OR_RETURN(store, Store::Open(ctx.db));
  return store.get();
}

// A source's connection. The first source a round takes borrows the runner's (its job ends before
// the corrections need it), so a collector of one source connects once a round with --once and
// not at all with --every; the others open their own (`opened`).
StatusOr<Store*> SourceStore(const RoundContext& ctx, std::unique_ptr<Store>* runner_own, std::atomic<bool>* lent,
                             std::unique_ptr<Store>* opened) {
  if (!lent->exchange(true)) {
    ASSIGN_OR_RETURN(Store * store, RunnerStore(ctx, runner_own));
    RETURN_IF_ERROR(store->WaitForWritersUpTo(std::chrono::minutes(2)));
    return store;
  }
  ASSIGN_OR_RETURN(*opened, OpenForSource(ctx.db));
  return opened->get();
}

// The newest sample end the store holds from a vCenter: its newest high-water mark.
std::optional<TimeNs> NewestVsphereData(Store* store, const std::string& url) {
  auto newest = NewestVsphereMark(store, url);
  return newest.ok() ? *newest : std::nullopt;
}

SourceOutcome Outcome(const std::string& source, const char* kind) {
  SourceOutcome o;
  o.source = source;
  o.kind = kind;
  return o;
}

using SourceJob = std::function<void(Store*, SourceOutcome*)>;

// The round's sources in config order, vCenters then drop folders: each one's outcome in
// round->sources and, at the same index, the job that collects it.
std::vector<SourceJob> PlanSources(const RoundContext& ctx, RoundResult* round) {
  const FleetConfig& cfg = *ctx.config;
  std::vector<SourceJob> jobs;
  for (const VcenterConfig& vc : cfg.vcenters) {
    round->sources.push_back(Outcome(vc.id, "vcenter"));
    round->sources.back().claim = vc.url;
    jobs.push_back([&ctx, &vc](Store* s, SourceOutcome* o) { CollectVcenter(ctx, vc, s, o); });
  }
  for (const DropFolderConfig& df : cfg.drop_folders) {
    round->sources.push_back(Outcome(df.path, "drop_folder"));
    round->sources.back().claim = df.path;
    jobs.push_back([&ctx, &df](Store* s, SourceOutcome* o) { CollectFolder(ctx, df, s, o); });
  }
  return jobs;
}

// Calls fn(i) for each i in [0, count) on up to `threads` threads, each taking the next index.
void ForEachInParallel(size_t count, int threads, const std::function<void(size_t)>& fn) {
  std::mutex mu;
  size_t next = 0;
  auto worker = [&] {
    while (true) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (next >= count) return;
        i = next++;
      }
      fn(i);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
}

// One source: claimed (skipped when another collector holds it), collected, its attempt recorded
// and its claim ended, then logged. runner_own and lent as for SourceStore.
void RunSource(const RoundContext& ctx, const SourceJob& job, std::unique_ptr<Store>* runner_own,
               std::atomic<bool>* lent, SourceOutcome* out) {
  const auto s0 = std::chrono::steady_clock::now();
  if (ctx.stop && ctx.stop->load()) {
    out->error = "not collected: stopped by a signal";
    return;
  }
  std::unique_ptr<Store> opened;
  StatusOr<Store*> store = SourceStore(ctx, runner_own, lent, &opened);
  StatusOr<std::optional<std::string>> holder =
      store.ok() ? ClaimSource(*store, out->claim) : StatusOr<std::optional<std::string>>(store.status());
  if (!holder.ok()) {
    out->error = holder.status().message();
  } else if (holder->has_value()) {
    // Its status row stays the holder's to write.
    out->ok = true;
    out->held_by = **holder;
    ctx.log->Warn(out->source + ": skipped: " + out->held_by + " is collecting it (configured in two collectors)");
  } else {
    job(*store, out);
    std::optional<TimeNs> newest = out->last_new_end;
    if (out->kind == "vcenter") newest = NewestVsphereData(*store, out->claim);  // a vCenter's claim is its URL
    Attempt a{out->source,     out->kind, NowNs(), newest, out->rows, ctx.round_interval_s, out->ok ? "" : out->error,
              out->rollups_due};
    Status recorded = RecordAttempt(*store, a);
    if (!recorded.ok()) ctx.log->Error(out->source + ": cannot record its status: " + recorded.message());
    // The runner's connection outlives the job: the claim must end with it, as it does when a
    // source's own connection closes. A connection that fails here is replaced at its next use.
    Status released = ReleaseSource(*store, out->claim);
    if (!released.ok()) ctx.log->Warn(out->source + ": cannot end its claim: " + released.message());
  }
  out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
  if (!out->held_by.empty()) return;
  if (out->ok) ctx.log->Info(out->source + ": " + std::to_string(out->rows) + " rows, " + out->detail);
  else ctx.log->Error(out->source + ": " + out->error);
}

// The stored corrections of the VMs the round stored samples of, over the windows the new
// samples touch: from one window before the earliest (a sample near a window's start also weighs
// on the window before through its own span).
void StoreRoundCorrections(const RoundContext& ctx, std::unique_ptr<Store>* runner_own, RoundResult* round) {
  const FleetConfig& cfg = *ctx.config;
  std::optional<TimeNs> earliest;
  for (const SourceOutcome& s : round->sources)
    if (s.first_new_end && (!earliest || *s.first_new_end < *earliest)) earliest = s.first_new_end;
  if (!earliest) return;
  const TimeNs window = static_cast<TimeNs>(cfg.window_s) * kNsPerSec;
  CorrectionRequest req;
  req.vm_keys = TouchedVms(round->sources);
  req.window = window;
  req.from = (*earliest / window) * window - window;
  req.new_samples_from = earliest;
  req.mappings = cfg.mappings;
  req.host_counters = cfg.host_counters;
  StatusOr<Store*> store = RunnerStore(ctx, runner_own);
  // The VMs' view, read once for the corrections and the capacity digests.
  if (store.ok()) {
    StatusOr<std::map<std::string, std::string>> mappings = MergedMappings(*store, req.mappings);
    StatusOr<VmViewPtr> view = mappings.ok() ? ReadVmView(*store, req.vm_keys, *mappings) : mappings.status();
    if (view.ok()) req.view = *view;
  }
  StatusOr<int64_t> stored = store.ok() ? StoreCorrections(*store, req) : StatusOr<int64_t>(store.status());
  if (stored.ok()) {
    round->windows_stored = *stored;
  } else if (!stored.status().IsNotFound()) {  // NotFound: no VM with both sides yet
    round->correction_error = "storing the corrections failed: " + stored.status().message();
    ctx.log->Error(round->correction_error);
  }
  // The round's VMs whose turn it is take its samples into their capacity day digests: each VM
  // once an hour, a twelfth of them a 5-minute round (docs/capacity.md, "Day digests").
  std::optional<std::set<std::string>> due = req.vm_keys;
  if (due) due = CapacityDigestsDue(*due, round->started, ctx.previous_round);
  const bool refresh = store.ok() && (!due || !due->empty());
  if (Status s = refresh ? RefreshCapacityDigests(*store, due, req.view) : Status::Ok(); !s.ok()) {
    const std::string error = "updating the capacity day digests failed: " + s.message();
    round->correction_error = round->correction_error.empty() ? error : round->correction_error + "; " + error;
    ctx.log->Error(error);
  }
}

// The fleet file's retain_samples / retain_corrections, after the round's corrections.
void ApplyRoundRetention(const RoundContext& ctx, std::unique_ptr<Store>* runner_own, RoundResult* round) {
  StatusOr<Store*> store = RunnerStore(ctx, runner_own);
  StatusOr<PruneResult> pruned =
      store.ok() ? ApplyRetention(*ctx.config, *store, NowNs(), ctx.log) : StatusOr<PruneResult>(store.status());
  if (pruned.ok()) {
    round->pruned_rows = pruned->sample_rows;
    round->pruned_windows = pruned->windows;
  } else {
    round->retention_error = "retention failed: " + pruned.status().message();
    ctx.log->Error(round->retention_error);
  }
}

}  // namespace

bool RoundResult::ok() const {
  if (!correction_error.empty() || !retention_error.empty() || stopped) return false;
  for (const SourceOutcome& s : sources)
    if (!s.ok) return false;
  return true;
}

RoundResult RunRound(const RoundContext& ctx) {
  const FleetConfig& cfg = *ctx.config;
  std::unique_ptr<Store> own;  // the runner's store when it gave none
  RoundResult round;
  round.started = NowNs();
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<SourceJob> jobs = PlanSources(ctx, &round);
  std::atomic<bool> lent{false};
  const int threads = std::max(1, std::min<int>(cfg.parallel_sources, static_cast<int>(jobs.size())));
  ForEachInParallel(jobs.size(), threads, [&](size_t i) { RunSource(ctx, jobs[i], &own, &lent, &round.sources[i]); });
  round.stopped = ctx.stop && ctx.stop->load();
  StoreRoundCorrections(ctx, &own, &round);
  if (!round.stopped && (cfg.retain_samples || cfg.retain_corrections)) ApplyRoundRetention(ctx, &own, &round);
  if (ctx.store && *ctx.store) {
    (*ctx.store)->EndReads();
    (*ctx.store)->ReleaseMemory();
    (*ctx.store)->ForgetRowsAdded();
  }
  round.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return round;
}

}  // namespace vrecon::fleet
