#include "src/collect/vsphere_batch_plan.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>

namespace vrecon {
namespace {

using vsphere::QuerySpec;

// A VM or a host as the plan asks for it.
struct Entity {
  const std::string& moid;
  const std::map<int, std::string>& counters;
  bool host = false;

  QuerySpec Query(int interval, TimeNs start, TimeNs end, int max_sample) const {
    QuerySpec q;
    q.entity = moid;
    if (host) {
      q.entity_type = "HostSystem";
      q.instance = "";
    }
    q.interval_id = interval;
    q.start = start;
    q.end = end;
    q.max_sample = max_sample;
    return q;
  }
  void AddTo(Batch* b) const { (host ? b->hosts : b->vms).insert(moid); }
};

// The entity's oldest mark at `interval` when every counter has one (a counter without a mark,
// e.g. its part of a VM split across batches failed, would keep a gap behind its siblings' marks).
std::optional<TimeNs> OldestMark(const PlanInput& in, const Entity& e, int interval) {
  const std::string& moid = e.moid;
  std::optional<TimeNs> oldest;
  for (const auto& [id, name] : e.counters) {
    auto m = in.marks.find(MarkKey{moid, name, interval});
    if (m == in.marks.end()) return std::nullopt;
    oldest = std::min(oldest.value_or(m->second), m->second);
  }
  return oldest;
}

// A round asking the 5-minute rollup itself (asked for, or `since` beyond realtime): no catch-up.
bool Historical(const PlanInput& in) { return in.historical || in.since > kRealtimeKeep; }

// The first realtime sample the server still holds, for a round at `interval` seconds.
TimeNs RealtimeFirst(const PlanInput& in, int interval) { return in.now - kRealtimeKeep + interval * kNsPerSec; }

// Whether a rollup at statistics level `level` keeps counter `id` (a counter whose level is not
// said is asked of every rollup).
bool KeptAt(const PlanInput& in, int id, int level) {
  const auto said = in.counter_levels.find(id);
  return said == in.counter_levels.end() || said->second <= level;
}

// The rollup a realtime gap is caught up from: the server's 5-minute one, with how long it keeps
// it and at what level; none when the server keeps no 5-minute rollup.
std::optional<RollupLevel> CatchUpLevel(const PlanInput& in) {
  for (const RollupLevel& r : in.rollups)
    if (r.interval_s == kRollupS) return r;
  return std::nullopt;
}

// Whether a round at 20 s finds the entity's realtime marks older than the server still holds,
// or owes it a rollup range.
bool NeedsRollup(const PlanInput& in, const Entity& e) {
  const std::optional<TimeNs> oldest = OldestMark(in, e, 20);
  return (oldest && *oldest < RealtimeFirst(in, 20)) || in.owed.contains(e.moid);
}

// Catch-up: the collector was away longer than realtime keeps. The part the server no longer
// holds at 20 s comes from the 5-minute rollup, as far back as the server keeps it, up to one
// rollup into the realtime range so the two meet without a gap (a little overlap, weighted away by
// the windows). A range owed by an earlier round is asked again, as far as vCenter still keeps it.
// Counters above the rollup's statistics level are left out (BatchPlan::not_kept).
void PlanRollup(const PlanInput& in, const Entity& e, std::optional<TimeNs> oldest, TimeNs realtime_first,
                std::vector<Batch>* catch_up, BatchPlan* plan) {
  const std::string& moid = e.moid;
  const auto owed = in.owed.find(moid);
  const bool gap = oldest && *oldest < realtime_first;
  if (!gap && owed == in.owed.end()) return;
  const std::optional<RollupLevel> level = CatchUpLevel(in);
  const TimeNs keep = level ? level->keep : 0;
  TimeNs from = gap ? std::max(*oldest, in.now - keep) : in.now;
  TimeNs to = gap ? realtime_first + kRollupS * kNsPerSec : in.now - keep;
  if (owed != in.owed.end()) {
    from = std::min(from, std::max(owed->second.from, in.now - keep));
    to = std::max(to, owed->second.to);
  }
  std::vector<int> ids;
  for (const auto& [id, name] : e.counters) {
    if (level && !KeptAt(in, id, level->level)) {
      plan->not_kept.try_emplace(name, kRollupS);
      continue;
    }
    ids.push_back(id);
    auto h = in.marks.find(MarkKey{moid, name, kRollupS});
    if (h != in.marks.end()) from = std::max(from, h->second);
  }
  if (from >= to || ids.empty()) {
    if (owed != in.owed.end()) {
      if (owed->second.to <= in.now - keep || ids.empty()) ++plan->rollups_expired;
      plan->forgive.push_back(moid);
    }
    return;
  }
  QuerySpec q = e.Query(kRollupS, from, to, static_cast<int>((to - from) / (kRollupS * kNsPerSec)) + 1);
  q.counter_ids = std::move(ids);
  Batch b;
  b.specs.push_back(std::move(q));
  e.AddTo(&b);
  catch_up->push_back(std::move(b));
  if (!e.host) ++plan->vms_caught_up;
  plan->from = std::min(plan->from, from);
  plan->owe[moid] = RollupDue{from, to};
}

// An entity this vCenter has no marks for, at any interval, and owes nothing: its first round.
bool FirstSeen(const PlanInput& in, const Entity& e) {
  auto m = in.marks.lower_bound(MarkKey{e.moid, "", std::numeric_limits<int>::min()});
  return (m == in.marks.end() || std::get<0>(m->first) != e.moid) && !in.owed.contains(e.moid);
}

// Whether `pred` holds for any VM, or any host when host counters are collected.
bool AnyEntity(const PlanInput& in, const std::function<bool(const Entity&)>& pred) {
  for (const std::string& moid : in.vms)
    if (pred(Entity{moid, in.counters, false})) return true;
  if (in.host_counters.empty()) return false;
  for (const std::string& moid : in.hosts)
    if (pred(Entity{moid, in.host_counters, true})) return true;
  return false;
}

// Backfill: an entity's first round also asks each coarser rollup for what it keeps before the
// finer ones' span, back to `in.backfill` ago. Each level reaches one of its intervals into the
// finer data after it, so the two meet without a gap (as the catch-up does). `covered` is where
// the round's own query for the entity starts.
void PlanBackfill(const PlanInput& in, const Entity& e, int interval, TimeNs covered, std::vector<Batch>* out,
                  BatchPlan* plan) {
  const TimeNs oldest = in.now - in.backfill;
  bool asked = false;
  for (const RollupLevel& level : in.rollups) {
    if (level.interval_s < interval || oldest >= covered) continue;
    const TimeNs from = std::max(oldest, in.now - level.keep);
    if (from >= covered) continue;  // a level keeping less than the round asks: the next keeps more
    const TimeNs step = level.interval_s * kNsPerSec;
    const TimeNs to = covered + step;
    QuerySpec q = e.Query(level.interval_s, from, to, static_cast<int>((to - from) / step) + 1);
    for (const auto& [id, name] : e.counters) {
      if (KeptAt(in, id, level.level)) {
        q.counter_ids.push_back(id);
      } else {
        plan->not_kept.try_emplace(name, level.interval_s);  // the rollups come finest first
      }
    }
    // A rollup keeping none of them: the next, coarser one, still starts where this one would have ended.
    if (q.counter_ids.empty()) continue;
    Batch b;
    b.specs.push_back(std::move(q));
    b.backfill = true;
    e.AddTo(&b);
    out->push_back(std::move(b));
    plan->from = std::min(plan->from, from);
    covered = from;
    asked = true;
  }
  if (asked) ++(e.host ? plan->hosts_backfilled : plan->vms_backfilled);
}

// Rollup queries packed into batches of the same limit, one VM's query never split.
std::vector<Batch> Pack(std::vector<Batch> one_per_vm, int limit) {
  std::vector<Batch> out;
  Batch packed;
  int metrics = 0;
  for (Batch& b : one_per_vm) {
    const int n = static_cast<int>(b.specs.front().counter_ids.size());
    if (!packed.specs.empty() && metrics + n > limit) {
      out.push_back(std::move(packed));
      packed = Batch{};
      metrics = 0;
    }
    packed.specs.push_back(std::move(b.specs.front()));
    packed.vms.insert(b.vms.begin(), b.vms.end());
    packed.hosts.insert(b.hosts.begin(), b.hosts.end());
    packed.backfill = b.backfill;
    metrics += n;
  }
  if (!packed.specs.empty()) out.push_back(std::move(packed));
  return out;
}

}  // namespace

BatchPlan PlanBatches(const PlanInput& in) {
  BatchPlan plan;
  const bool historical = Historical(in);
  const int interval = historical ? kRollupS : 20;
  plan.interval_s = interval;
  plan.from = plan.to = in.now;
  const TimeNs lookback = historical ? 3600 * kNsPerSec : 60 * kNsPerSec;  // late data
  const int limit = std::max(1, in.batch_limit);

  std::vector<Entity> entities;
  entities.reserve(in.vms.size() + in.hosts.size());
  for (const std::string& moid : in.vms) entities.push_back(Entity{moid, in.counters, false});
  if (!in.host_counters.empty())
    for (const std::string& moid : in.hosts) entities.push_back(Entity{moid, in.host_counters, true});

  std::vector<Batch> batches, catch_up, backfill;
  Batch current;
  int in_batch = 0;
  for (const Entity& e : entities) {
    // Hosts in batches of their own: a host the server will not answer for fails no VM's batch.
    if (e.host && !current.specs.empty() && current.hosts.empty()) {
      batches.push_back(std::move(current));
      current = Batch{};
      in_batch = 0;
    }
    // `since` is for an entity without marks; one with marks goes on from them, however long
    // ago (capped below by what the server still keeps), or a round after a pause longer than
    // `since` would leave a gap.
    const std::optional<TimeNs> oldest = OldestMark(in, e, interval);
    TimeNs start = oldest ? *oldest - lookback : in.now - in.since;
    if (!historical) {
      const TimeNs realtime_first = RealtimeFirst(in, interval);
      PlanRollup(in, e, oldest, realtime_first, &catch_up, &plan);
      start = std::max(start, realtime_first);
    }
    if (in.backfill > 0 && FirstSeen(in, e)) PlanBackfill(in, e, interval, start, &backfill, &plan);
    plan.from = std::min(plan.from, start);
    const int max_sample = static_cast<int>((in.now - start) / (interval * kNsPerSec)) + 1;
    // An entity's counters go in one query while they fit; the limit may split them across batches.
    for (const auto& [id, name] : e.counters) {
      if (current.specs.empty() || current.specs.back().entity != e.moid)
        current.specs.push_back(e.Query(interval, start, in.now, max_sample));
      current.specs.back().counter_ids.push_back(id);
      e.AddTo(&current);
      if (++in_batch == limit) {
        batches.push_back(std::move(current));
        current = Batch{};
        in_batch = 0;
      }
    }
  }
  if (!current.specs.empty()) batches.push_back(std::move(current));
  // Rollups are asked first: a round stopped part-way then leaves those VMs' realtime marks old,
  // so the next round still sees the gap (from the rollup marks on) instead of losing it; and
  // those of a backfill unasked leave the entity without marks, so the next round backfills it.
  // Hosts' rollups packed apart from VMs', as their realtime queries are.
  auto append = [&plan](std::vector<Batch> packed) {
    plan.batches.insert(plan.batches.end(), std::make_move_iterator(packed.begin()),
                        std::make_move_iterator(packed.end()));
  };
  for (std::vector<Batch>* rollups : {&backfill, &catch_up}) {
    std::vector<Batch> vms, hosts;
    for (Batch& b : *rollups) (b.hosts.empty() ? vms : hosts).push_back(std::move(b));
    append(Pack(std::move(vms), limit));
    append(Pack(std::move(hosts), limit));
  }
  append(std::move(batches));
  return plan;
}

bool NeedsCatchUp(const PlanInput& in) {
  return !Historical(in) && AnyEntity(in, [&](const Entity& e) { return NeedsRollup(in, e); });
}

bool NeedsBackfill(const PlanInput& in) {
  return in.backfill > 0 && AnyEntity(in, [&](const Entity& e) { return FirstSeen(in, e); });
}

std::map<std::string, vsphere::HostInfo> HostsToAsk(const std::map<std::string, vsphere::VmInfo>& vms,
                                                    const std::vector<vsphere::HostInfo>& all) {
  std::set<std::string> running, clusters;
  for (const auto& [moid, vm] : vms) running.insert(vm.host_moid);
  for (const vsphere::HostInfo& h : all)
    if (running.contains(h.moid) && !h.cluster_moid.empty()) clusters.insert(h.cluster_moid);
  std::map<std::string, vsphere::HostInfo> hosts;
  for (const vsphere::HostInfo& h : all)
    if (h.connected && (running.contains(h.moid) || clusters.contains(h.cluster_moid))) hosts[h.moid] = h;
  return hosts;
}

}  // namespace vrecon
