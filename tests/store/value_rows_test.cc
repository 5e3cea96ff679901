// The rows of several files written through one WriteAhead (src/store/value_rows.h,
// write_ahead.h), as a collector's batch of VMs writes them, on both backends: every sample reads
// back as written, whether its row went out in a full multi-row INSERT or in the power-of-two
// statements of the remainder; each file's issues and its row written again land on that file;
// new files added together get their own ids; a writer without a WriteAhead flushes its own rows.
#include "src/store/value_rows.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "src/store/block_writer.h"
#include "src/store/sample_reader.h"
#include "src/store/write_ahead.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_store.h"

namespace vrecon::testing {
namespace {

constexpr TimeNs kT0 = 1'793'000'000 * kNsPerSec;  // 2026-10-26, inside one month
constexpr int kRows = 3;

std::vector<SeriesKey> Columns(const std::string& machine, int n) {
  std::vector<SeriesKey> out;
  for (int c = 0; c < n; ++c) {
    SeriesKey k;
    k.source = SourceKind::kGuest;
    k.machine = machine;
    k.object = "Process";
    k.instance = "p" + std::to_string(c);
    k.counter = "% Processor Time";
    k.unit = "percent";
    k.original = k.counter;
    out.push_back(std::move(k));
  }
  return out;
}

// The value of column c at row r of file f; every fifth is missing.
double Value(int f, int c, int r) { return (f * 7 + c * 3 + r) % 5 == 0 ? kMissing : f * 1000.0 + c + r / 10.0; }

// Writes file f of `columns` series x kRows rows, with one issue, and saves its row again (with
// its rows counted) through `ahead` as a collector does.
void WriteFile(Store* store, WriteAhead* ahead, int f, int columns) {
  FileRecord file;
  file.fingerprint = "file-" + std::to_string(f);
  file.path = file.fingerprint;
  file.format = "perfmon-csv";
  file.kinds = "guest";
  file.machines = "VM" + std::to_string(f);
  ASSERT_TRUE(store->SaveFile(&file).ok());
  BlockWriter writer(store);
  writer.set_file_id(file.id);
  if (ahead) writer.set_ahead(ahead);
  const std::vector<SeriesKey> keys = Columns(file.machines, columns);
  if (ahead) {
    ASSERT_TRUE(ahead->LoadSeries(keys).ok());
    ASSERT_TRUE(ahead->AddMissing(keys).ok());
  }
  ASSERT_TRUE(writer.DeclareColumns(keys).ok());
  std::vector<double> row(columns);
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < columns; ++c) row[c] = Value(f, c, r);
    const TimeNs end = kT0 + (r + 1) * 15 * kNsPerSec;
    ASSERT_TRUE(writer.AddRow(end - 15 * kNsPerSec, end, row).ok());
  }
  writer.AddIssue(
      ImportIssue{file.path, f + 1, Severity::kWarning, "test-issue", "issue of file " + std::to_string(f)});
  ASSERT_TRUE(writer.Finish().ok());
  file.rows = kRows;
  file.issues = 1;
  ASSERT_TRUE((ahead ? ahead->SaveFile(&file) : store->SaveFile(&file)).ok());
}

void ExpectFileRow(Store* store, int f) {
  auto file = store->FindFile("file-" + std::to_string(f));
  ASSERT_TRUE(file.ok() && file->has_value()) << "file " << f;
  EXPECT_EQ((*file)->rows, kRows) << "file " << f;
  EXPECT_EQ((*file)->issues, 1) << "file " << f;
  auto issues = store->Issues((*file)->id);
  ASSERT_TRUE(issues.ok());
  ASSERT_EQ(issues->size(), 1u) << "file " << f;
  EXPECT_EQ(issues->front().message, "issue of file " + std::to_string(f));
  EXPECT_EQ(issues->front().line, f + 1);
}

void ExpectStored(Store* store, int f, int columns) {
  SeriesFilter filter;
  filter.machine = "VM" + std::to_string(f);
  auto series = FindSeries(store, filter);
  ASSERT_TRUE(series.ok()) << series.status().message();
  ASSERT_EQ(series->size(), static_cast<size_t>(columns));
  for (const StoredSeries& s : *series) {
    const int c = std::stoi(s.key.instance.substr(1));
    int r = 0;
    ASSERT_TRUE(ForEachSample(store, s.id, TimeRange{}, [&](TimeNs, TimeNs end, double v) {
                  EXPECT_EQ(end, kT0 + (r + 1) * 15 * kNsPerSec);
                  const double want = Value(f, c, r);
                  if (IsMissing(want)) {
                    EXPECT_TRUE(IsMissing(v)) << "file " << f << " column " << c << " row " << r;
                  } else {
                    EXPECT_EQ(v, want) << "file " << f << " column " << c << " row " << r;
                  }
                  ++r;
                }).ok());
    EXPECT_EQ(r, kRows) << "file " << f << " column " << c;
  }
}

class ValueRowsTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(GetParam()); }
  TempDir dir_;
};

// Five files of 1, 5, 57, 130 and 200 series: 393 rows held across files, so full INSERTs of
// 128 span files and the remainder (9 rows: 8 + 1) goes out at Flush.
TEST_P(ValueRowsTest, ABatchOfFilesReadsBackAsWritten) {
  auto store = Store::Open(NewStore(GetParam(), dir_.path()));
  ASSERT_TRUE(store.ok()) << store.status().message();
  const int widths[] = {1, 5, 57, 130, 200};
  {
    auto tx = (*store)->BeginTransaction();
    ASSERT_TRUE(tx.ok());
    WriteAhead ahead(store->get());
    for (int f = 0; f < 5; ++f) WriteFile(store->get(), &ahead, f, widths[f]);
    if (GetParam() == TestBackend::kPostgres) {
      EXPECT_EQ(ahead.value_rows()->held(), 393u % ValueRows::kRowsPerInsert);
    }
    ASSERT_TRUE(ahead.Flush().ok());
    EXPECT_EQ(ahead.value_rows()->held(), 0u);
    ASSERT_TRUE(tx->Commit().ok());
  }
  for (int f = 0; f < 5; ++f) {
    ExpectStored(store->get(), f, widths[f]);
    ExpectFileRow(store->get(), f);
  }
}

// 70 files of three series: the value rows fill a statement (128) at the 43rd file and the time
// blocks one (64) at the 64th, each while the other's rows are held. A file saved a
// second time in the batch (its row held once already) is written with its second values.
TEST_P(ValueRowsTest, ManySmallFilesKeepTheirBlocksIssuesAndRows) {
  auto store = Store::Open(NewStore(GetParam(), dir_.path()));
  ASSERT_TRUE(store.ok()) << store.status().message();
  constexpr int kFiles = 70;
  {
    auto tx = (*store)->BeginTransaction();
    ASSERT_TRUE(tx.ok());
    WriteAhead ahead(store->get());
    for (int f = 0; f < kFiles; ++f) WriteFile(store->get(), &ahead, f, 3);
    auto again = (*store)->FindFile("file-3");
    ASSERT_TRUE(again.ok() && again->has_value());
    (*again)->machines = "VM3,renamed";
    (*again)->rows = kRows;  // on PostgreSQL the first save is still held: the row read has none
    (*again)->issues = 1;
    ASSERT_TRUE(ahead.SaveFile(&**again).ok());
    ASSERT_TRUE(ahead.Flush().ok());
    ASSERT_TRUE(tx->Commit().ok());
  }
  for (int f = 0; f < kFiles; ++f) {
    ExpectStored(store->get(), f, 3);
    ExpectFileRow(store->get(), f);
  }
  auto renamed = (*store)->FindFile("file-3");
  ASSERT_TRUE(renamed.ok() && renamed->has_value());
  EXPECT_EQ((*renamed)->machines, "VM3,renamed");
}

// A collector batch's new VMs get their file rows in one statement per 64 (Store::AddFiles):
// each record gets its own row's id, across statements.
TEST_P(ValueRowsTest, NewFilesAddedTogetherGetTheirOwnIds) {
  auto store = Store::Open(NewStore(GetParam(), dir_.path()));
  ASSERT_TRUE(store.ok()) << store.status().message();
  std::vector<FileRecord> files(70);
  std::vector<FileRecord*> added;
  for (size_t i = 0; i < files.size(); ++i) {
    files[i].fingerprint = "vsphere|https://vc|vm-" + std::to_string(i);
    files[i].path = "https://vc";
    files[i].format = "vsphere-api";
    files[i].machines = "VM" + std::to_string(i);
    files[i].consumed_line_hash = "0";
    added.push_back(&files[i]);
  }
  ASSERT_TRUE((*store)->AddFiles(added).ok());
  std::set<int64_t> ids;
  for (const FileRecord& f : files) {
    auto found = (*store)->FindFile(f.fingerprint);
    ASSERT_TRUE(found.ok() && found->has_value()) << f.fingerprint;
    EXPECT_EQ((*found)->id, f.id) << f.fingerprint;
    EXPECT_EQ((*found)->machines, f.machines);
    ids.insert(f.id);
  }
  EXPECT_EQ(ids.size(), files.size());
}

TEST_P(ValueRowsTest, AWriterAloneFlushesItsOwnRows) {
  auto store = Store::Open(NewStore(GetParam(), dir_.path()));
  ASSERT_TRUE(store.ok()) << store.status().message();
  {
    auto tx = (*store)->BeginTransaction();
    ASSERT_TRUE(tx.ok());
    WriteFile(store->get(), nullptr, 7, 133);
    ASSERT_TRUE(tx->Commit().ok());
  }
  ExpectStored(store->get(), 7, 133);
  ExpectFileRow(store->get(), 7);
}

INSTANTIATE_TEST_SUITE_P(Backends, ValueRowsTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         BackendParamName);

}  // namespace
}  // namespace vrecon::testing
