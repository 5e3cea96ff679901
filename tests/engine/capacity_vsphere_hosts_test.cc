// A vCenter host's demand from its own counters (src/engine/capacity_vsphere_hosts.cc): which
// series are its, and busy threads plus its VMs' ready in cores, per 5 minutes.
#include <gtest/gtest.h>

#include "src/engine/capacity_parts.h"

namespace vrecon {
namespace {

constexpr TimeNs kHostsT0 = 1'800'000'000 * kNsPerSec / 300 * 300;  // on a 5-minute boundary

SeriesKey HostKey(const std::string& counter, const std::string& instance = "",
                  SourceKind source = SourceKind::kVsphereHost) {
  SeriesKey k;
  k.source = source;
  k.machine = "esx01";
  k.object = "cpu";
  k.instance = instance;
  k.counter = counter;
  k.unit = "percent";
  k.entity = "vc-uuid/host-1";
  return k;
}

// 20 s samples of `value` over [from, to).
std::vector<models::Interval> Every20s(TimeNs from, TimeNs to, double value) {
  std::vector<models::Interval> out;
  for (TimeNs t = from; t < to; t += 20 * kNsPerSec) out.push_back({t, t + 20 * kNsPerSec, value});
  return out;
}

TEST(VsphereHostDemandTest, TheAggregateOfItsUtilizationAndReadyIsTheHosts) {
  VmView view;
  view.series = {{1, HostKey("cpu.utilization.average")},
                 {2, HostKey("cpu.ready.summation")},
                 {3, HostKey("cpu.utilization.average", "0")},  // a thread: not asked for, not read
                 {4, HostKey("cpu.coreUtilization.average")},
                 {5, HostKey("cpu.ready.summation", "", SourceKind::kVsphere)}};  // a VM's
  const std::map<std::string, VsphereHostSeries> hosts = VsphereHostSeriesOf(view);
  ASSERT_EQ(hosts.size(), 1u);
  const VsphereHostSeries& h = hosts.at("vc-uuid/host-1");
  EXPECT_EQ(h.utilization, std::vector<int64_t>{1});
  EXPECT_EQ(h.ready, std::vector<int64_t>{2});
}

TEST(VsphereHostDemandTest, BusyThreadsPlusReadyInCoresEachFiveMinutes) {
  VsphereHostSeries h{{1}, {2}};
  Samples samples;
  // 50% of 8 threads busy for 5 minutes, then 25%; its VMs wait 30% of a vCPU in all.
  samples[1] = Every20s(kHostsT0, kHostsT0 + 300 * kNsPerSec, 50);
  const std::vector<models::Interval> later = Every20s(kHostsT0 + 300 * kNsPerSec, kHostsT0 + 600 * kNsPerSec, 25);
  samples[1].insert(samples[1].end(), later.begin(), later.end());
  samples[2] = Every20s(kHostsT0, kHostsT0 + 600 * kNsPerSec, 30);
  const std::vector<models::DemandBin> bins = VsphereHostBins(h, samples, 8);
  ASSERT_EQ(bins.size(), 2u);
  EXPECT_EQ(bins[0].start, kHostsT0);
  EXPECT_NEAR(bins[0].cores, 4.3, 1e-9);
  EXPECT_NEAR(bins[1].cores, 2.3, 1e-9);
  // Without ready stored, busy threads alone.
  const std::vector<models::DemandBin> busy = VsphereHostBins(VsphereHostSeries{{1}, {}}, samples, 8);
  ASSERT_EQ(busy.size(), 2u);
  EXPECT_NEAR(busy[0].cores, 4.0, 1e-9);
}

}  // namespace
}  // namespace vrecon
