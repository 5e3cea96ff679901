#include "src/store/store.h"
#include "src/store/sqlite/sqlite_database.h"

#include <gtest/gtest.h>

#include <sqlite3.h>

#include <cmath>

#include "src/ingest/ingest_file.h"
#include "src/store/block_writer.h"
#include "src/store/database.h"
#include "src/store/sample_reader.h"
#include "src/store/vsphere_tables.h"
#include "tests/support/cli_runner.h"

namespace vrecon {
namespace {

using vrecon::testing::TempDir;
using vrecon::testing::WriteText;

std::string Log(int rows, int first = 0) {
  std::string s;
  if (first == 0)
    s = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\G1\\Processor(_Total)\\% Processor Time\",\"\\\\G1\\Process(a)\\% Processor "
        "Time\"\r\n";
  for (int i = first; i < first + rows; ++i) {
    char b[96];
    std::snprintf(b, sizeof b, "\"01/01/2026 %02d:%02d:%02d.000\",\"%d\",\"%s\"\r\n", i / 3600, i / 60 % 60, i % 60, i,
                  i % 3 == 0 ? " " : "1.5");
    s += b;
  }
  return s;
}

std::vector<std::pair<TimeNs, double>> Values(Store* store, const std::string& object) {
  SeriesFilter f;
  f.object = object;
  auto series = FindSeries(store, f);
  std::vector<std::pair<TimeNs, double>> out;
  EXPECT_TRUE(series.ok());
  for (const auto& s : *series)
    EXPECT_TRUE(
        ForEachSample(store, s.id, TimeRange{}, [&](TimeNs, TimeNs e, double v) { out.emplace_back(e, v); }).ok());
  return out;
}

struct Sample {
  TimeNs start, end;
  double value;
};

std::vector<Sample> ReadBlocks(BlockReader* reader, int64_t series, const TimeRange& range) {
  std::vector<Sample> out;
  EXPECT_TRUE(
      reader
          ->ForEach(series, range,
                    [&](const SampleBlock& b) {
                      EXPECT_EQ(b.starts.size(), b.ends.size());
                      EXPECT_TRUE(b.values.empty() || b.values.size() == b.starts.size());
                      for (size_t i = 0; i < b.starts.size(); ++i)
                        out.push_back(Sample{b.starts[i], b.ends[i], b.values.empty() ? kMissing : b.values[i]});
                    })
          .ok());
  return out;
}

// A collector keeps its connection from round to round; between rounds it gives back the pages
// the connection cached for reading, which otherwise grow with the store up to the cache's cap.
// A VM's host's cores (what its right size is capped at), from the inventory: by the VM's entity,
// through the host it is on; a host of 0 cores (not known) or not seen is left out.
TEST(StoreTest, VsphereVmHostCoresFollowEachVmToItsHost) {
  TempDir dir;
  auto store = Store::Open(dir.File("inventory.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  Store* s = store->get();
  ASSERT_TRUE(SaveVsphereHost(s, StoredHost{"vc", "host-1", "esx01", 16, 2600, 32, true, "domain-c7", ""}).ok());
  ASSERT_TRUE(SaveVsphereHost(s, StoredHost{"vc", "host-2", "esx02", 0, 0, 0, std::nullopt, "domain-c7", ""}).ok());
  ASSERT_TRUE(SaveVsphereHost(s, StoredHost{"other-vc", "host-1", "esx09", 64, 2600, 64, false, "", ""}).ok());
  ASSERT_TRUE(SaveVsphereCluster(s, StoredCluster{"vc", "domain-c7", "Cluster01", std::nullopt, 25.0, {}, {}}).ok());
  ASSERT_TRUE(SaveVsphereVm(s, StoredVm{"vc", "vm-1", "WEB01", "host-1", "poweredOn", "", 4, "vc/vm-1"}).ok());
  ASSERT_TRUE(SaveVsphereVm(s, StoredVm{"vc", "vm-2", "DB01", "host-2", "poweredOn", "", 8, "vc/vm-2"}).ok());
  ASSERT_TRUE(SaveVsphereVm(s, StoredVm{"vc", "vm-3", "APP01", "host-7", "poweredOn", "", 2, "vc/vm-3"}).ok());
  ASSERT_TRUE(
      SaveVsphereVm(s, StoredVm{"other-vc", "vm-1", "WEB09", "host-1", "poweredOn", "", 2, "other-vc/vm-1"}).ok());
  StatusOr<std::map<std::string, int>> cores = VsphereVmHostCores(s);
  ASSERT_TRUE(cores.ok()) << cores.status().message();
  EXPECT_EQ(*cores, (std::map<std::string, int>{{"other-vc/vm-1", 64}, {"vc/vm-1", 16}}));
  // The cluster with its two hosts (as saved, unknowns kept unknown) and the VMs on them; the
  // standalone host is in none.
  StatusOr<std::vector<StoredCluster>> clusters = VsphereClusters(s);
  ASSERT_TRUE(clusters.ok()) << clusters.status().message();
  ASSERT_EQ(clusters->size(), 1u);
  const StoredCluster& c = clusters->front();
  EXPECT_EQ(c.name, "Cluster01");
  EXPECT_FALSE(c.ha_hosts.has_value());
  EXPECT_EQ(c.ha_cpu_pct, std::optional<double>(25.0));
  ASSERT_EQ(c.hosts.size(), 2u);
  const StoredHost& h1 = c.hosts[0].moid == "host-1" ? c.hosts[0] : c.hosts[1];
  const StoredHost& h2 = c.hosts[0].moid == "host-1" ? c.hosts[1] : c.hosts[0];
  EXPECT_EQ(h1.threads, 32);
  EXPECT_EQ(h1.hyperthreading, std::optional<bool>(true));
  EXPECT_EQ(h2.cores, 0);
  EXPECT_FALSE(h2.hyperthreading.has_value());
  EXPECT_EQ(c.vm_entities, (std::vector<std::string>{"vc/vm-1", "vc/vm-2"}));
  // Every host, standalone ones too, with the entity its own series carry once the vCenter's id
  // is known (none before).
  EXPECT_EQ(h1.entity, "");
  ASSERT_TRUE(RecordVcenter(s, "vc", "uuid-vc").ok());
  StatusOr<std::vector<StoredHost>> hosts = VsphereHosts(s);
  ASSERT_TRUE(hosts.ok()) << hosts.status().message();
  ASSERT_EQ(hosts->size(), 3u);
  EXPECT_EQ((*hosts)[0].name, "esx09");  // by vCenter, then name
  EXPECT_EQ((*hosts)[0].entity, "");
  EXPECT_EQ((*hosts)[0].threads, 64);
  EXPECT_EQ((*hosts)[1].entity, "uuid-vc/host-1");
  EXPECT_EQ((*hosts)[1].cluster_moid, "domain-c7");
  EXPECT_EQ((*hosts)[2].entity, "uuid-vc/host-2");
  ASSERT_TRUE(VsphereClusters(s).ok());
  EXPECT_EQ(VsphereClusters(s)->front().hosts.front().entity.substr(0, 8), "uuid-vc/");
}

TEST(StoreTest, ReleaseMemoryGivesBackTheReadCache) {
  TempDir dir;
  auto store = Store::Open(dir.File("cache.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  Database* db = (*store)->db();
  ASSERT_TRUE(db->Exec("CREATE TABLE filler(x BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                       "WHERE i < 4000) INSERT INTO filler SELECT randomblob(1000) FROM n")
                  .ok());
  auto scan = db->Prepare("SELECT sum(length(x)) FROM filler");
  ASSERT_TRUE(scan.ok());
  ASSERT_TRUE(scan->Step().ok());
  scan->Reset();
  const int64_t cached = sqlite3_memory_used();
  (*store)->ReleaseMemory();
  EXPECT_LT(sqlite3_memory_used(), cached - 2'000'000) << "4 MB of pages were read into the cache";
}

TEST(StoreTest, BlockReaderCutsRangesInsideBlocksAndSharesTimesBetweenSeries) {
  TempDir dir;
  WriteText(dir.File("g.csv"), Log(BlockWriter::kBlockRows * 2 + 7));
  auto store = Store::Open(dir.File("s.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  ASSERT_TRUE(IngestFile(store->get(), dir.File("g.csv"), {}).ok());
  auto series = FindSeries(store->get(), SeriesFilter{});
  ASSERT_TRUE(series.ok());
  ASSERT_EQ(series->size(), 2u);
  BlockReader reader(store->get());
  const std::vector<Sample> whole = ReadBlocks(&reader, (*series)[0].id, TimeRange{});
  ASSERT_EQ(whole.size(), static_cast<size_t>(BlockWriter::kBlockRows * 2 + 7));
  // A range starting and ending inside blocks (and spanning a block boundary): the samples of
  // the whole read that overlap it, in the same order.
  const TimeNs t0 = NsFromCivil(CivilTime{2026, 1, 1});
  const TimeRange range{t0 + 100 * kNsPerSec + 1, t0 + 300 * kNsPerSec};
  std::vector<Sample> want;
  for (const Sample& x : whole)
    if (x.start == x.end ? (x.end >= range.from && x.end <= range.to) : (x.end > range.from && x.start < range.to))
      want.push_back(x);
  ASSERT_GT(want.size(), 150u);
  ASSERT_LT(want.size(), whole.size());
  const std::vector<Sample> part = ReadBlocks(&reader, (*series)[0].id, range);
  ASSERT_EQ(part.size(), want.size());
  for (size_t i = 0; i < part.size(); ++i) {
    EXPECT_EQ(part[i].start, want[i].start);
    EXPECT_EQ(part[i].end, want[i].end);
    EXPECT_TRUE(part[i].value == want[i].value || (std::isnan(part[i].value) && std::isnan(want[i].value))) << i;
  }
  // The other series of the file, read with the times the reader kept: same times, own values.
  const std::vector<Sample> other = ReadBlocks(&reader, (*series)[1].id, TimeRange{});
  ASSERT_EQ(other.size(), whole.size());
  int missing = 0;
  for (size_t i = 0; i < other.size(); ++i) {
    EXPECT_EQ(other[i].start, whole[i].start);
    EXPECT_EQ(other[i].end, whole[i].end);
    missing += std::isnan(other[i].value) || std::isnan(whole[i].value);
  }
  EXPECT_GT(missing, 100) << "the Process series has every third value missing";
  reader.Forget();
  EXPECT_EQ(ReadBlocks(&reader, (*series)[0].id, range).size(), want.size());
}

TEST(StoreTest, SpannedSeriesStreamTheSameSamplesAsTheJoinedRead) {
  TempDir dir;
  const std::string file = dir.File("g.csv");
  WriteText(file, Log(BlockWriter::kBlockRows * 3 + 11));
  auto store = Store::Open(dir.File("s.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  ASSERT_TRUE(IngestFile(store->get(), file, {}).ok());
  auto series = FindSeries(store->get(), SeriesFilter{});
  ASSERT_TRUE(series.ok());
  ASSERT_EQ(series->size(), 2u);
  const TimeNs t0 = NsFromCivil(CivilTime{2026, 1, 1});
  const TimeNs last_end = t0 + (BlockWriter::kBlockRows * 3 + 11) * kNsPerSec;
  BlockReader joined(store->get()), streamed(store->get());
  auto span = streamed.Span({(*series)[0].id, (*series)[1].id});
  ASSERT_TRUE(span.ok()) << span.status().message();
  ASSERT_TRUE(span->has_value());
  EXPECT_EQ((*span)->from, t0);                  // the first row: an instantaneous reading at its time
  EXPECT_EQ((*span)->to, last_end - kNsPerSec);  // the last row's end
  // The whole span (streamed), a range cutting the first and last blocks (streamed, parts cut),
  // and a range that leaves whole blocks out (the joined read): the same samples either way.
  const TimeRange cut{t0 + 20 * kNsPerSec, last_end - 5 * kNsPerSec};
  const TimeRange inner{t0 + (BlockWriter::kBlockRows + 5) * kNsPerSec,
                        t0 + (BlockWriter::kBlockRows + 50) * kNsPerSec};
  for (const auto& s : *series) {
    for (const TimeRange& range : {**span, cut, inner}) {
      const std::vector<Sample> a = ReadBlocks(&joined, s.id, range), b = ReadBlocks(&streamed, s.id, range);
      ASSERT_EQ(a.size(), b.size());
      ASSERT_FALSE(a.empty());
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].start, b[i].start);
        EXPECT_EQ(a[i].end, b[i].end);
        EXPECT_TRUE(a[i].value == b[i].value || (std::isnan(a[i].value) && std::isnan(b[i].value))) << i;
      }
    }
  }
  // Blocks written after Span() (no read transaction held here; on PostgreSQL each statement
  // sees what is committed when it runs): the streamed read gives what Span() saw, as if the
  // new blocks had come a moment later, and after Forget() the reader reads them too.
  WriteText(file,
            Log(BlockWriter::kBlockRows * 3 + 11) + Log(BlockWriter::kBlockRows, BlockWriter::kBlockRows * 3 + 11));
  ASSERT_TRUE(IngestFile(store->get(), file, {}).ok());
  EXPECT_EQ(ReadBlocks(&streamed, (*series)[0].id, **span).size(),
            static_cast<size_t>(BlockWriter::kBlockRows * 3 + 11));
  streamed.Forget();
  EXPECT_EQ(ReadBlocks(&streamed, (*series)[0].id, TimeRange{}).size(),
            static_cast<size_t>(BlockWriter::kBlockRows * 4 + 11));
}

// Marks go several VMs to a statement (32, 16, ... rows): every count stores each mark once, and
// a VM's marks only ever move forward.
TEST(StoreTest, VsphereMarksAreSetInGroupsAndNeverMoveBack) {
  TempDir dir;
  auto store = Store::Open(dir.File("s.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  std::map<MarkKey, TimeNs> marks;
  for (int vm = 0; vm < 75; ++vm) marks[{"vm-" + std::to_string(vm), "cpu.ready.summation", 20}] = 1000 + vm;
  ASSERT_TRUE(SetVsphereMarks(store->get(), "https://vc", marks).ok());
  auto read = VsphereMarks(store->get(), "https://vc");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, marks);
  std::map<MarkKey, TimeNs> moved = {{{"vm-0", "cpu.ready.summation", 20}, 5000},  // forward
                                     {{"vm-1", "cpu.ready.summation", 20}, 10},    // back: kept
                                     {{"vm-99", "cpu.ready.summation", 20}, 77}};  // new
  ASSERT_TRUE(SetVsphereMarks(store->get(), "https://vc", moved).ok());
  read = VsphereMarks(store->get(), "https://vc");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->size(), 76u);
  EXPECT_EQ(read->at({"vm-0", "cpu.ready.summation", 20}), 5000);
  EXPECT_EQ(read->at({"vm-1", "cpu.ready.summation", 20}), 1001);
  EXPECT_EQ(read->at({"vm-99", "cpu.ready.summation", 20}), 77);
  EXPECT_TRUE(SetVsphereMarks(store->get(), "https://vc", {}).ok());
}

TEST(StoreTest, RowsRoundTripAcrossBlockBoundaries) {
  TempDir dir;
  WriteText(dir.File("g.csv"), Log(BlockWriter::kBlockRows * 2 + 7));
  auto store = Store::Open(dir.File("s.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto r = IngestFile(store->get(), dir.File("g.csv"), {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto v = Values(store->get(), "Processor");
  ASSERT_EQ(v.size(), static_cast<size_t>(BlockWriter::kBlockRows * 2 + 7));
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(v[i].first, static_cast<TimeNs>(NsFromCivil(CivilTime{2026, 1, 1}) + i * kNsPerSec));
    EXPECT_EQ(v[i].second, static_cast<double>(i));
  }
  auto p = Values(store->get(), "Process");
  EXPECT_TRUE(std::isnan(p[0].second)) << "missing stays missing through the store";
  EXPECT_EQ(p[1].second, 1.5);
}

TEST(StoreTest, ReingestAddsNothingAndGrownFileAddsOnlyNewRows) {
  TempDir dir;
  const std::string file = dir.File("g.csv");
  WriteText(file, Log(10));
  auto store = Store::Open(dir.File("s.db"));
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(IngestFile(store->get(), file, {}).ok());
  auto again = IngestFile(store->get(), file, {});
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->seen_before);
  EXPECT_EQ(again->summary.rows, 0);
  EXPECT_EQ(Values(store->get(), "Processor").size(), 10u);

  WriteText(file, Log(10) + Log(5, 10));
  auto grown = IngestFile(store->get(), file, {});
  ASSERT_TRUE(grown.ok());
  EXPECT_EQ(grown->summary.rows, 5);
  auto v = Values(store->get(), "Processor");
  ASSERT_EQ(v.size(), 15u);
  EXPECT_EQ(v.back().second, 14);
  auto files = (*store)->Files();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].rows, 15);
}

TEST(StoreTest, AResumeHashEditedByHandIsAnErrorNotAThrow) {
  TempDir dir;
  const std::string file = dir.File("g.csv");
  WriteText(file, Log(10));
  auto store = Store::Open(dir.File("s.db"));
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(IngestFile(store->get(), file, {}).ok());
  // std::stoull threw std::invalid_argument out of IngestFile on this.
  ASSERT_TRUE((*store)->db()->Exec("UPDATE source_file SET consumed_line_hash = 'not-hex'").ok());
  WriteText(file, Log(10) + Log(5, 10));
  auto again = IngestFile(store->get(), file, {});
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(again.status().IsParseError());
  EXPECT_NE(again.status().message().find("line hash \"not-hex\""), std::string::npos) << again.status().message();
  EXPECT_NE(again.status().message().find(file), std::string::npos) << again.status().message();
  EXPECT_EQ(Values(store->get(), "Processor").size(), 10u) << "nothing stored from the refused file";
}

TEST(StoreTest, FailedFileLeavesNothing) {
  TempDir dir;
  WriteText(dir.File("bad.csv"), "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\G\\Memory\\Available MBytes\"\r\n");
  auto store = Store::Open(dir.File("s.db"));
  ASSERT_TRUE(IngestFile(store->get(), dir.File("bad.csv"), {}).status().IsParseError());
  EXPECT_TRUE((*store)->Files()->empty());
  EXPECT_TRUE(FindSeries(store->get(), {})->empty());
}

TEST(StoreTest, RefusesANewerSchema) {
  TempDir dir;
  {
    auto store = Store::Open(dir.File("s.db"));
    ASSERT_TRUE((*store)->db()->Exec("PRAGMA user_version = 99").ok());
  }
  auto again = Store::Open(dir.File("s.db"));
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("newer"), std::string::npos);
}

// Issue 15: a SQLite database of another program is refused, and nothing in it changes (no vrecon
// table, no user_version, its journal mode kept).
TEST(StoreTest, RefusesAnotherProgramsDatabaseAndLeavesItUnchanged) {
  TempDir dir;
  const std::string path = dir.File("crm.db");
  {
    auto db = SqliteDatabase::Open(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(
        (*db)->Exec("CREATE TABLE customers(id INTEGER, name TEXT); INSERT INTO customers VALUES(1, 'x')").ok());
  }
  auto store = Store::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("another program (tables customers)"), std::string::npos)
      << store.status().message();
  auto db = SqliteDatabase::Open(path);
  ASSERT_TRUE(db.ok());
  for (const auto& [sql, want] :
       {std::pair<std::string, std::string>{"SELECT group_concat(name) FROM sqlite_master", "customers"},
        {"PRAGMA user_version", "0"},
        {"PRAGMA journal_mode", "delete"}}) {
    auto q = (*db)->Prepare(sql);
    ASSERT_TRUE(q.ok());
    auto row = q->Step();
    ASSERT_TRUE(row.ok() && *row) << sql;
    EXPECT_EQ(q->ColumnText(0), want) << sql;
  }
}

TEST(StoreTest, MappingsAreCaseInsensitiveOnGuest) {
  auto store = Store::Open(":memory:");
  ASSERT_TRUE((*store)->SetMapping("srv-7", "Billing").ok());
  ASSERT_TRUE((*store)->SetMapping("SRV-7", "Billing VM").ok());
  auto m = (*store)->Mappings();
  ASSERT_EQ(m->size(), 1u);
  EXPECT_EQ(m->begin()->second, "Billing VM");
}

}  // namespace
}  // namespace vrecon
