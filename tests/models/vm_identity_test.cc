#include "models/vm_identity.h"

#include <gtest/gtest.h>

#include "tests/support/time_units.h"

namespace vrecon::models {
namespace {

using vrecon::testing::kMin;

TEST(VmIdentityTest, NormalizeStripsDomainAndCase) {
  EXPECT_EQ(NormalizeVmName("WEB01.corp.example.com"), "web01");
  EXPECT_EQ(NormalizeVmName("Web01"), "web01");
  EXPECT_EQ(NormalizeVmName("10.0.0.5"), "10.0.0.5");
  EXPECT_EQ(FoldVmName(" App v1.2 "), "app v1.2");  // host-side names are compared whole
}

TEST(VmIdentityTest, ParsesHostInstances) {
  auto vp = ParseHyperVVpInstance("WEB01:Hv VP 3");
  ASSERT_TRUE(vp);
  EXPECT_EQ(vp->vm, "WEB01");
  EXPECT_EQ(vp->vp, 3);
  EXPECT_FALSE(ParseHyperVVpInstance("_Total"));
  EXPECT_EQ(ParseEsxtopGroupInstance("12345:WEB01").value_or(""), "WEB01");
  EXPECT_FALSE(ParseEsxtopGroupInstance("12345"));
}

TEST(VmIdentityTest, SpansMergeAndOverlap) {
  std::vector<Span> a;
  AddSpan(&a, 0, 10);
  AddSpan(&a, 10, 20);  // touching: one span
  AddSpan(&a, 30, 40);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].to, 20);
  EXPECT_EQ(OverlapNs(a, {{15, 35}}), 5 + 5);
  EXPECT_EQ(OverlapNs(a, {{20, 30}}), 0);
}

HostSighting Seen(std::string host, TimeNs from_min, TimeNs to_min) {
  return HostSighting{std::move(host), {{from_min * kMin, to_min * kMin}}};
}

TEST(VmIdentityTest, SameNameOneHostAfterAnotherIsOneVmThatMoved) {
  const auto groups = GroupSightings({Seen("esx-b", 60, 120), Seen("esx-a", 0, 61)});
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0], (std::vector<size_t>{1, 0}));  // time order: esx-a, then esx-b
}

TEST(VmIdentityTest, SameNameAtTheSameTimeOnTwoHostsIsTwoVms) {
  const auto groups = GroupSightings({Seen("esx-a", 0, 120), Seen("esx-b", 30, 150)});
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], std::vector<size_t>{0});
  EXPECT_EQ(groups[1], std::vector<size_t>{1});
}

TEST(VmIdentityTest, TwoShortCapturesAtOnceAreTwoVmsAndABriefOverlapIsAMigration) {
  EXPECT_EQ(GroupSightings({Seen("a", 0, 10), Seen("b", 0, 10)}).size(), 2u);
  EXPECT_EQ(GroupSightings({Seen("a", 0, 60), Seen("b", 58, 120)}).size(), 1u);  // 2 min seen from both ends
}

TEST(VmIdentityTest, AHostThatCouldContinueEitherOfTwoVmsStartsItsOwn) {
  const auto groups = GroupSightings({Seen("a", 0, 100), Seen("b", 0, 100), Seen("c", 200, 300)});
  EXPECT_EQ(groups.size(), 3u);
}

TEST(VmIdentityTest, MovedThereAndBackIsOneVm) {
  HostSighting a{"a", {{0, 60 * kMin}, {120 * kMin, 180 * kMin}}};
  const auto groups = GroupSightings({a, Seen("b", 60, 120)});
  EXPECT_EQ(groups.size(), 1u);
}

TEST(VmIdentityTest, GuestMatchesByNameWithoutItsDomain) {
  const std::vector<VmCandidate> vms = {{"hyperv:hv1/web01", "WEB01", "", {}}, {"hyperv:hv1/app03", "APP03", "", {}}};
  GuestMatch m = VmNameIndex(vms).Match("web01.corp.example", true, std::nullopt);
  EXPECT_EQ(m.vms, std::vector<size_t>{0});
  EXPECT_EQ(m.how, "name");
  EXPECT_TRUE(VmNameIndex(vms).Match("DB02", true, std::nullopt).vms.empty());
  // The suffix is not ignored when another guest spells the short name with another domain.
  EXPECT_TRUE(VmNameIndex(vms).Match("web01.corp.example", false, std::nullopt).vms.empty());
}

TEST(VmIdentityTest, HostNamesThatDifferAfterADotAreNotOneVm) {
  const std::vector<VmCandidate> vms = {{"k1", "db01.prod.local", "", {}},
                                        {"k2", "db01.dev.local", "", {}},
                                        {"k3", "App v1.2", "", {}},
                                        {"k4", "App v1.3", "", {}}};
  EXPECT_EQ(VmNameIndex(vms).Match("db01.prod.local", true, std::nullopt).vms, std::vector<size_t>{0});
  EXPECT_EQ(VmNameIndex(vms).Match("App v1.3", true, std::nullopt).vms, std::vector<size_t>{3});
  EXPECT_TRUE(VmNameIndex(vms).Match("DB01", true, std::nullopt).vms.empty());  // the suffix goes on guests only
}

TEST(VmIdentityTest, TwoVmsOfTheGuestsNameAreAmbiguous) {
  const std::vector<VmCandidate> vms = {{"vsphere:vc-a/vm-1", "WEB01", "", {}}, {"vsphere:vc-b/vm-1", "WEB01", "", {}}};
  const GuestMatch m = VmNameIndex(vms).Match("WEB01", true, std::nullopt);
  EXPECT_EQ(m.vms.size(), 2u);
}

TEST(VmIdentityTest, InventoryHostNameDisambiguates) {
  const std::vector<VmCandidate> vms = {{"vsphere:vc-a/vm-1", "WEB01", "web01.prod.example", {}},
                                        {"vsphere:vc-b/vm-1", "WEB01", "web01-dr.example", {}}};
  const GuestMatch m = VmNameIndex(vms).Match("WEB01", true, std::nullopt);
  EXPECT_EQ(m.vms, std::vector<size_t>{0});
  EXPECT_EQ(m.how, "inventory");
}

TEST(VmIdentityTest, ExplicitMappingWinsByKeyOrName) {
  const std::vector<VmCandidate> vms = {{"vsphere:vc-a/vm-1", "WEB01", "", {}},
                                        {"vsphere:vc-b/vm-1", "WEB01", "", {}},
                                        {"hyperv:hv1/billing vm", "Billing VM", "", {}}};
  EXPECT_EQ(VmNameIndex(vms).Match("WEB01", true, std::string("vsphere:vc-b/vm-1")).vms, std::vector<size_t>{1});
  const GuestMatch m = VmNameIndex(vms).Match("srv-7", true, std::string("billing vm"));
  EXPECT_EQ(m.vms, std::vector<size_t>{2});
  EXPECT_EQ(m.how, "map");
}

TEST(VmIdentityTest, AMappingMayNameTheKeyOfAnIdentityLinkedIntoAVm) {
  // An esxtop VM linked into the vSphere VM of its name (src/engine/host_links.h) keeps its key.
  const std::vector<VmCandidate> vms = {{"vsphere:web01", "WEB01", "", {"esxtop:esx01/web01"}},
                                        {"esxtop:esx02/web01", "WEB01", "", {}}};
  EXPECT_EQ(VmNameIndex(vms).Match("G1", true, std::string("esxtop:esx01/web01")).vms, std::vector<size_t>{0});
  EXPECT_EQ(VmNameIndex(vms).Match("WEB01", true, std::nullopt).vms, (std::vector<size_t>{0, 1}));
}

}  // namespace
}  // namespace vrecon::models
