#include "src/collect/vsphere_rollups.h"

#include <algorithm>
#include <iterator>

#include "src/core/time_util.h"

namespace vrecon {

std::vector<RollupLevel> RollupsFromIntervals(const std::vector<vsphere::PerfInterval>& intervals) {
  std::vector<RollupLevel> out;
  for (const vsphere::PerfInterval& i : intervals)
    if (i.enabled && i.sampling_s > 20) out.push_back(RollupLevel{i.sampling_s, i.length_s * kNsPerSec, i.level});
  std::sort(out.begin(), out.end(),
            [](const RollupLevel& a, const RollupLevel& b) { return a.interval_s < b.interval_s; });
  return out;
}

std::vector<RollupLevel> ServerRollups(vsphere::VsphereClient* client, const std::string& vcenter,
                                       std::vector<ImportIssue>* issues) {
  auto intervals = client->HistoricalIntervals();
  if (!intervals.ok()) {
    issues->push_back(
        ImportIssue{vcenter, 0, Severity::kWarning, "rollup-intervals-unread",
                    vcenter + "'s historical intervals could not be read (" + intervals.status().message() +
                        "); the backfill and the catch-up ask vCenter's default rollups for every counter"});
    return {std::begin(kRollupLevels), std::end(kRollupLevels)};
  }
  std::vector<RollupLevel> rollups = RollupsFromIntervals(*intervals);
  if (rollups.empty())
    issues->push_back(ImportIssue{vcenter, 0, Severity::kWarning, "rollup-intervals-none",
                                  vcenter +
                                      " keeps no historical rollups (no enabled statistics interval): a backfill, "
                                      "or a gap longer than the hour it keeps at 20 s, has nothing to be filled "
                                      "from"});
  return rollups;
}

std::optional<ImportIssue> RollupsNotKeptIssue(const BatchPlan& plan, const std::vector<RollupLevel>& rollups,
                                               const std::map<int, vsphere::CounterInfo>& counters,
                                               const std::string& vcenter) {
  if (plan.not_kept.empty()) return std::nullopt;
  std::string which;
  for (const auto& [name, interval_s] : plan.not_kept) {
    int counter_level = 0, rollup_level = 0;
    for (const auto& [id, c] : counters)
      if (c.name == name) counter_level = c.level;
    for (const RollupLevel& r : rollups)
      if (r.interval_s == interval_s) rollup_level = r.level;
    which += (which.empty() ? "" : "; ") + name + " (level " + std::to_string(counter_level) + ") from the " +
             IntervalName(interval_s) + " rollup on (level " + std::to_string(rollup_level) + ")";
  }
  return ImportIssue{vcenter, 0, Severity::kWarning, "rollup-counters-not-kept",
                     vcenter +
                         "'s statistics level keeps some counters out of its rollups, so the backfill has "
                         "none of them there: " +
                         which + ". A higher statistics level keeps them from now on (docs/capacity.md)"};
}

}  // namespace vrecon
