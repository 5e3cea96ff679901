// One VM is one VM (issue 13), through the real binary: host logs of two hosts that show one VM
// name at the same time or one after the other, host names that differ after a dot, a guest
// rebuilt under a new name and two guests that claim one VM at once.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <regex>
#include <set>

#include "src/core/text_util.h"
#include "src/core/time_util.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"

namespace vrecon::testing {
namespace {

constexpr TimeNs kT0 = 1'793'440'800LL * kNsPerSec;  // 2026-10-31T10:00:00Z, a multiple of 300 s

// A PDH-CSV log in UTC: one row every 20 s from `from_s` to `to_s` (seconds after kT0), each
// column's value from `value(column, second)`.
std::string PdhLog(const std::vector<std::string>& columns, int from_s, int to_s,
                   const std::function<double(size_t, int)>& value) {
  std::string out = "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\"";
  for (const std::string& c : columns) out += ",\"" + c + "\"";
  out += "\r\n";
  for (int s = from_s; s <= to_s; s += 20) {
    const CivilTime c = CivilFromNs(kT0 + s * kNsPerSec);
    char stamp[40];
    std::snprintf(stamp, sizeof stamp, "\"%02d/%02d/%04d %02d:%02d:%02d.000\"", c.month, c.day, c.year, c.hour,
                  c.minute, c.second);
    out += stamp;
    for (size_t i = 0; i < columns.size(); ++i) out += ",\"" + FormatDouble(value(i, s)) + "\"";
    out += "\r\n";
  }
  return out;
}

std::string Esxtop(const std::string& host, const std::string& vm, int from_s, int to_s, double used) {
  return PdhLog({"\\\\" + host + "\\Group Cpu(4242:" + vm + ")\\% Used"}, from_s, to_s,
                [used](size_t, int) { return used; });
}

std::string HyperV(const std::string& host, const std::vector<std::string>& vms, int from_s, int to_s, double run) {
  std::vector<std::string> cols;
  for (const std::string& vm : vms)
    cols.push_back("\\\\" + host + "\\Hyper-V Hypervisor Virtual Processor(" + vm + ":Hv VP 0)\\% Total Run Time");
  return PdhLog(cols, from_s, to_s, [run](size_t i, int) { return run + 10.0 * static_cast<double>(i); });
}

std::string Guest(const std::string& machine, int from_s, int to_s, double total) {
  return PdhLog({"\\\\" + machine + "\\Processor(0)\\% Processor Time",
                 "\\\\" + machine + "\\Processor(_Total)\\% Processor Time",
                 "\\\\" + machine + "\\Process(app)\\% Processor Time"},
                from_s, to_s, [total](size_t i, int) { return i == 2 ? total / 2 : total; });
}

std::set<std::string> Keys(const std::string& json) {
  std::set<std::string> keys;
  const std::regex re("\"vm_key\": \"([^\"]+)\"");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), re); it != std::sregex_iterator(); ++it)
    keys.insert((*it)[1]);
  return keys;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class VmIdentityCliTest : public ::testing::Test {
 protected:
  void In(const std::string& name, const std::string& content, std::vector<std::string> extra = {}) {
    WriteText(dir_.File(name), content);
    std::vector<std::string> args = {"ingest", "--db", db_};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(dir_.File(name));
    CliResult r = RunVrecon(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  CliResult Run(std::vector<std::string> args) {
    args.insert(args.end(), {"--db", db_});
    return RunVrecon(args);
  }
  TempDir dir_;
  std::string db_ = dir_.File("s.db");
};

TEST_F(VmIdentityCliTest, SameNameAtTheSameTimeOnTwoEsxtopHostsIsTwoVms) {
  In("a.csv", Esxtop("esx-a", "APP01", 0, 3600, 40));
  In("b.csv", Esxtop("esx-b", "APP01", 0, 3600, 80));
  CliResult r = Run({"correct", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Keys(r.out), (std::set<std::string>{"esxtop:esx-a/app01", "esxtop:esx-b/app01"}));
  // PDH-CSV for Perfmon: one machine name per VM in the counter paths.
  CliResult pdh = Run({"report", "--format", "pdh-csv", "--out", "-"});
  ASSERT_EQ(pdh.exit_code, 0) << pdh.err;
  const std::string header = pdh.out.substr(0, pdh.out.find('\n'));
  EXPECT_NE(header.find("\\\\APP01\\Processor(_Total)"), std::string::npos) << header;
  EXPECT_NE(header.find("\\\\APP01_esx-b\\Processor(_Total)"), std::string::npos) << header;
  // Not mixed: a 1-vCPU guest pinned to each gets its own host's figure (w 40/50 and 80/50), never
  // the 60% of a merge.
  In("ga.csv", Guest("GA", 0, 3600, 50), {"--map", "GA=esxtop:esx-a/app01", "--map", "GB=esxtop:esx-b/app01"});
  In("gb.csv", Guest("GB", 0, 3600, 50));
  r = Run({"correct", "--format", "json"});
  EXPECT_EQ(Keys(r.out), (std::set<std::string>{"esxtop:esx-a/app01", "esxtop:esx-b/app01"}));
  EXPECT_EQ(Count(r.out, "\"host_util_pct\": 40, \"w\": 0.8,"), 12u) << r.out.substr(0, 800);
  EXPECT_EQ(Count(r.out, "\"host_util_pct\": 80, \"w\": 1.6,"), 12u);
  CliResult t = Run({"correct"});
  EXPECT_NE(t.out.find("VM APP01 [esx-a]"), std::string::npos) << t.out.substr(0, 400);
  EXPECT_NE(t.out.find("VM APP01 [esx-b]"), std::string::npos);
  // --vm by name takes both; by vm_key one.
  EXPECT_EQ(Keys(Run({"correct", "--vm", "app01", "--format", "json"}).out).size(), 2u);
  EXPECT_EQ(Keys(Run({"correct", "--vm", "esxtop:esx-b/app01", "--format", "json"}).out),
            std::set<std::string>{"esxtop:esx-b/app01"});
  CliResult s = Run({"samples", "--machine", "esx-b", "--format", "json"});
  EXPECT_NE(s.out.find("\"vm_key\": \"esxtop:esx-b/app01\""), std::string::npos) << s.out.substr(0, 400);
}

TEST_F(VmIdentityCliTest, TheReportKeepsTwoVmsOfOneNameApart) {
  In("a.csv", Esxtop("esx-a", "APP01", 0, 3600, 40));
  In("b.csv", Esxtop("esx-b", "APP01", 0, 3600, 80));
  In("ga.csv", Guest("GA", 0, 3600, 50), {"--map", "GA=esxtop:esx-a/app01", "--map", "GB=esxtop:esx-b/app01"});
  In("gb.csv", Guest("GB", 0, 3600, 50));
  CliResult json = Run({"report", "--format", "json", "--out", "-"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(Keys(json.out), (std::set<std::string>{"esxtop:esx-a/app01", "esxtop:esx-b/app01"}));
  CliResult csv = Run({"report", "--format", "csv", "--out", "-"});
  EXPECT_EQ(Count(csv.out, "\nvm,APP01,"), 2u) << csv.out.substr(0, 600);  // one vm row each
  // vm, window, process (and flag) rows of each VM carry its key (the vm row then the counter).
  EXPECT_GE(Count(csv.out, ",esxtop:esx-a/app01,"), 1u + 12u + 1u);
  EXPECT_GE(Count(csv.out, ",esxtop:esx-b/app01,"), 1u + 12u + 1u);
  CliResult html = Run({"report", "--out", dir_.File("r.html")});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  const std::string page = ReadText(dir_.File("r.html"));
  EXPECT_NE(page.find("APP01 [esx-a]"), std::string::npos);
  EXPECT_NE(page.find("APP01 [esx-b]"), std::string::npos);
  EXPECT_NE(page.find("VM key: <code>esxtop:esx-b/app01</code>"), std::string::npos);
  // --vm by key selects one VM of the report.
  EXPECT_EQ(Keys(Run({"report", "--format", "json", "--vm", "esxtop:esx-a/app01", "--out", "-"}).out),
            std::set<std::string>{"esxtop:esx-a/app01"});
}

TEST_F(VmIdentityCliTest, SameNameOnOneHostAfterAnotherIsOneVmThatMoved) {
  In("a.csv", Esxtop("esx-a", "APP01", 0, 1800, 40));
  In("b.csv", Esxtop("esx-b", "APP01", 1800, 3600, 80));
  In("g.csv", Guest("APP01", 0, 3600, 50));
  CliResult r = Run({"correct", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Keys(r.out), std::set<std::string>{"esxtop:esx-a/app01"});
  EXPECT_NE(r.out.find("\"vm_source\": \"esx-a -> esx-b\""), std::string::npos);
  EXPECT_EQ(Count(r.out, "\"host_util_pct\": 40, \"w\": 0.8,"), 6u) << r.out.substr(0, 800);
  EXPECT_EQ(Count(r.out, "\"host_util_pct\": 80, \"w\": 1.6,"), 6u);
  CliResult ready = Run({"ready", "--format", "csv"});
  EXPECT_NE(ready.out.find("APP01,esxtop,\"esx-a, esx-b\","), std::string::npos) << ready.out;
}

TEST_F(VmIdentityCliTest, HostVmNamesThatDifferAfterADotStayApart) {
  In("hv.csv", HyperV("HV01", {"db01.prod.local", "db01.dev.local", "App v1.2", "App v1.3"}, 0, 900, 20));
  In("g.csv", Guest("db01.prod.local", 0, 900, 40));
  CliResult r = Run({"correct", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Keys(r.out), (std::set<std::string>{"hyperv:hv01/db01.prod.local", "hyperv:hv01/db01.dev.local",
                                                "hyperv:hv01/app v1.2", "hyperv:hv01/app v1.3"}));
  // The guest's full name matches its own VM only: w = 20 / 40.
  EXPECT_NE(r.out.find("\"w\": 0.5, \"steal_pct\": null, \"guest_machine\": \"db01.prod.local\""), std::string::npos)
      << r.out.substr(0, 1200);
  EXPECT_EQ(Count(r.out, "\"guest_machine\": \"db01.prod.local\""), 3u);
}

TEST_F(VmIdentityCliTest, AGuestRebuiltUnderANewNameJoinsItsVmsTimeline) {
  In("hv.csv", HyperV("HV01", {"WEB01"}, 0, 3600, 30));
  In("old.csv", Guest("OLDWEB", 0, 1800, 60));
  In("new.csv", Guest("NEWWEB", 1800, 3600, 40), {"--map", "OLDWEB=WEB01", "--map", "NEWWEB=WEB01"});
  CliResult r = Run({"correct", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // One row per window (one process each), never a window twice; the first half from OLDWEB.
  EXPECT_EQ(Count(r.out, "\n"), 1u + 12u) << r.out;
  EXPECT_EQ(Count(r.out, ",OLDWEB,"), 6u);
  EXPECT_EQ(Count(r.out, ",NEWWEB,"), 6u);
  EXPECT_EQ(r.out.find("missing-guest"), std::string::npos);
  EXPECT_EQ(r.out.find("guest-conflict"), std::string::npos);
}

TEST_F(VmIdentityCliTest, TwoGuestsClaimingOneVmAtOnceAreAConflict) {
  In("hv.csv", HyperV("HV01", {"WEB01"}, 0, 1800, 30));
  In("a.csv", Guest("GUESTA", 0, 1800, 60));
  In("b.csv", Guest("GUESTB", 0, 1800, 40), {"--map", "GUESTA=WEB01", "--map", "GUESTB=hyperv:hv01/web01"});
  CliResult r = Run({"correct", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Count(r.out, "\"code\": \"guest-conflict\""), 6u) << r.out.substr(0, 1500);
  EXPECT_EQ(Count(r.out, "\"w\": null"), 6u);
  EXPECT_NE(r.out.find("guests GUESTA, GUESTB"), std::string::npos);
}

TEST_F(VmIdentityCliTest, AGuestMatchingTwoVmsIsCorrectedAgainstNeither) {
  In("a.csv", Esxtop("esx-a", "APP01", 0, 900, 40));
  In("b.csv", Esxtop("esx-b", "APP01", 0, 900, 80));
  In("g.csv", Guest("APP01", 0, 900, 50));
  CliResult r = Run({"correct", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Keys(r.out), (std::set<std::string>{"esxtop:esx-a/app01", "esxtop:esx-b/app01", "guest:app01"}));
  EXPECT_EQ(Count(r.out, "\"code\": \"ambiguous-vm\""), 3u);
  EXPECT_NE(r.out.find("esxtop:esx-a/app01, esxtop:esx-b/app01"), std::string::npos);
  EXPECT_NE(r.out.find("--map APP01=VM_KEY"), std::string::npos);
  // Pinned, it is corrected against the one named: w = 80 / 50.
  CliResult p = Run({"correct", "--map", "APP01=esxtop:esx-b/app01", "--vm", "esxtop:esx-b/app01", "--format", "json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(Count(p.out, "\"w\": 1.6,"), 3u) << p.out.substr(0, 800);
  EXPECT_EQ(p.out.find("ambiguous-vm"), std::string::npos);
}

}  // namespace
}  // namespace vrecon::testing
