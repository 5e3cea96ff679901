// Several collectors writing one PostgreSQL store (issue 16): two sites, each with its own
// vCenter (govmomi simulators whose VMs have the same names), run at once with a third collector
// configured with one of the same vCenters. Nothing is stored twice, nothing is missed, the two
// vCenters' VMs stay apart, a source another collector holds is skipped and said so, and
// `status` names the collector of each source.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <thread>

#include "src/store/postgres/pg_database.h"
#include "src/store/sample_reader.h"
#include "src/store/store.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"
#include "tests/support/test_store.h"
#include "tests/support/vcsim.h"

namespace vrecon::testing {
namespace {

std::string Site(const std::string& db, const std::string& name, const Vcsim& sim) {
  return "db = \"" + db + "\"\nsince = \"10m\"\n" + VcenterToml(name, sim);
}

// Every VM's cpu.usage.average: one series per vCenter (the simulators name their VMs alike:
// identities stay apart), sample ends strictly increasing (nothing twice) and at most one 20 s
// interval apart (nothing missed).
void ExpectWholeSeries(Store* store, size_t vms_expected) {
  SeriesFilter f;
  f.source = "vsphere";
  f.counter = "cpu.usage.average";
  auto series = FindSeries(store, f);
  ASSERT_TRUE(series.ok()) << series.status().message();
  std::map<std::string, std::set<std::string>> entities;  // by VM name
  for (const StoredSeries& s : *series) {
    EXPECT_TRUE(entities[s.key.machine].insert(s.key.entity).second) << s.key.machine << ": series twice";
    std::vector<TimeNs> ends;
    ASSERT_TRUE(ForEachSample(store, s.id, TimeRange{}, [&](TimeNs, TimeNs e, double) { ends.push_back(e); }).ok());
    ASSERT_GT(ends.size(), 20u) << s.key.machine << " " << s.key.entity;
    for (size_t i = 1; i < ends.size(); ++i) {
      EXPECT_GT(ends[i], ends[i - 1]) << s.key.machine << " " << s.key.entity << ": a sample stored twice";
      EXPECT_LE(ends[i] - ends[i - 1], 20 * kNsPerSec) << s.key.machine << " " << s.key.entity << ": a gap";
    }
  }
  EXPECT_EQ(entities.size(), vms_expected);
  for (const auto& [vm, e] : entities) EXPECT_EQ(e.size(), 2u) << vm << ": one series per vCenter";
}

TEST(SharedStoreTest, TwoSitesAndAnOverlappingThirdCollectorOnOnePostgres) {
  VRECON_REQUIRE_VCSIM();
  VRECON_NEED_BACKEND(TestBackend::kPostgres);
  auto a = Vcsim::Start({.vms = 3});
  auto b = Vcsim::Start({.vms = 3});
  ASSERT_NE(a, nullptr) << Vcsim::last_error();
  ASSERT_NE(b, nullptr) << Vcsim::last_error();
  ASSERT_EQ(a->password(), b->password());
  setenv("VRECON_TEST_VC_PW", a->password().c_str(), 1);
  TempDir dir;
  const std::string db = NewStore(TestBackend::kPostgres, dir.path(), "shared");
  WriteText(dir.File("site-a.toml"), Site(db, "vcA", *a));
  WriteText(dir.File("site-b.toml"), Site(db, "vcB", *b));
  WriteText(dir.File("site-c.toml"), Site(db, "vcA", *a));  // the same vCenter as site A

  // Two rounds of all three collectors at once.
  for (int round = 0; round < 2; ++round) {
    CliResult r[3];
    std::vector<std::thread> run;
    for (int i = 0; i < 3; ++i) {
      run.emplace_back([&, i] {
        r[i] = RunVrecon(
            {"collect", "--config", dir.File(std::string("site-") + "abc"[i] + ".toml"), "--once", "--format", "json"});
      });
    }
    for (std::thread& t : run) t.join();
    for (int i = 0; i < 3; ++i) EXPECT_EQ(r[i].exit_code, 0) << "collector " << i << ": " << r[i].err << r[i].out;
  }

  // While another collector holds vcA, site C's collector skips it and says who holds it.
  {
    auto holder = PgDatabase::Connect(db);
    ASSERT_TRUE(holder.ok()) << holder.status().message();
    auto lock = (*holder)->Prepare("SELECT pg_advisory_lock(hashtextextended(?, 1987011213))");
    ASSERT_TRUE(lock.ok());
    ASSERT_TRUE(lock->Bind(1, a->url()).Run().ok());
    auto claim = (*holder)->Prepare("UPDATE source_claim SET collector = 'ops-host:4242' WHERE source = ?");
    ASSERT_TRUE(claim.ok());
    ASSERT_TRUE(claim->Bind(1, a->url()).Run().ok());
    CliResult c = RunVrecon({"collect", "--config", dir.File("site-c.toml"), "--once", "--format", "json"});
    EXPECT_EQ(c.exit_code, 0) << c.err;
    EXPECT_NE(c.err.find("vcA: skipped: collector ops-host:4242"), std::string::npos) << c.err;
  }

  auto store = Store::OpenForReading(db);
  ASSERT_TRUE(store.ok()) << store.status().message();
  ExpectWholeSeries(store->get(), 3);

  CliResult st = RunVrecon({"status", "--db", db, "--stale-after", "10m", "--format", "json"});
  EXPECT_EQ(st.exit_code, 0) << st.err << st.out;
  EXPECT_NE(st.out.find("\"source\": \"vcA\""), std::string::npos) << st.out;
  EXPECT_NE(st.out.find("\"source\": \"vcB\""), std::string::npos) << st.out;
  EXPECT_NE(st.out.find("\"collector\": \""), std::string::npos) << st.out;
  EXPECT_EQ(st.out.find("\"collector\": null"), std::string::npos) << st.out;
  unsetenv("VRECON_TEST_VC_PW");
}

}  // namespace
}  // namespace vrecon::testing
