// Several collectors writing one PostgreSQL store (issue 16): two sites, each with its own
// vCenter (govmomi simulators whose VMs have the same names), run at once with a third collector
// configured with one of the same vCenters. Nothing is stored twice, nothing is missed, the two
// vCenters' VMs stay apart, a source another collector holds is skipped and said so, and
// `status` names the collector of each source.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
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

std::map<std::string, std::string> StoredAt(const std::string& db) {
  std::map<std::string, std::string> out;
  auto conn = PgDatabase::Connect(db);
  EXPECT_TRUE(conn.ok()) << conn.status().message();
  if (!conn.ok()) return out;
  auto q = (*conn)->Prepare("SELECT vm_key, stored_at FROM corr_vm");
  EXPECT_TRUE(q.ok());
  while (q.ok()) {
    auto row = q->Step();
    if (!row.ok() || !*row) break;
    out[q->ColumnText(0)] = q->ColumnText(1);
  }
  return out;
}

// "Stored corrections are recomputed by whoever changed the data, for the VMs and windows it
// touched": a collector's round corrects the VMs it stored samples of, not the other site's
// (which it would otherwise also lock until its commit, making the collectors wait in turn).
TEST(SharedStoreTest, EachCollectorRecomputesOnlyTheVmsItStored) {
  VRECON_REQUIRE_VCSIM();
  VRECON_NEED_BACKEND(TestBackend::kPostgres);
  auto a = Vcsim::Start({.vms = 3});
  auto b = Vcsim::Start({.vms = 2});
  ASSERT_NE(a, nullptr) << Vcsim::last_error();
  ASSERT_NE(b, nullptr) << Vcsim::last_error();
  setenv("VRECON_TEST_VC_PW", a->password().c_str(), 1);
  TempDir dir;
  const std::string db = NewStore(TestBackend::kPostgres, dir.path(), "shared_touched");
  WriteText(dir.File("site-a.toml"), Site(db, "vcA", *a));
  WriteText(dir.File("site-b.toml"), Site(db, "vcB", *b));

  CliResult ra = RunVrecon({"collect", "--config", dir.File("site-a.toml"), "--once", "--format", "json"});
  ASSERT_EQ(ra.exit_code, 0) << ra.err << ra.out;
  const std::map<std::string, std::string> after_a = StoredAt(db);
  ASSERT_EQ(after_a.size(), 3u);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // a later stored_at for anything recomputed
  CliResult rb = RunVrecon({"collect", "--config", dir.File("site-b.toml"), "--once", "--format", "json"});
  ASSERT_EQ(rb.exit_code, 0) << rb.err << rb.out;
  const std::map<std::string, std::string> after_b = StoredAt(db);
  ASSERT_EQ(after_b.size(), 5u);
  for (const auto& [key, at] : after_a) EXPECT_EQ(after_b.at(key), at) << key << " was recomputed by site B's round";
  // Site B's round stored its two VMs' windows only: per VM about as many as site A's round did
  // (one more or fewer where a simulator's samples straddle a 5-minute boundary the other's do
  // not); with site A's three VMs recomputed too it would be well over twice that.
  const int64_t per_vm_a = JsonInt(ra.out, "windows_stored") / 3, stored_b = JsonInt(rb.out, "windows_stored");
  EXPECT_EQ(JsonInt(ra.out, "windows_stored") % 3, 0) << ra.out;
  EXPECT_EQ(stored_b % 2, 0) << rb.out;
  EXPECT_GT(per_vm_a, 0) << ra.out;
  EXPECT_LE(std::llabs(stored_b / 2 - per_vm_a), 1) << ra.out << rb.out;
  unsetenv("VRECON_TEST_VC_PW");
}

}  // namespace
}  // namespace vrecon::testing
