#include "models/vm_identity.h"

#include <gtest/gtest.h>

namespace vrecon::models {
namespace {

TEST(VmIdentityTest, NormalizeStripsDomainAndCase) {
  EXPECT_EQ(NormalizeVmName("WEB01.corp.example.com"), "web01");
  EXPECT_EQ(NormalizeVmName("Web01"), "web01");
  EXPECT_EQ(NormalizeVmName("10.0.0.5"), "10.0.0.5");
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

TEST(VmIdentityTest, MatchesCaseInsensitivelyWithoutDomain) {
  auto m = MatchVms({"web01.corp.example", "DB02"}, {"WEB01", "APP03"}, {});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].vm, "WEB01");
  EXPECT_TRUE(m[0].host_seen);
  EXPECT_EQ(m[1].vm, "DB02");
  EXPECT_FALSE(m[1].host_seen);
  EXPECT_EQ(m[2].vm, "APP03");
  EXPECT_FALSE(m[2].guest);
}

TEST(VmIdentityTest, ExplicitMappingWins) {
  auto m = MatchVms({"WEB01", "srv-7"}, {"WEB01", "Billing VM"}, {{"SRV-7", "billing vm"}});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[1].vm, "Billing VM");
  EXPECT_EQ(m[1].guest.value_or(""), "srv-7");
}

}  // namespace
}  // namespace vrecon::models
