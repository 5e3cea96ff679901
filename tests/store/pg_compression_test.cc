// Migration 16 on PostgreSQL: the blobs a recompute rewrites are compressed with lz4 instead of
// pglz (src/store/postgres/pg_schema.cc). A block stored before keeps its pglz and reads as it
// did; one stored after is lz4; both decode to the windows written.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/store/correction_tables.h"
#include "src/store/schema.h"
#include "src/store/store.h"
#include "src/store/window_blocks.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon {
namespace {

using testing::NewStore;
using testing::QueryText;
using testing::TempDir;
using testing::TestBackend;
using testing::WriteOldPgStore;

constexpr TimeNs kHour = 1793836800 * kNsPerSec;  // 2026-11-05T00:00:00Z

// An hour of 300 s windows whose flags carry a sentence each, as a fleet's do: about 4 KB, over
// the 2 KB at which PostgreSQL compresses a row's values.
std::vector<StoredWindow> AnHour(double base) {
  std::vector<StoredWindow> out;
  for (int i = 0; i < 12; ++i) {
    StoredWindow w;
    w.start = kHour + i * 300 * kNsPerSec;
    w.end = w.start + 300 * kNsPerSec;
    w.host_util = base + i;
    w.host_cov = 1;
    w.flags = {{"missing-guest", Severity::kError, "no guest Processor % Processor Time in this window"},
               {"frequency-scaled", Severity::kInfo,
                "vSphere cpu.usage.average reads " + std::to_string(base + i) +
                    "% of capacity but cpu.run.summation more per vCPU: usage is scaled by the cores' clock"}};
    out.push_back(w);
  }
  return out;
}

std::string Hex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::vector<double> HostUtils(Store* store, int64_t vm) {
  std::vector<double> out;
  EXPECT_TRUE(ForEachCorrWindow(store, vm, kHour, kHour + 3 * kNsPerHour, [&](const StoredWindow& w) {
                out.push_back(*w.host_util);
                return true;
              }).ok());
  return out;
}

std::string One(Store* store, const std::string& sql) { return QueryText(store->db(), sql); }

TEST(PgCompressionTest, BlocksStoredAfterMigration16AreLz4AndThoseBeforeStillRead) {
  VRECON_NEED_BACKEND(TestBackend::kPostgres);
  TempDir dir;
  const std::string uri = NewStore(TestBackend::kPostgres, dir.path(), "compression");
  const std::string before = EncodeWindowBlock(AnHour(10));
  ASSERT_GT(before.size(), 2500u);
  WriteOldPgStore(uri, 15,
                  "INSERT INTO corr_vm(id, vm_key, vm, vm_source, guest_machine, host_source, stored_at) VALUES "
                  "(1000, 'vsphere:vc/vm-1', 'vm-1', 'vc', '', 'vsphere', '2026-11-05T01:00:00Z'); "
                  "INSERT INTO corr_window_block(vm_id, hour_ns, first_start_ns, last_end_ns, windows, data) VALUES "
                  "(1000, " +
                      std::to_string(kHour) + ", " + std::to_string(kHour) + ", " + std::to_string(kHour + kNsPerHour) +
                      ", 12, '\\x" + Hex(before) + "')");
  if (HasFatalFailure()) return;
  auto store = Store::Open(uri);  // opening migrates
  ASSERT_TRUE(store.ok()) << store.status().message();
  Store* s = store->get();
  EXPECT_EQ(One(s, "SELECT max(version) FROM vrecon_schema"), std::to_string(kSchemaVersion));
  EXPECT_EQ(One(s,
                "SELECT string_agg(attname::text || '=' || attcompression::text, ',' ORDER BY "
                "attrelid::regclass::text, attname) "
                "FROM pg_attribute WHERE attrelid IN ('corr_window_block'::regclass, "
                "'corr_process_hour'::regclass, 'corr_latest'::regclass) AND atttypid = 'bytea'::regtype"),
            "process_blob=l,window_block=l,events=l,procs=l,data=l");
  EXPECT_EQ(One(s, "SELECT pg_column_compression(data) FROM corr_window_block"), "pglz");

  const auto added = UpsertCorrVm(s, CorrVm{0, "vm-2", "", "vsphere", 2, "vsphere:vc/vm-2", "vc", ""});
  ASSERT_TRUE(added.ok()) << added.status().message();
  const int64_t vm2 = *added;
  {
    auto tx = Transaction::Begin(s->db());
    ASSERT_TRUE(tx.ok());
    ASSERT_TRUE(ReplaceCorrWindows(s, vm2, kHour, kHour + kNsPerHour, AnHour(20)).ok());
    ASSERT_TRUE(tx->Commit().ok());
  }
  EXPECT_EQ(One(s, "SELECT pg_column_compression(data) FROM corr_window_block WHERE vm_id = " + std::to_string(vm2)),
            "lz4");
  EXPECT_EQ(HostUtils(s, 1000).size(), 12u);
  EXPECT_EQ(HostUtils(s, 1000).front(), 10);
  EXPECT_EQ(HostUtils(s, vm2).size(), 12u);
  EXPECT_EQ(HostUtils(s, vm2).back(), 31);
}

}  // namespace
}  // namespace vrecon
