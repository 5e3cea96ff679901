// Which historical rollups a vCenter keeps, for the backfill: its statistics intervals read from
// the server, and the warning for counters its statistics level leaves out of them.
#ifndef VRECON_SRC_COLLECT_VSPHERE_ROLLUPS_H_
#define VRECON_SRC_COLLECT_VSPHERE_ROLLUPS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adapters/vsphere/vsphere_client.h"
#include "src/collect/vsphere_batch_plan.h"
#include "src/core/sample.h"

namespace vrecon {

// The rollups a backfill can ask of the server: its enabled historical intervals longer than
// realtime, finest first. A server that will not say (a fault, an answer not understood) is asked
// vCenter's default lengths for every counter, with a `rollup-intervals-unread` warning; one that
// keeps none (an ESXi host, every interval disabled) is asked nothing, with a
// `rollup-intervals-none` warning.
std::vector<RollupLevel> ServerRollups(vsphere::VsphereClient* client, const std::string& vcenter,
                                       std::vector<ImportIssue>* issues);

// The rollups as the plan takes them, from the server's intervals.
std::vector<RollupLevel> RollupsFromIntervals(const std::vector<vsphere::PerfInterval>& intervals);

// One `rollup-counters-not-kept` warning naming the counters a backfill left out of a rollup
// because the server's statistics level there is below theirs; nothing when none was.
std::optional<ImportIssue> RollupsNotKeptIssue(const BatchPlan& plan, const std::vector<RollupLevel>& rollups,
                                               const std::map<int, vsphere::CounterInfo>& counters,
                                               const std::string& vcenter);

}  // namespace vrecon

#endif  // VRECON_SRC_COLLECT_VSPHERE_ROLLUPS_H_
