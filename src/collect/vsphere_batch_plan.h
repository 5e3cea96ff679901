// What one vSphere collection round asks each VM for, decided from the store's high-water marks
// and owed rollup ranges alone: a pure function, so every rule (where a VM starts, when it
// catches up from the 5-minute rollup, how queries pack into the server's per-query limit) is
// tested without a server or a store (tests/collect/vsphere_batch_plan_test.cc).
#ifndef VRECON_SRC_COLLECT_VSPHERE_BATCH_PLAN_H_
#define VRECON_SRC_COLLECT_VSPHERE_BATCH_PLAN_H_

#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "adapters/vsphere/vsphere_client.h"
#include "adapters/vsphere/vsphere_xml.h"
#include "src/core/time_util.h"
#include "src/store/vsphere_tables.h"

namespace vrecon {

inline constexpr TimeNs kRealtimeKeep = 3600 * kNsPerSec;  // vCenter keeps realtime samples about an hour
inline constexpr int kRollupS = 300;                       // the first historical rollup's interval...
inline constexpr TimeNs kRollupKeep = 86400 * kNsPerSec;   // ...kept a day by default

// A historical rollup vCenter keeps (one of its statistics intervals): values of `interval_s`
// seconds for `keep`, of the counters whose statistics level is at most `level`. vCenter's
// defaults are 5 minutes for a day, 30 minutes for a week, 2 hours for 30 days, a day for a year,
// all at level 1; the list below is those lengths with no level known (every counter asked), for
// a server whose own list cannot be read. A backfill asks each for the part of its span the
// finer ones do not cover.
struct RollupLevel {
  int interval_s;
  TimeNs keep;
  int level = 4;
};
inline constexpr RollupLevel kRollupLevels[] = {{kRollupS, kRollupKeep},
                                                {1800, 7 * 86400 * kNsPerSec},
                                                {7200, 30 * 86400 * kNsPerSec},
                                                {86400, 365 * 86400 * kNsPerSec}};

// One QueryPerf call: at most the server's limit of (entity, counter) metrics.
struct Batch {
  std::vector<vsphere::QuerySpec> specs;
  std::set<std::string> vms;    // moids
  std::set<std::string> hosts;  // moids
  bool backfill = false;        // a backfill's: the rollups of entities seen the first time
};

struct PlanInput {
  TimeNs now = 0;                // the server's time
  TimeNs since = kRealtimeKeep;  // how far back a VM without marks starts
  bool historical = false;       // asked for the 300 s rollup (or since beyond realtime)
  int batch_limit = 64;          // metrics per query
  // How far back an entity this vCenter has no marks for (its first round) is filled from the
  // historical rollups, beyond what the round itself asks; 0: not at all (docs/capacity.md).
  TimeNs backfill = 0;
  // The rollups the backfill asks, finest first (the vCenter's enabled historical intervals), and
  // each counter's statistics level by id (absent or 0: not said, asked of every rollup). The
  // catch-up asks the 5-minute one, for as long as it is kept; nothing when it is not listed.
  std::vector<RollupLevel> rollups{std::begin(kRollupLevels), std::end(kRollupLevels)};
  std::map<int, int> counter_levels;
  std::map<int, std::string> counters;  // counter id -> name, those collected
  std::vector<std::string> vms;         // moids selected and powered on, in order
  // Hosts, asked for their own counters' aggregate (HostSystem), after the VMs and by the same
  // rules (marks, catch-up from the rollup, owed ranges).
  std::map<int, std::string> host_counters;
  std::vector<std::string> hosts;
  std::map<MarkKey, TimeNs> marks;        // this vCenter's high-water marks
  std::map<std::string, RollupDue> owed;  // by moid: rollup ranges earlier rounds did not store
};

struct BatchPlan {
  // The backfill batches first (VMs', then hosts'), then the rollup catch-up's, then the round's own.
  std::vector<Batch> batches;
  int interval_s = 20;
  TimeNs from = 0, to = 0;                       // the range asked, in server time
  int vms_caught_up = 0;                         // VMs asked for a rollup range (their realtime gap is too old)
  int rollups_expired = 0;                       // owed ranges vCenter no longer keeps: dropped
  int vms_backfilled = 0, hosts_backfilled = 0;  // entities asked for a backfill
  // Counters a backfill or catch-up left out of a rollup (their level is above the rollup's), by
  // name, with the finest such rollup's interval (s).
  std::map<std::string, int> not_kept;
  // To record before asking (owed until a batch stores them) and to forget.
  std::map<std::string, RollupDue> owe;
  std::vector<std::string> forgive;
};

BatchPlan PlanBatches(const PlanInput& in);

// Whether the plan would catch any entity up from the 5-minute rollup (realtime marks older than
// the server still holds, or an owed range): the collector then asks the server how long it keeps
// that rollup.
bool NeedsCatchUp(const PlanInput& in);

// Whether the plan would backfill any entity (a backfill asked for and an entity seen the first
// time): only then does the collector ask the server which rollups it keeps.
bool NeedsBackfill(const PlanInput& in);

// The hosts to ask for their own counters, by moid: those the selected VMs (`vms`, by moid) run
// on and the other hosts of their clusters (a cluster's demand is its hosts' only when every
// host's is stored), less those vCenter has lost (disconnected, not responding).
std::map<std::string, vsphere::HostInfo> HostsToAsk(const std::map<std::string, vsphere::VmInfo>& vms,
                                                    const std::vector<vsphere::HostInfo>& all);

}  // namespace vrecon

#endif  // VRECON_SRC_COLLECT_VSPHERE_BATCH_PLAN_H_
