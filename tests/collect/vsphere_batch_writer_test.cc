// One QueryPerf answer stored (src/collect/vsphere_batch_writer.h), in a real SQLite store: an
// answer may hold one entity more than once (a VM's realtime and rollup specs in one batch), and a
// VM's samples live under one file row, whichever spec brought them.
#include "src/collect/vsphere_batch_writer.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon {
namespace {

const TimeNs kT0 = NsFromCivil(CivilTime{2026, 3, 2});
constexpr int kUsage = 2;
const std::string kVcenter = "https://vca/sdk";

// `n` samples of `interval_s` seconds ending at `first_end` and after, usage 25%.
vsphere::EntityMetrics Answer(const std::string& moid, TimeNs first_end, int interval_s, int n) {
  vsphere::EntityMetrics em;
  em.entity = {"VirtualMachine", moid};
  vsphere::MetricSeries s;
  s.counter_id = kUsage;
  for (int i = 0; i < n; ++i) {
    em.ends.push_back(first_end + static_cast<TimeNs>(i) * interval_s * kNsPerSec);
    em.intervals_s.push_back(interval_s);
    s.values.push_back(2500);  // hundredths of a percent
  }
  em.series.push_back(s);
  return em;
}

class VsphereBatchWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(testing::NewStore(testing::TestBackend::kSqlite, dir_.path(), "batch.db"));
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
    counters_[kUsage] = {kUsage, "cpu.usage.average", "percent", 1};
    vms_["vm-1"] = {"vm-1", "WEB01", "host-9", "poweredOn", "", 2};
  }
  StatusOr<VsphereCollectResult> Write(const std::vector<vsphere::EntityMetrics>& metrics) {
    VsphereBatchWriter writer(store_.get(), kVcenter, "vca", counters_, vms_, hosts_, &marks_);
    VsphereCollectResult result;
    RETURN_IF_ERROR(writer.Write(metrics, {}, &result));
    return result;
  }
  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  std::map<int, vsphere::CounterInfo> counters_;
  std::map<std::string, vsphere::VmInfo> vms_;
  std::map<std::string, vsphere::HostInfo> hosts_;
  std::map<MarkKey, TimeNs> marks_;
};

TEST_F(VsphereBatchWriterTest, AVmTwiceInOneAnswerIsStoredUnderOneFileRow) {
  // Its 5-minute rollup for an hour, then its realtime samples after it, in one answer, on a store
  // that has no file row of the VM yet.
  const auto r =
      Write({Answer("vm-1", kT0 + 300 * kNsPerSec, 300, 12), Answer("vm-1", kT0 + 3620 * kNsPerSec, 20, 15)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->samples, 27);
  auto files = store_->FindFiles({"vsphere|" + kVcenter + "|vm-1"});
  ASSERT_TRUE(files.ok()) << files.status().message();
  ASSERT_EQ(files->size(), 1u);
  const FileRecord& f = files->begin()->second;
  EXPECT_EQ(f.rows, 27);
  EXPECT_EQ(f.first_end, kT0 + 300 * kNsPerSec);
  EXPECT_EQ(f.last_end, kT0 + (3620 + 14 * 20) * kNsPerSec);
  // Each interval's mark moved to its own last sample.
  EXPECT_EQ(marks_.at(MarkKey{"vm-1", "cpu.usage.average", 300}), kT0 + 3600 * kNsPerSec);
  EXPECT_EQ(marks_.at(MarkKey{"vm-1", "cpu.usage.average", 20}), kT0 + (3620 + 14 * 20) * kNsPerSec);
}

TEST_F(VsphereBatchWriterTest, ALaterAnswerAddsToTheStoredFileRow) {
  ASSERT_TRUE(Write({Answer("vm-1", kT0 + 20 * kNsPerSec, 20, 15)}).ok());
  const auto r = Write({Answer("vm-1", kT0 + 320 * kNsPerSec, 20, 15), Answer("vm-1", kT0 + 600 * kNsPerSec, 300, 1)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto files = store_->FindFiles({"vsphere|" + kVcenter + "|vm-1"});
  ASSERT_TRUE(files.ok()) << files.status().message();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(files->begin()->second.rows, 31);
}

}  // namespace
}  // namespace vrecon
