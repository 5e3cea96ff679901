// `vrecon collect vsphere` against govmomi's vCenter simulator on 127.0.0.1, through the real
// binary: discovery, counter resolution, many VMs, incremental rounds, TLS, wrong password.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <regex>
#include <set>

#include "adapters/vsphere/vsphere_client.h"
#include "src/core/time_util.h"
#include "src/store/store.h"
#include "src/store/vsphere_marks.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"
#include "tests/support/vcsim.h"

namespace vrecon::testing {
namespace {

class VsphereCollectTest : public ::testing::Test {
 protected:
  TempDir dir_;
};

TEST_F(VsphereCollectTest, CollectsEveryVmAndStoresPercentOfInterval) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 40, .max_query_metrics = 50});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  const std::string db = dir_.File("fleet.db");
  CliResult r = CollectVsphere(*sim, db);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(JsonInt(r.out, "vms_selected"), 40);
  EXPECT_EQ(JsonInt(r.out, "vms_collected"), 40);
  EXPECT_EQ(JsonInt(r.out, "batch_limit"), 50) << "the server's maxQueryMetrics must size the batches";
  // 40 VMs x 6 counters = 240 metrics -> ceil(240/50) = 5 QueryPerf batches, then the hosts
  // they run on, 4 counters each, in a batch of their own.
  const int64_t hosts = JsonInt(r.out, "hosts_selected");
  EXPECT_GE(hosts, 2);
  EXPECT_EQ(JsonInt(r.out, "hosts_collected"), hosts);
  EXPECT_EQ(JsonInt(r.out, "batches"), 5 + (hosts * 4 + 49) / 50);
  // Discovery: service content, login, time, counters, option, 3 x (view, retrieve, destroy) for
  // the VMs, hosts and clusters, then the batches and logout: requests <= discovery +
  // ceil(series / batch limit).
  EXPECT_LE(JsonInt(r.out, "requests"), 14 + JsonInt(r.out, "batches") + 1);
  EXPECT_GT(JsonInt(r.out, "samples"), 0);

  CliResult s = RunVrecon(
      {"samples", "--db", db, "--machine", "DC0_H0_VM0", "--counter", "cpu.ready.summation", "--format", "csv"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  ASSERT_NE(s.out.find("vsphere,DC0_H0_VM0,cpu,,cpu.ready.summation,"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find(",percent,"), std::string::npos);
  // Each realtime sample covers the 20 s before its timestamp.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      s.out, m, std::regex(R"(T(\d\d):(\d\d):(\d\d)\.000Z,\d{4}-\d\d-\d\dT(\d\d):(\d\d):(\d\d)\.000Z)")));
  const int a = std::stoi(m[1]) * 3600 + std::stoi(m[2]) * 60 + std::stoi(m[3]);
  const int b = std::stoi(m[4]) * 3600 + std::stoi(m[5]) * 60 + std::stoi(m[6]);
  EXPECT_EQ((b - a + 86400) % 86400, 20);
}

TEST_F(VsphereCollectTest, CorrectionUsesVsphereUsageAsHostTruth) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 2});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  const std::string db = dir_.File("fleet.db");
  ASSERT_EQ(CollectVsphere(*sim, db).exit_code, 0);
  // A 1-vCPU guest log of the same VM (its computer name in lower case with a domain), 60% busy,
  // one process at 30%, in UTC over the last 15 minutes.
  const TimeNs now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::string log =
      "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\dc0_h0_vm0.lab.example\\Processor(0)\\% "
      "Processor Time\",\"\\\\dc0_h0_vm0.lab.example\\Process(app)\\% Processor Time\"\r\n";
  for (TimeNs t = now - 900 * kNsPerSec; t < now + 60 * kNsPerSec; t += 15 * kNsPerSec) {
    const CivilTime c = CivilFromNs(t);
    char row[96];
    std::snprintf(row, sizeof row, "\"%02d/%02d/%04d %02d:%02d:%02d.000\",\"60\",\"30\"\r\n", c.month, c.day, c.year,
                  c.hour, c.minute, c.second);
    log += row;
  }
  WriteText(dir_.File("guest.csv"), log);
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir_.File("guest.csv")}).exit_code, 0);
  CliResult r = RunVrecon({"correct", "--db", db, "--vm", "DC0_H0_VM0", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"vm\": \"DC0_H0_VM0\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"host_source\": \"vsphere\""), std::string::npos) << r.out;
  // Some window has both sides: w = H / 60 and app corrected = w * 30.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"("host_util_pct": ([0-9.e+-]+), "w": ([0-9.e+-]+))"))) << r.out;
  const double h = std::stod(m[1]), w = std::stod(m[2]);
  EXPECT_NEAR(w, h / 60.0, 1e-9);
}

// Two rounds into `db`; the second asks only for what is new and stores no sample twice.
void ExpectSecondRoundAddsNoDuplicates(const std::string& db, const std::function<CliResult()>& collect) {
  CliResult first = collect();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  CliResult second = collect();
  ASSERT_EQ(second.exit_code, 0) << second.err;
  // The second round asks only for what is new (its high-water marks minus a 60 s look-back),
  // even for counters the simulator never has values for (all-zero co-stop).
  std::smatch m1, m2;
  ASSERT_TRUE(std::regex_search(first.out, m1, std::regex("\"to\": \"([^\"]+)\"")));
  ASSERT_TRUE(std::regex_search(second.out, m2, std::regex("\"from\": \"([^\"]+)\"")));
  EXPECT_GE(*ParseIso(m2[1].str()), *ParseIso(m1[1].str()) - 100 * kNsPerSec) << second.out;
  CliResult s = RunVrecon({"samples", "--db", db, "--source", "vsphere", "--format", "csv"});
  ASSERT_EQ(s.exit_code, 0);
  std::set<std::string> seen;
  size_t lines = 0;
  for (size_t pos = s.out.find('\n') + 1; pos < s.out.size();) {
    const size_t end = s.out.find('\n', pos);
    const std::string line = s.out.substr(pos, end - pos);
    // source,machine,object,instance,counter,start,end: the identity of a sample
    size_t cut = 0;
    for (int i = 0; i < 7; ++i) cut = line.find(',', cut + 1);
    EXPECT_TRUE(seen.insert(line.substr(0, cut)).second) << "duplicate sample: " << line;
    ++lines;
    pos = end + 1;
  }
  EXPECT_GT(lines, 0u);
}

TEST_F(VsphereCollectTest, SecondRoundAddsNoDuplicates) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 5});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  const std::string db = dir_.File("fleet.db");
  ExpectSecondRoundAddsNoDuplicates(db, [&] { return CollectVsphere(*sim, db); });
}

// Four metrics to a QueryPerf: each VM's six counters go in two batches, each moving its own
// counters' marks; the VM's stored marks (a row per VM) keep both batches' counters.
TEST_F(VsphereCollectTest, AVmsCountersAskedInTwoBatchesKeepAllTheirMarks) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 5, .max_query_metrics = 4});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  const std::string db = dir_.File("fleet.db");
  ExpectSecondRoundAddsNoDuplicates(db, [&] { return CollectVsphere(*sim, db); });
  auto store = Store::Open(db);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto marks = VsphereMarks(store->get(), sim->url());
  ASSERT_TRUE(marks.ok()) << marks.status().message();
  EXPECT_EQ(VmMarks(*marks), 5u * 6u) << "a mark per VM and counter";
  EXPECT_EQ((marks->size() - VmMarks(*marks)) % 4, 0u) << "a mark per host and host counter";
}

TEST_F(VsphereCollectTest, ExpiredSessionLogsInAgainOnce) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 2});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  vsphere::ClientOptions o;
  o.transport.url = sim->url();
  o.transport.ca_file = sim->ca_file();
  o.user = sim->user();
  o.password = sim->password();
  auto client = vsphere::VsphereClient::Connect(o);
  ASSERT_TRUE(client.ok()) << client.status().message();
  ASSERT_TRUE((*client)->CurrentTime().ok());
  ASSERT_TRUE(sim->ExpireSessions());
  auto vms = (*client)->VirtualMachines();
  ASSERT_TRUE(vms.ok()) << vms.status().message();
  EXPECT_EQ(vms->size(), 2u);
  EXPECT_EQ((*client)->relogins(), 1);
  EXPECT_TRUE((*client)->Logout().ok());
}

TEST_F(VsphereCollectTest, WrongPasswordEndsWithOneClearLine) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 1});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  setenv("VRECON_VSPHERE_PASSWORD", "Not-The-Password-42", 1);
  CliResult r = RunVrecon({"collect", "vsphere", "--url", sim->url(), "--user", sim->user(), "--ca", sim->ca_file(),
                           "--db", dir_.File("x.db")});
  unsetenv("VRECON_VSPHERE_PASSWORD");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("wrong user name or password"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Not-The-Password-42"), std::string::npos) << "the password must never be printed";
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(VsphereCollectTest, TlsIsVerifiedUnlessTheCaIsGiven) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 1});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  setenv("VRECON_VSPHERE_PASSWORD", sim->password().c_str(), 1);
  CliResult refused =
      RunVrecon({"collect", "vsphere", "--url", sim->url(), "--user", sim->user(), "--db", dir_.File("x.db")});
  CliResult insecure = RunVrecon({"collect", "vsphere", "--url", sim->url(), "--user", sim->user(), "--insecure",
                                  "--db", dir_.File("x.db"), "--since", "1m"});
  unsetenv("VRECON_VSPHERE_PASSWORD");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("not trusted"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--ca"), std::string::npos);
  EXPECT_EQ(insecure.exit_code, 0) << insecure.err;
  EXPECT_NE(insecure.err.find("warning: --insecure"), std::string::npos);
  EXPECT_EQ(CollectVsphere(*sim, dir_.File("y.db")).exit_code, 0) << "with --ca the same server is accepted";
}

TEST_F(VsphereCollectTest, PasswordFileMustBeOwnerOnly) {
  const std::string f = dir_.File("pw");
  WriteText(f, "secret\n");
  chmod(f.c_str(), 0644);
  CliResult r = RunVrecon({"collect", "vsphere", "--url", "https://127.0.0.1:1/sdk", "--user", "u", "--password-file",
                           f, "--db", dir_.File("x.db")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("chmod 600"), std::string::npos) << r.err;
  CliResult none = RunVrecon({"collect", "vsphere", "--url", "https://127.0.0.1:1/sdk", "--user", "u"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("VRECON_VSPHERE_PASSWORD"), std::string::npos);
}

TEST_F(VsphereCollectTest, UnreachableHostIsOneLine) {
  const std::string f = dir_.File("pw");
  WriteText(f, "secret\n");
  chmod(f.c_str(), 0600);
  CliResult r = RunVrecon({"collect", "vsphere", "--url", "https://127.0.0.1:1/sdk", "--user", "u", "--password-file",
                           f, "--db", dir_.File("x.db")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot reach https://127.0.0.1:1/sdk"), std::string::npos) << r.err;
}

// The simulator's cluster DC0_C0: three hosts of 2 cores (hyper-threading off), one held back for
// HA, so 4 cores of capacity and 3.6 usable; its demand is its VMs' run + ready, said so.
// The line of `vrecon capacity --format json`'s entity of `scope` and `name`; "" (and a failure)
// when there is none.
std::string EntityLine(const std::string& json, const std::string& scope, const std::string& name) {
  const size_t at = json.find("{\"scope\": \"" + scope + "\", \"name\": \"" + name + "\", \"key\": ");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no " << scope << " " << name << " in " << json;
    return "";
  }
  return json.substr(at, json.find('\n', at) - at);
}

// A host's own counters (source vsphere-host, the aggregate alone) are stored beside its VMs',
// never read as a VM, and give the host its capacity answer (busy threads plus its VMs' ready
// against its cores); a cluster whose hosts all have theirs is their sum against the hosts' cores
// less HA.
TEST_F(VsphereCollectTest, AHostIsItsOwnCountersAndAClusterItsHostsAgainstTheirCores) {
  VRECON_REQUIRE_VCSIM();
  auto sim = Vcsim::Start({.vms = 2});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  const std::string db = dir_.File("fleet.db");
  CliResult r = CollectVsphere(*sim, db);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  // The hosts the VMs run on and the other hosts of their cluster: the standalone one and three.
  EXPECT_EQ(JsonInt(r.out, "hosts_selected"), 4);
  EXPECT_EQ(JsonInt(r.out, "hosts_collected"), 4);
  CliResult s =
      RunVrecon({"samples", "--db", db, "--source", "vsphere-host", "--machine", "DC0_H0", "--format", "csv"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("vsphere-host,DC0_H0,cpu,,cpu.utilization.average,"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("vsphere-host,DC0_H0,cpu,,cpu.ready.summation,"), std::string::npos) << s.out;
  EXPECT_EQ(s.out.find("vsphere-host,DC0_H0,cpu,0,"), std::string::npos) << "the aggregate alone" << s.out;

  CliResult cap = RunVrecon({"capacity", "--db", db, "--format", "json"});
  ASSERT_EQ(cap.exit_code, 0) << cap.err;
  // The simulator's hosts have 2 cores, hyper-threading off.
  const std::string h = EntityLine(cap.out, "host", "DC0_H0");
  EXPECT_NE(h.find("\"key\": \"vsphere-host:"), std::string::npos) << h;
  EXPECT_NE(h.find("\"capacity_cores\": 2, \"usable_cores\": 1.8"), std::string::npos) << h;
  EXPECT_NE(h.find("cpu.utilization.average x threads + cpu.ready.summation"), std::string::npos) << h;
  EXPECT_NE(h.find("\"code\": \"insufficient-history\""), std::string::npos) << "5 minutes of data" << h;
  EXPECT_EQ(h.find("\"demand_p95_cores\": null"), std::string::npos) << h;
  // Not a VM: the VMs are the two.
  EXPECT_EQ(cap.out.find("\"scope\": \"vm\", \"name\": \"DC0_H0\""), std::string::npos) << cap.out;
  const std::string c = EntityLine(cap.out, "cluster", "DC0_C0");
  EXPECT_NE(c.find("\"capacity_cores\": 4, \"usable_cores\": 3.6"), std::string::npos) << c;
  EXPECT_EQ(c.find("\"code\": \"demand-from-vms\""), std::string::npos) << c;
  EXPECT_NE(c.find("its hosts' cpu.utilization.average x threads + cpu.ready.summation"), std::string::npos) << c;
  EXPECT_EQ(c.find("\"demand_p95_cores\": null"), std::string::npos) << "its hosts' demand" << c;
  CliResult clusters = RunVrecon({"capacity", "--db", db, "--scope", "cluster", "--format", "json"});
  ASSERT_EQ(clusters.exit_code, 0) << clusters.err;
  EXPECT_EQ(clusters.out.find("\"scope\": \"vm\""), std::string::npos) << "--scope cluster";
  EXPECT_EQ(clusters.out.find("\"scope\": \"host\""), std::string::npos) << "--scope cluster";
  // Two hosts held back: 2 cores left.
  CliResult two = RunVrecon({"capacity", "--db", db, "--scope", "cluster", "--ha-hosts", "2", "--format", "csv"});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(two.out.find("cluster,DC0_C0,vsphere-cluster:"), std::string::npos) << two.out;
  EXPECT_NE(two.out.find(",2,1.8,"), std::string::npos) << two.out;
}

}  // namespace
}  // namespace vrecon::testing
