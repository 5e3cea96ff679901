// The server's historical intervals as the backfill's rollups, and the warning for counters
// they leave out (src/collect/vsphere_rollups.h).
#include "src/collect/vsphere_rollups.h"

#include <gtest/gtest.h>

namespace vrecon {
namespace {

vsphere::PerfInterval Interval(int sampling_s, int64_t length_s, int level, bool enabled = true) {
  return vsphere::PerfInterval{sampling_s, length_s, level, enabled, ""};
}

TEST(VsphereRollupsTest, EnabledIntervalsFinestFirstWithTheirLengthsAndLevels) {
  const auto r = RollupsFromIntervals({Interval(86400, 31536000, 1), Interval(1800, 604800, 1, false),
                                       Interval(300, 3 * 86400, 2), Interval(20, 3600, 4)});
  ASSERT_EQ(r.size(), 2u);  // the 30-minute one disabled, realtime no rollup
  EXPECT_EQ(r[0].interval_s, 300);
  EXPECT_EQ(r[0].keep, 3 * 86400 * kNsPerSec);
  EXPECT_EQ(r[0].level, 2);
  EXPECT_EQ(r[1].interval_s, 86400);
  EXPECT_EQ(r[1].keep, 31536000 * kNsPerSec);
  EXPECT_TRUE(RollupsFromIntervals({}).empty());
}

TEST(VsphereRollupsTest, TheWarningNamesEachCounterLeftOutAndWhere) {
  BatchPlan plan;
  EXPECT_FALSE(RollupsNotKeptIssue(plan, {}, {}, "https://vc/sdk").has_value());
  plan.not_kept = {{"cpu.run.summation", 1800}};
  std::map<int, vsphere::CounterInfo> counters;
  counters[624] = vsphere::CounterInfo{624, "cpu.run.summation", "millisecond", 2};
  const std::vector<RollupLevel> rollups = {{300, 86400 * kNsPerSec, 2}, {1800, 7 * 86400 * kNsPerSec, 1}};
  const auto issue = RollupsNotKeptIssue(plan, rollups, counters, "https://vc/sdk");
  ASSERT_TRUE(issue.has_value());
  EXPECT_EQ(issue->code, "rollup-counters-not-kept");
  EXPECT_EQ(issue->severity, Severity::kWarning);
  EXPECT_NE(issue->message.find("https://vc/sdk"), std::string::npos) << issue->message;
  EXPECT_NE(issue->message.find("cpu.run.summation (level 2) from the 30-minute rollup on (level 1)"),
            std::string::npos)
      << issue->message;
}

}  // namespace
}  // namespace vrecon
