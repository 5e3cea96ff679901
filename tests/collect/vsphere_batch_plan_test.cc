// The vSphere round's plan (src/collect/vsphere_batch_plan.h) without a server or a store: where
// each VM starts, when it catches up from the 300 s rollup, owed ranges asked again or dropped,
// and how queries pack into the server's per-query limit.
#include "src/collect/vsphere_batch_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>
#include <vector>

#include "tests/support/time_units.h"

namespace vrecon {
namespace {

constexpr TimeNs kNow = 1'800'000'000 * kNsPerSec;
using vrecon::testing::kMin;

PlanInput Input(std::vector<std::string> vms, int counters = 3) {
  PlanInput in;
  in.now = kNow;
  in.since = 10 * kMin;
  in.batch_limit = 64;
  const char* names[] = {"cpu.usage.average", "cpu.ready.summation", "cpu.costop.summation",
                         "cpu.run.summation", "cpu.used.summation",  "cpu.wait.summation"};
  for (int i = 0; i < counters; ++i) in.counters[100 + i] = names[i];
  in.vms = std::move(vms);
  return in;
}

void MarkAll(PlanInput* in, const std::string& moid, int interval, TimeNs t) {
  for (const auto& [id, name] : in->counters) in->marks[MarkKey{moid, name, interval}] = t;
}

TEST(VsphereBatchPlanTest, NewVmsStartAtSinceAndFillBatchesToTheLimit) {
  PlanInput in = Input({"vm-1", "vm-2"});
  in.batch_limit = 4;  // 2 VMs x 3 counters: 4 + 2 metrics
  const BatchPlan p = PlanBatches(in);
  EXPECT_EQ(p.interval_s, 20);
  ASSERT_EQ(p.batches.size(), 2u);
  ASSERT_EQ(p.batches[0].specs.size(), 2u);  // vm-1 whole, then vm-2's first counter
  EXPECT_EQ(p.batches[0].specs[0].entity, "vm-1");
  EXPECT_EQ(p.batches[0].specs[0].counter_ids.size(), 3u);
  EXPECT_EQ(p.batches[0].specs[1].entity, "vm-2");
  EXPECT_EQ(p.batches[0].specs[1].counter_ids.size(), 1u);
  EXPECT_EQ(p.batches[1].specs[0].entity, "vm-2");
  EXPECT_EQ(p.batches[1].specs[0].counter_ids.size(), 2u);
  EXPECT_EQ(p.batches[0].vms, (std::set<std::string>{"vm-1", "vm-2"}));
  EXPECT_EQ(*p.batches[0].specs[0].start, kNow - 10 * kMin);
  EXPECT_EQ(*p.batches[0].specs[0].end, kNow);
  EXPECT_EQ(p.batches[0].specs[0].max_sample, 31);  // 10 min of 20 s samples, and one
  EXPECT_EQ(p.from, kNow - 10 * kMin);
  EXPECT_TRUE(p.owe.empty());
}

TEST(VsphereBatchPlanTest, MarkedVmStartsAMinuteBeforeItsOldestMark) {
  PlanInput in = Input({"vm-1", "vm-2"});
  MarkAll(&in, "vm-1", 20, kNow - 2 * kMin);
  in.marks[MarkKey{"vm-1", "cpu.ready.summation", 20}] = kNow - 3 * kMin;  // the oldest
  MarkAll(&in, "vm-2", 20, kNow - 2 * kMin);
  in.marks.erase(MarkKey{"vm-2", "cpu.costop.summation", 20});  // one counter never stored
  const BatchPlan p = PlanBatches(in);
  ASSERT_EQ(p.batches.size(), 1u);
  EXPECT_EQ(*p.batches[0].specs[0].start, kNow - 4 * kMin);   // late data: a minute back
  EXPECT_EQ(*p.batches[0].specs[1].start, kNow - 10 * kMin);  // from --since, or that counter keeps a gap
}

// Before this function was split out of CollectVsphere, `since` capped a marked VM too: with
// since = 10m, a VM last stored 30 minutes ago lost the 20 minutes between.
TEST(VsphereBatchPlanTest, AMarkedVmGoesOnFromItsMarkHoweverShortSinceIs) {
  PlanInput in = Input({"vm-1"});
  MarkAll(&in, "vm-1", 20, kNow - 30 * kMin);
  const BatchPlan p = PlanBatches(in);
  ASSERT_EQ(p.batches.size(), 1u);
  EXPECT_EQ(*p.batches[0].specs[0].start, kNow - 31 * kMin);
  EXPECT_EQ(p.batches[0].specs[0].max_sample, 94);
}

TEST(VsphereBatchPlanTest, AVmAwayLongerThanRealtimeKeepsCatchesUpFromTheRollupFirst) {
  PlanInput in = Input({"vm-1", "vm-2"});
  MarkAll(&in, "vm-1", 20, kNow - 3 * 3600 * kNsPerSec);
  MarkAll(&in, "vm-2", 20, kNow - kMin);
  const BatchPlan p = PlanBatches(in);
  const TimeNs realtime_first = kNow - kRealtimeKeep + 20 * kNsPerSec;
  ASSERT_EQ(p.batches.size(), 2u);
  const vsphere::QuerySpec& rollup = p.batches[0].specs[0];
  EXPECT_EQ(rollup.entity, "vm-1");
  EXPECT_EQ(rollup.interval_id, 300);
  EXPECT_EQ(*rollup.start, kNow - 3 * 3600 * kNsPerSec);
  EXPECT_EQ(*rollup.end, realtime_first + 300 * kNsPerSec);  // one rollup into realtime: no gap
  EXPECT_EQ(p.vms_caught_up, 1);
  ASSERT_EQ(p.owe.count("vm-1"), 1u);
  EXPECT_EQ(p.owe.at("vm-1").from, *rollup.start);
  EXPECT_EQ(p.owe.at("vm-1").to, *rollup.end);
  // Realtime for vm-1 begins where the server still holds it.
  EXPECT_EQ(p.batches[1].specs[0].interval_id, 20);
  EXPECT_EQ(*p.batches[1].specs[0].start, realtime_first);
  EXPECT_EQ(p.from, *rollup.start);
}

TEST(VsphereBatchPlanTest, RollupMarksMoveTheCatchUpOn) {
  PlanInput in = Input({"vm-1"});
  MarkAll(&in, "vm-1", 20, kNow - 3 * 3600 * kNsPerSec);
  MarkAll(&in, "vm-1", 300, kNow - 2 * 3600 * kNsPerSec);  // a stopped round stored part of it
  const BatchPlan p = PlanBatches(in);
  ASSERT_FALSE(p.batches.empty());
  EXPECT_EQ(*p.batches[0].specs[0].start, kNow - 2 * 3600 * kNsPerSec);
}

TEST(VsphereBatchPlanTest, AnOwedRangeIsAskedAgainUntilVcenterNoLongerKeepsIt) {
  PlanInput in = Input({"vm-1", "vm-2"});
  MarkAll(&in, "vm-1", 20, kNow - kMin);
  MarkAll(&in, "vm-2", 20, kNow - kMin);
  in.owed["vm-1"] = RollupDue{kNow - 5 * 3600 * kNsPerSec, kNow - 4 * 3600 * kNsPerSec};
  in.owed["vm-2"] = RollupDue{kNow - 30 * 3600 * kNsPerSec, kNow - 26 * 3600 * kNsPerSec};  // beyond a day
  const BatchPlan p = PlanBatches(in);
  ASSERT_EQ(p.batches.size(), 2u);
  EXPECT_EQ(p.batches[0].specs.size(), 1u);
  EXPECT_EQ(p.batches[0].specs[0].entity, "vm-1");
  EXPECT_EQ(*p.batches[0].specs[0].start, kNow - 5 * 3600 * kNsPerSec);
  EXPECT_EQ(*p.batches[0].specs[0].end, kNow - 4 * 3600 * kNsPerSec);
  EXPECT_EQ(p.rollups_expired, 1);
  EXPECT_EQ(p.forgive, std::vector<std::string>{"vm-2"});
  EXPECT_EQ(p.owe.count("vm-2"), 0u);
}

// A server that keeps its 5-minute rollup three days (the list the collector reads when a round
// needs a catch-up): a collector away two days gets both back, where vCenter's default day cut it.
TEST(VsphereBatchPlanTest, TheCatchUpReachesAsFarBackAsTheServerKeepsTheFiveMinuteRollup) {
  PlanInput in = Input({"vm-1"});
  MarkAll(&in, "vm-1", 20, kNow - 2 * 86400 * kNsPerSec);
  EXPECT_TRUE(NeedsCatchUp(in));
  EXPECT_EQ(*PlanBatches(in).batches[0].specs[0].start, kNow - 86400 * kNsPerSec);  // the default list
  in.rollups = {{300, 3 * 86400 * kNsPerSec, 1}, {1800, 7 * 86400 * kNsPerSec, 1}};
  const BatchPlan p = PlanBatches(in);
  ASSERT_EQ(p.batches.size(), 2u);
  EXPECT_EQ(p.batches[0].specs[0].interval_id, 300);
  EXPECT_EQ(*p.batches[0].specs[0].start, kNow - 2 * 86400 * kNsPerSec);
  EXPECT_EQ(p.vms_caught_up, 1);
  // An owed range two days old is still kept there.
  in.marks.clear();
  MarkAll(&in, "vm-1", 20, kNow - kMin);
  in.owed["vm-1"] = RollupDue{kNow - 50 * 3600 * kNsPerSec, kNow - 40 * 3600 * kNsPerSec};
  EXPECT_TRUE(NeedsCatchUp(in));
  const BatchPlan owed = PlanBatches(in);
  EXPECT_EQ(*owed.batches[0].specs[0].start, kNow - 50 * 3600 * kNsPerSec);
  EXPECT_EQ(owed.rollups_expired, 0);
}

TEST(VsphereBatchPlanTest, AServerWithoutAFiveMinuteRollupIsAskedNoCatchUpAndItsOwedRangesGo) {
  PlanInput in = Input({"vm-1", "vm-2"});
  MarkAll(&in, "vm-1", 20, kNow - 3 * 3600 * kNsPerSec);
  MarkAll(&in, "vm-2", 20, kNow - kMin);
  in.owed["vm-2"] = RollupDue{kNow - 5 * 3600 * kNsPerSec, kNow - 4 * 3600 * kNsPerSec};
  in.rollups = {{1800, 7 * 86400 * kNsPerSec, 1}};  // the 5-minute interval disabled
  const BatchPlan p = PlanBatches(in);
  for (const Batch& b : p.batches)
    for (const auto& q : b.specs) EXPECT_EQ(q.interval_id, 20);
  EXPECT_EQ(p.vms_caught_up, 0);
  EXPECT_EQ(p.rollups_expired, 1);
  EXPECT_EQ(p.forgive, std::vector<std::string>{"vm-2"});
}

TEST(VsphereBatchPlanTest, TheCatchUpAsksOnlyTheCountersTheFiveMinuteRollupKeeps) {
  PlanInput in = Input({"vm-1"}, 4);  // usage, ready, costop, run
  in.counter_levels = {{100, 1}, {101, 1}, {102, 3}, {103, 2}};
  MarkAll(&in, "vm-1", 20, kNow - 3 * 3600 * kNsPerSec);
  in.rollups = {{300, 86400 * kNsPerSec, 1}};
  const BatchPlan p = PlanBatches(in);
  EXPECT_EQ(p.batches[0].specs[0].interval_id, 300);
  EXPECT_EQ(p.batches[0].specs[0].counter_ids, (std::vector<int>{100, 101}));
  EXPECT_EQ(p.not_kept, (std::map<std::string, int>{{"cpu.costop.summation", 300}, {"cpu.run.summation", 300}}));
}

TEST(VsphereBatchPlanTest, ARoundWithinTheRealtimeHourNeedsNoCatchUp) {
  PlanInput in = Input({"vm-1"});
  EXPECT_FALSE(NeedsCatchUp(in));  // no marks: a first round starts at since
  MarkAll(&in, "vm-1", 20, kNow - 30 * kMin);
  EXPECT_FALSE(NeedsCatchUp(in));
  MarkAll(&in, "vm-1", 20, kNow - 3 * 3600 * kNsPerSec);
  in.since = 2 * 86400 * kNsPerSec;  // historical: asks the rollup itself
  EXPECT_FALSE(NeedsCatchUp(in));
}

TEST(VsphereBatchPlanTest, HistoricalAsksTheRollupWithAnHourOfLookbackAndNoCatchUp) {
  PlanInput in = Input({"vm-1"});
  in.since = 2 * 86400 * kNsPerSec;  // beyond realtime: historical
  MarkAll(&in, "vm-1", 300, kNow - 3 * 3600 * kNsPerSec);
  const BatchPlan p = PlanBatches(in);
  EXPECT_EQ(p.interval_s, 300);
  ASSERT_EQ(p.batches.size(), 1u);
  EXPECT_EQ(p.batches[0].specs[0].interval_id, 300);
  EXPECT_EQ(*p.batches[0].specs[0].start, kNow - 4 * 3600 * kNsPerSec);
  EXPECT_EQ(p.vms_caught_up, 0);
}

TEST(VsphereBatchPlanTest, CatchUpQueriesPackWholeVmsIntoTheLimit) {
  PlanInput in = Input({"vm-1", "vm-2", "vm-3"}, 6);
  in.batch_limit = 12;
  for (const std::string& vm : in.vms) MarkAll(&in, vm, 20, kNow - 3 * 3600 * kNsPerSec);
  const BatchPlan p = PlanBatches(in);
  // Rollups: 6 + 6 metrics, then 6; then realtime: 12, 6.
  ASSERT_EQ(p.batches.size(), 4u);
  EXPECT_EQ(p.batches[0].specs.size(), 2u);
  EXPECT_EQ(p.batches[1].specs.size(), 1u);
  for (int b = 0; b < 2; ++b)
    for (const auto& q : p.batches[b].specs) EXPECT_EQ(q.interval_id, 300);
  EXPECT_EQ(p.batches[2].specs[0].interval_id, 20);
  EXPECT_EQ(p.vms_caught_up, 3);
}

TEST(VsphereBatchPlanTest, HostsAreAskedForTheirAggregateInBatchesOfTheirOwnAfterTheVms) {
  PlanInput in = Input({"vm-1"});
  in.host_counters = {{200, "cpu.utilization.average"}, {101, "cpu.ready.summation"}};
  in.hosts = {"host-1", "host-2"};
  in.batch_limit = 4;
  // host-1 was stored up to 2 minutes ago; host-2 never.
  for (const auto& [id, name] : in.host_counters) in.marks[MarkKey{"host-1", name, 20}] = kNow - 2 * kMin;
  const BatchPlan p = PlanBatches(in);
  ASSERT_EQ(p.batches.size(), 2u);
  EXPECT_EQ(p.batches[0].vms, (std::set<std::string>{"vm-1"}));  // 3 metrics: room for one more, not a host's
  EXPECT_TRUE(p.batches[0].hosts.empty());
  EXPECT_EQ(p.batches[0].specs[0].entity_type, "VirtualMachine");
  EXPECT_EQ(p.batches[0].specs[0].instance, "*");
  EXPECT_TRUE(p.batches[1].vms.empty());
  EXPECT_EQ(p.batches[1].hosts, (std::set<std::string>{"host-1", "host-2"}));
  ASSERT_EQ(p.batches[1].specs.size(), 2u);
  for (const vsphere::QuerySpec& q : p.batches[1].specs) {
    EXPECT_EQ(q.entity_type, "HostSystem");
    EXPECT_EQ(q.instance, "");  // the aggregate alone
    EXPECT_EQ(q.counter_ids, (std::vector<int>{101, 200}));
  }
  EXPECT_EQ(*p.batches[1].specs[0].start, kNow - 3 * kMin);   // its marks, a minute back
  EXPECT_EQ(*p.batches[1].specs[1].start, kNow - 10 * kMin);  // --since
}

// Back after three hours: a host catches up from the rollup too, in a batch apart from the VMs'.
TEST(VsphereBatchPlanTest, AHostsCatchUpIsPackedApartFromTheVms) {
  PlanInput in = Input({"vm-1"});
  in.host_counters = {{200, "cpu.utilization.average"}};
  in.hosts = {"host-1"};
  MarkAll(&in, "vm-1", 20, kNow - 3 * 3600 * kNsPerSec);
  in.marks[MarkKey{"host-1", "cpu.utilization.average", 20}] = kNow - 3 * 3600 * kNsPerSec;
  const BatchPlan p = PlanBatches(in);
  // Rollups: the VM's, then the host's; then realtime: the VM's, then the host's.
  ASSERT_EQ(p.batches.size(), 4u);
  EXPECT_EQ(p.batches[0].vms, (std::set<std::string>{"vm-1"}));
  EXPECT_TRUE(p.batches[0].hosts.empty());
  EXPECT_EQ(p.batches[1].hosts, (std::set<std::string>{"host-1"}));
  EXPECT_TRUE(p.batches[1].vms.empty());
  EXPECT_EQ(p.batches[1].specs[0].interval_id, 300);
  EXPECT_EQ(p.batches[1].specs[0].entity_type, "HostSystem");
  EXPECT_EQ(p.batches[3].hosts, (std::set<std::string>{"host-1"}));
  EXPECT_EQ(p.batches[3].specs[0].interval_id, 20);
  EXPECT_EQ(p.vms_caught_up, 1);  // VMs only
}

TEST(VsphereHostsToAskTest, TheVmsHostsAndTheirClustersOthersButNotALostHost) {
  std::map<std::string, vsphere::VmInfo> vms;
  vms["vm-1"].host_moid = "host-1";  // in cluster c1
  vms["vm-2"].host_moid = "host-9";  // standalone
  auto host = [](const std::string& moid, const std::string& cluster, bool connected = true) {
    vsphere::HostInfo h;
    h.moid = moid;
    h.cluster_moid = cluster;
    h.connected = connected;
    return h;
  };
  const std::vector<vsphere::HostInfo> all = {
      host("host-1", "c1"), host("host-2", "c1"), host("host-3", "c1", false),  // disconnected
      host("host-4", "c2"), host("host-9", ""),   host("host-8", "")};
  std::set<std::string> asked;
  for (const auto& [moid, h] : HostsToAsk(vms, all)) asked.insert(moid);
  EXPECT_EQ(asked, (std::set<std::string>{"host-1", "host-2", "host-9"}));
}

TEST(VsphereBatchPlanTest, HostsWithoutCountersAreNotAsked) {
  PlanInput in = Input({"vm-1"});
  in.hosts = {"host-1"};
  const BatchPlan p = PlanBatches(in);
  ASSERT_EQ(p.batches.size(), 1u);
  EXPECT_TRUE(p.batches[0].hosts.empty());
}

constexpr TimeNs kDay = 86400 * kNsPerSec;

// Each spec of the plan's backfill batches as (interval, start, end), by entity.
std::map<std::string, std::vector<std::tuple<int, TimeNs, TimeNs>>> Backfills(const BatchPlan& p) {
  std::map<std::string, std::vector<std::tuple<int, TimeNs, TimeNs>>> out;
  for (const Batch& b : p.batches)
    if (b.backfill)
      for (const vsphere::QuerySpec& q : b.specs) out[q.entity].emplace_back(q.interval_id, *q.start, *q.end);
  return out;
}

TEST(VsphereBatchPlanTest, AFirstRoundBackfillsEachRollupBeforeTheFinerOnesSpan) {
  PlanInput in = Input({"vm-1", "vm-2"});
  in.backfill = 365 * kDay;
  MarkAll(&in, "vm-2", 20, kNow - 2 * kMin);  // seen before: no backfill
  const BatchPlan p = PlanBatches(in);
  const auto b = Backfills(p);
  ASSERT_EQ(b.size(), 1u);
  const std::vector<std::tuple<int, TimeNs, TimeNs>> want = {
      {300, kNow - kDay, kNow - 10 * kMin + 300 * kNsPerSec},  // into the round's own range (--since)
      {1800, kNow - 7 * kDay, kNow - kDay + 1800 * kNsPerSec},
      {7200, kNow - 30 * kDay, kNow - 7 * kDay + 7200 * kNsPerSec},
      {86400, kNow - 365 * kDay, kNow - 30 * kDay + kDay}};
  EXPECT_EQ(b.at("vm-1"), want);
  EXPECT_EQ(p.vms_backfilled, 1);
  EXPECT_EQ(p.from, kNow - 365 * kDay);
  // Asked first, each query's samples counted: a day of 5 minutes is 288 and one.
  EXPECT_TRUE(p.batches.front().backfill);
  EXPECT_FALSE(p.batches.back().backfill);
  for (const Batch& batch : p.batches) {
    if (!batch.backfill) continue;
    for (const vsphere::QuerySpec& q : batch.specs) {
      EXPECT_EQ(q.max_sample, static_cast<int>((*q.end - *q.start) / (q.interval_id * kNsPerSec)) + 1);
    }
  }
  EXPECT_TRUE(p.owe.empty());  // a backfill owes nothing: a failed one is not asked again
}

TEST(VsphereBatchPlanTest, ABackfillAsksOnlyTheLevelsItsDaysReach) {
  PlanInput in = Input({"vm-1"});
  in.backfill = 10 * kDay;
  const auto b = Backfills(PlanBatches(in));
  ASSERT_EQ(b.at("vm-1").size(), 3u);
  EXPECT_EQ(b.at("vm-1")[2], std::make_tuple(7200, kNow - 10 * kDay, kNow - 7 * kDay + 7200 * kNsPerSec));
  in.backfill = 0;  // off
  EXPECT_TRUE(Backfills(PlanBatches(in)).empty());
  in.backfill = 10 * kDay;  // an entity with an owed range or any mark has been seen
  in.owed["vm-1"] = RollupDue{kNow - 5 * kMin, kNow};
  EXPECT_TRUE(Backfills(PlanBatches(in)).empty());
  in.owed.clear();
  in.marks[MarkKey{"vm-1", "cpu.usage.average", 86400}] = kNow - kDay;
  EXPECT_TRUE(Backfills(PlanBatches(in)).empty());
  EXPECT_FALSE(NeedsBackfill(in));  // so the server is not asked which rollups it keeps
  in.vms.push_back("vm-2");
  EXPECT_TRUE(NeedsBackfill(in));
  in.backfill = 0;
  EXPECT_FALSE(NeedsBackfill(in));
}

TEST(VsphereBatchPlanTest, AHistoricalRoundBackfillsTheDayOfFiveMinutesBeforeItsOwnRange) {
  PlanInput in = Input({"vm-1"});
  in.historical = true;
  in.since = 3600 * kNsPerSec;
  in.backfill = 2 * kDay;
  const auto b = Backfills(PlanBatches(in));
  const std::vector<std::tuple<int, TimeNs, TimeNs>> want = {
      {300, kNow - kDay, kNow - 3600 * kNsPerSec + 300 * kNsPerSec},
      {1800, kNow - 2 * kDay, kNow - kDay + 1800 * kNsPerSec}};
  EXPECT_EQ(b.at("vm-1"), want);
}

TEST(VsphereBatchPlanTest, HostsBackfillInBatchesApartFromTheVms) {
  PlanInput in = Input({"vm-1"});
  in.backfill = 2 * kDay;
  in.host_counters[7] = "cpu.utilization.average";
  in.hosts = {"host-1"};
  const BatchPlan p = PlanBatches(in);
  EXPECT_EQ(p.vms_backfilled, 1);
  EXPECT_EQ(p.hosts_backfilled, 1);
  int host_batches = 0;
  for (const Batch& batch : p.batches) {
    if (!batch.backfill) continue;
    EXPECT_TRUE(batch.vms.empty() || batch.hosts.empty());
    if (!batch.hosts.empty()) {
      ++host_batches;
      EXPECT_EQ(batch.specs.front().entity_type, "HostSystem");
    }
  }
  EXPECT_EQ(host_batches, 1);  // both levels in one batch: 2 metrics
}

// The counters each backfill spec asks, by interval, for one entity.
std::map<int, std::vector<int>> BackfillCounters(const BatchPlan& p, const std::string& moid) {
  std::map<int, std::vector<int>> out;
  for (const Batch& b : p.batches)
    if (b.backfill)
      for (const vsphere::QuerySpec& q : b.specs)
        if (q.entity == moid) out[q.interval_id] = q.counter_ids;
  return out;
}

TEST(VsphereBatchPlanTest, ABackfillFollowsTheServersOwnRollupLengths) {
  PlanInput in = Input({"vm-1"});
  in.backfill = 20 * kDay;
  // 5 minutes kept 3 days, 30 minutes disabled (left out), 2 hours for 60 days.
  in.rollups = {{300, 3 * kDay, 1}, {7200, 60 * kDay, 1}};
  const std::vector<std::tuple<int, TimeNs, TimeNs>> want = {
      {300, kNow - 3 * kDay, kNow - 10 * kMin + 300 * kNsPerSec},
      {7200, kNow - 20 * kDay, kNow - 3 * kDay + 7200 * kNsPerSec}};
  EXPECT_EQ(Backfills(PlanBatches(in)).at("vm-1"), want);
  in.rollups.clear();  // a server keeping no rollups (an ESXi host): nothing to backfill from
  const BatchPlan none = PlanBatches(in);
  EXPECT_TRUE(Backfills(none).empty());
  EXPECT_EQ(none.vms_backfilled, 0);
}

TEST(VsphereBatchPlanTest, ARollupIsAskedOnlyForTheCountersItsLevelKeeps) {
  PlanInput in = Input({"vm-1"}, 4);  // usage 100, ready 101, costop 102, run 103
  in.backfill = 40 * kDay;
  in.counter_levels = {{100, 1}, {101, 1}, {102, 2}, {103, 2}};
  // A vCenter at level 2 for its day and week, level 1 after (vCenter keeps each level at most
  // the finer one's).
  in.rollups = {{300, kDay, 2}, {1800, 7 * kDay, 2}, {7200, 30 * kDay, 1}, {86400, 365 * kDay, 1}};
  const BatchPlan p = PlanBatches(in);
  const auto asked = BackfillCounters(p, "vm-1");
  EXPECT_EQ(asked.at(300), (std::vector<int>{100, 101, 102, 103}));
  EXPECT_EQ(asked.at(1800), (std::vector<int>{100, 101, 102, 103}));
  EXPECT_EQ(asked.at(7200), (std::vector<int>{100, 101}));
  EXPECT_EQ(asked.at(86400), (std::vector<int>{100, 101}));
  EXPECT_EQ(p.not_kept, (std::map<std::string, int>{{"cpu.costop.summation", 7200}, {"cpu.run.summation", 7200}}));
  // A level said 0 (not said) is asked everywhere; so is a counter whose level is unknown.
  in.counter_levels = {{103, 0}};
  EXPECT_EQ(BackfillCounters(PlanBatches(in), "vm-1").at(86400), (std::vector<int>{100, 101, 102, 103}));
}

TEST(VsphereBatchPlanTest, ARollupKeepingNoneOfAHostsCountersIsSkippedWithoutAGap) {
  PlanInput in = Input({});
  in.backfill = 10 * kDay;
  in.host_counters = {{7, "cpu.utilization.average"}};
  in.counter_levels = {{7, 2}};
  in.hosts = {"host-1"};
  in.rollups = {{300, kDay, 2}, {1800, 7 * kDay, 1}, {7200, 30 * kDay, 1}};
  const BatchPlan p = PlanBatches(in);
  const std::vector<std::tuple<int, TimeNs, TimeNs>> want = {{300, kNow - kDay, kNow - 10 * kMin + 300 * kNsPerSec}};
  EXPECT_EQ(Backfills(p).at("host-1"), want);
  EXPECT_EQ(p.hosts_backfilled, 1);
  // At level 1 throughout, the host's utilization is in no rollup: no backfill at all.
  for (RollupLevel& r : in.rollups) r.level = 1;
  const BatchPlan none = PlanBatches(in);
  EXPECT_TRUE(Backfills(none).empty());
  EXPECT_EQ(none.hosts_backfilled, 0);
  EXPECT_EQ(none.not_kept.at("cpu.utilization.average"), 300);
}

}  // namespace
}  // namespace vrecon
