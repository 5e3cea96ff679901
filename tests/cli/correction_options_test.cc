// The options `vrecon correct` and `vrecon counters` share, turned into a CorrectionRequest
// (src/cli/correction_options.cc), in-process.
#include "src/cli/correction_options.h"

#include <gtest/gtest.h>

namespace vrecon::cli {
namespace {

TEST(CorrectionOptionsTest, TheDefaultsAskForEveryVmInFiveMinuteWindowsAligned) {
  CorrectionRequest req;
  ASSERT_TRUE(ToCorrectionRequest(CorrectionOptions{}, &req).ok());
  EXPECT_EQ(req.window, 300 * kNsPerSec);
  EXPECT_FALSE(req.vm);
  EXPECT_FALSE(req.from);
  EXPECT_FALSE(req.to);
  EXPECT_TRUE(req.align);
  EXPECT_EQ(req.host_counters.vsphere, VsphereCounter::kUsage);
  EXPECT_EQ(req.host_counters.esxtop, EsxtopCounter::kUsed);
  EXPECT_EQ(req.host_counters.hyperv, HyperVCounter::kTotalRunTime);
  EXPECT_TRUE(req.mappings.empty());
}

TEST(CorrectionOptionsTest, EveryOptionReachesTheRequest) {
  CorrectionOptions o;
  o.vm = "WEB*";
  o.from = "2026-11-02T10:00:00Z";
  o.to = "2026-11-02T12:00:00Z";
  o.window = 60;
  o.no_align = true;
  o.vsphere_counter = "run";
  o.esxtop_counter = "run";
  o.hyperv_counter = "guest";
  o.maps = {"web01=WEB01", "db01=DB01"};
  CorrectionRequest req;
  ASSERT_TRUE(ToCorrectionRequest(o, &req).ok());
  EXPECT_EQ(req.vm, "WEB*");
  EXPECT_EQ(req.from, ParseIso("2026-11-02T10:00:00Z"));
  EXPECT_EQ(req.to, ParseIso("2026-11-02T12:00:00Z"));
  EXPECT_EQ(req.window, 60 * kNsPerSec);
  EXPECT_FALSE(req.align);
  EXPECT_EQ(req.host_counters.vsphere, VsphereCounter::kRun);
  EXPECT_EQ(req.host_counters.esxtop, EsxtopCounter::kRun);
  EXPECT_EQ(req.host_counters.hyperv, HyperVCounter::kGuestRunTime);
  EXPECT_EQ(req.mappings.size(), 2u);
  EXPECT_EQ(req.mappings.at("db01"), "DB01");
}

// The request filled depends on the options only: a request used before keeps nothing of it.
TEST(CorrectionOptionsTest, AUsageErrorNamesTheOption) {
  CorrectionRequest req;
  CorrectionOptions backwards;
  backwards.from = "2026-11-03";
  backwards.to = "2026-11-02";
  EXPECT_EQ(ToCorrectionRequest(backwards, &req).message(), "--to 2026-11-02 is not after --from 2026-11-03");
  CorrectionOptions bad_map;
  bad_map.maps = {"web01"};
  EXPECT_EQ(ToCorrectionRequest(bad_map, &req).message(), "--map \"web01\" should be GUEST=VM");
  // CLI11 refuses these words first; the request's own check says the same.
  CorrectionOptions bad_counter;
  bad_counter.vsphere_counter = "ready";
  EXPECT_EQ(ToCorrectionRequest(bad_counter, &req).message(),
            "--vsphere-counter must be \"usage\" or \"run\", not \"ready\"");
  bad_counter = CorrectionOptions{};
  bad_counter.esxtop_counter = "usage";
  EXPECT_EQ(ToCorrectionRequest(bad_counter, &req).message(),
            "--esxtop-counter must be \"used\" or \"run\", not \"usage\"");
}

}  // namespace
}  // namespace vrecon::cli
