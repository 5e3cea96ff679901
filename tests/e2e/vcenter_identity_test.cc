// Two vCenters (production and disaster recovery) whose VMs share names, against two govmomi
// simulators: each VM keeps its own identity and samples (issue 13).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <regex>
#include <set>

#include "tests/support/cli_runner.h"
#include "tests/support/vcsim.h"

namespace vrecon::testing {
namespace {

CliResult Collect(const Vcsim& sim, const std::string& db, const std::string& format = "json") {
  setenv("VRECON_VSPHERE_PASSWORD", sim.password().c_str(), 1);
  CliResult r = RunVrecon({"collect", "vsphere", "--url", sim.url(), "--user", sim.user(), "--ca", sim.ca_file(),
                           "--db", db, "--since", "5m", "--format", format});
  unsetenv("VRECON_VSPHERE_PASSWORD");
  return r;
}

std::vector<std::string> All(const std::string& text, const std::string& pattern) {
  std::vector<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

TEST(VcenterIdentityTest, TwoVcentersWithTheSameVmNamesKeepTwentyFiveVmsApart) {
  VRECON_REQUIRE_VCSIM();
  auto prod = Vcsim::Start({.vms = 13});
  ASSERT_NE(prod, nullptr) << Vcsim::last_error();
  auto dr = Vcsim::Start({.vms = 12});
  ASSERT_NE(dr, nullptr) << Vcsim::last_error();
  TempDir dir;
  const std::string db = dir.File("fleet.db");
  for (const Vcsim* sim : {prod.get(), dr.get()}) {
    CliResult c = Collect(*sim, db);
    ASSERT_EQ(c.exit_code, 0) << c.err << c.out;
  }
  CliResult again = Collect(*dr, db, "table");  // each round warns, and keeps the same identities
  EXPECT_NE((again.out + again.err).find("vcenter-uuid-shared"), std::string::npos) << again.out << again.err;

  CliResult ready = RunVrecon({"ready", "--db", db, "--format", "json"});
  ASSERT_EQ(ready.exit_code, 0) << ready.err;
  const std::vector<std::string> keys = All(ready.out, "\"vm_key\": \"([^\"]+)\"");
  const std::vector<std::string> names = All(ready.out, "\\{\"vm\": \"([^\"]+)\"");
  EXPECT_EQ(keys.size(), 25u) << ready.out.substr(0, 2000);
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), 25u);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), 13u);  // 12 names on both
  // Keyed by each server's instanceUuid and the VM's moid. This govmomi gives every simulator the
  // same instanceUuid, as a vCenter cloned for disaster recovery keeps production's: the second
  // is told apart by its URL host (and the collector warns).
  const std::string second = "@127.0.0.1:" + std::to_string(dr->port()) + "/";
  size_t of_second = 0;
  for (const std::string& k : keys) {
    EXPECT_TRUE(std::regex_match(k, std::regex("vsphere:[0-9a-f-]{36}(@127\\.0\\.0\\.1:[0-9]+)?/vm-[0-9]+"))) << k;
    of_second += k.find(second) != std::string::npos;
  }
  EXPECT_EQ(of_second, 12u);
  // A shared name is shown with its vCenter in the table.
  CliResult table = RunVrecon({"ready", "--db", db});
  EXPECT_NE(table.out.find("DC0_H0_VM0 [127.0.0.1:" + std::to_string(prod->port()) + "]"), std::string::npos)
      << table.out;

  // Samples not mixed: each VM's series holds its own vCenter's samples, one per timestamp.
  CliResult s = RunVrecon({"samples", "--db", db, "--machine", "DC0_H0_VM0", "--counter", "cpu.usage.average",
                           "--instance", "", "--format", "csv"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  std::map<std::string, std::multiset<std::string>> ends;  // vm_key -> sample ends
  const std::regex line(R"(vsphere,DC0_H0_VM0,cpu,,cpu\.usage\.average,[^,]*,([^,]*),[^\n]*,(vsphere:[^,\n]+))");
  for (auto it = std::sregex_iterator(s.out.begin(), s.out.end(), line); it != std::sregex_iterator(); ++it)
    ends[(*it)[2]].insert((*it)[1]);
  ASSERT_EQ(ends.size(), 2u) << s.out.substr(0, 1000);
  for (const auto& [key, e] : ends) {
    EXPECT_FALSE(e.empty());
    EXPECT_EQ(std::set<std::string>(e.begin(), e.end()).size(), e.size()) << key << " has two samples at one time";
  }

  // --vm by key: one VM; by name: both.
  CliResult one = RunVrecon({"ready", "--db", db, "--vm", keys.front(), "--format", "json"});
  EXPECT_EQ(All(one.out, "\"vm_key\": \"([^\"]+)\"").size(), 1u);
  CliResult both = RunVrecon({"ready", "--db", db, "--vm", "DC0_H0_VM0", "--format", "json"});
  EXPECT_EQ(All(both.out, "\"vm_key\": \"([^\"]+)\"").size(), 2u);
}

// --vsphere-counter (issue 14, part 3): the simulator's usage and run differ by far more than 10%.
TEST(VcenterIdentityTest, TheVsphereCounterIsChosenAndShown) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 1});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  TempDir dir;
  const std::string db = dir.File("fleet.db");
  CliResult c = Collect(*sim, db);
  ASSERT_EQ(c.exit_code, 0) << c.err << c.out;
  CliResult usage = RunVrecon({"correct", "--db", db, "--format", "json"});
  ASSERT_EQ(usage.exit_code, 0) << usage.err;
  EXPECT_NE(usage.out.find("\"host_counter\": \"cpu.usage.average\""), std::string::npos) << usage.out.substr(0, 800);
  EXPECT_NE(usage.out.find("\"code\": \"frequency-scaled\""), std::string::npos);
  CliResult run = RunVrecon({"correct", "--db", db, "--vsphere-counter", "run", "--format", "csv"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find(",cpu.run.summation,samples,"), std::string::npos) << run.out.substr(0, 800);
  EXPECT_EQ(run.out.find(",cpu.usage.average,"), std::string::npos);
  EXPECT_EQ(RunVrecon({"correct", "--db", db, "--vsphere-counter", "ready"}).exit_code, 2);
  // The report's CSV names the counter of the stored corrections, and --recompute takes the choice.
  CliResult stored = RunVrecon({"report", "--db", db, "--format", "csv", "--out", "-"});
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  EXPECT_NE(stored.out.find(",host_counter,basis,"), std::string::npos);
  EXPECT_NE(stored.out.find(",cpu.usage.average,"), std::string::npos) << stored.out.substr(0, 800);
  CliResult recomputed =
      RunVrecon({"report", "--db", db, "--format", "csv", "--out", "-", "--recompute", "--vsphere-counter", "run"});
  ASSERT_EQ(recomputed.exit_code, 0) << recomputed.err;
  EXPECT_NE(recomputed.out.find(",cpu.run.summation,"), std::string::npos) << recomputed.out.substr(0, 800);
  EXPECT_EQ(recomputed.out.find(",cpu.usage.average,"), std::string::npos);
}

}  // namespace
}  // namespace vrecon::testing
