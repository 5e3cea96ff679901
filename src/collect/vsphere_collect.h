// One collection round against a vCenter or ESXi host: inventory, counter ids, QueryPerf in
// batches sized to the server's limit (in parallel), each batch stored in its own transaction.
#ifndef VRECON_SRC_COLLECT_VSPHERE_COLLECT_H_
#define VRECON_SRC_COLLECT_VSPHERE_COLLECT_H_

#include <atomic>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adapters/vsphere/vsphere_client.h"
#include "src/store/store.h"

namespace vrecon {

struct VsphereCollectOptions {
  vsphere::ClientOptions client;
  std::string vm_glob = "*";
  // When include_globs is not empty it replaces vm_glob: a VM matching any of them and none of
  // exclude_globs is collected.
  std::vector<std::string> include_globs, exclude_globs;
  bool historical = false;
  TimeNs since = 3600 * kNsPerSec;  // how far back a VM without a high-water mark starts
  // How far back a VM or host seen the first time is filled from vCenter's historical rollups
  // (--backfill-days); 0: not at all.
  TimeNs backfill = 0;
  int concurrency = 1;
  // Counters collected, as the VM aggregate and per vCPU.
  std::vector<std::string> counters = {"cpu.usage.average", "cpu.ready.summation", "cpu.costop.summation",
                                       "cpu.run.summation", "cpu.used.summation",  "cpu.wait.summation"};
  // The hosts' own counters, their aggregate only, for the hosts the selected VMs run on and the
  // other hosts of their clusters (docs/capacity.md: a host's demand); stored as source
  // vsphere-host. Those the server lacks
  // are left out without an issue, all of them when it lacks cpu.utilization.average (what a
  // host's demand needs): a cluster's capacity answer then says its demand is its VMs'.
  std::vector<std::string> host_counters = {"cpu.utilization.average", "cpu.coreUtilization.average",
                                            "cpu.usage.average", "cpu.ready.summation"};
  std::function<void(int done, int total)> progress;
  // Set (by a signal handler) to stop: no new batch is asked for; the batches already answered
  // are stored, each in its own transaction, and the round returns.
  const std::atomic<bool>* stop = nullptr;
};

struct VsphereCollectResult {
  std::string server;       // the server's full name
  int vms_selected = 0;     // matching --vm and powered on
  int vms_skipped = 0;      // matching --vm but not powered on (no performance data)
  int vms_collected = 0;    // every batch holding the VM stored
  int hosts_selected = 0;   // hosts of the selected VMs (and of their clusters) asked for their own counters
  int hosts_collected = 0;  // every batch holding the host stored
  int interval_s = 20;
  int batch_limit = 64;
  int batches = 0, batches_failed = 0;
  int64_t samples = 0;  // values stored
  int relogins = 0;
  vsphere::TransportStats transport;
  TimeNs from = 0, to = 0;                            // the range asked, in server time
  std::optional<TimeNs> first_new_end, last_new_end;  // of the samples this round stored
  std::set<std::string> vm_keys;                      // "vsphere:<entity>" of each VM it stored samples of
  int vms_caught_up = 0;    // VMs whose realtime gap was older than realtime keeps: 300 s rollups asked
  int rollups_due = 0;      // after the round: VMs whose planned rollup range is still not stored
  int rollups_expired = 0;  // rollup ranges dropped unstored: vCenter no longer keeps them
  // VMs and hosts whose first round's backfill was stored; those whose backfill failed (their
  // history then starts with this round: a backfill is not asked again).
  int vms_backfilled = 0, hosts_backfilled = 0, backfill_failed = 0;
  bool stopped = false;  // `stop` was set before every batch was asked
  std::vector<ImportIssue> issues;
  std::vector<std::string> errors;  // one sentence per failed batch
};

// Connection, login and discovery failures are errors; a failed batch is recorded in the
// result (nothing of it is stored; the next round asks for it again).
StatusOr<VsphereCollectResult> CollectVsphere(Store* store, const VsphereCollectOptions& options);

}  // namespace vrecon

#endif  // VRECON_SRC_COLLECT_VSPHERE_COLLECT_H_
