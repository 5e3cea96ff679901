#include "src/engine/stored_corrections.h"

#include <gtest/gtest.h>

#include <cmath>

#include "src/ingest/ingest_file.h"
#include "src/store/ready_tables.h"
#include "src/store/window_blocks.h"
#include "tests/support/cli_runner.h"
#include "tests/support/sample_file.h"
#include "tests/support/test_store.h"

namespace vrecon {
namespace {

using vrecon::testing::Fixture;
using vrecon::testing::TestBackend;

// The stored-correction tests run on both backends (tests/support/test_store.h).
class StoredCorrectionsTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(GetParam()); }
  std::unique_ptr<Store> SeedStore() {
    auto store = Store::Open(testing::NewStore(GetParam(), dir_.path(), "stored_corrections.db"));
    EXPECT_TRUE(store.ok()) << store.status().message();
    EXPECT_TRUE(IngestFile(store->get(), Fixture("seed003/guest-web01.csv"), {}).ok());
    EXPECT_TRUE(IngestFile(store->get(), Fixture("seed003/hyperv-hv01.csv"), {}).ok());
    return std::move(store).value();
  }
  testing::TempDir dir_;
};

TEST(CorrectionTablesTest, FlagsAndProcessBlobsRoundTrip) {
  const std::vector<StoredFlag> flags = {{"low-coverage", Severity::kWarning, "guest covers 50%\tof\nthe window"},
                                         {"idle", Severity::kInfo, ""}};
  const std::vector<StoredFlag> back = DecodeFlags(EncodeFlags(flags));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].code, "low-coverage");
  EXPECT_EQ(back[0].severity, Severity::kWarning);
  EXPECT_EQ(back[0].message, "guest covers 50% of the window");
  EXPECT_EQ(back[1].code, "idle");
  EXPECT_EQ(back[1].message, "");

  auto aggregate = [](std::string name, int64_t n_guest, int64_t n_corr, double sum_guest, double sum_corr,
                      double sum_hw2) {
    ProcessAggregate a;
    a.name = std::move(name);
    a.n_guest = n_guest;
    a.n_corr = n_corr;
    a.sum_guest = sum_guest;
    a.sum_corr = sum_corr;
    a.sum_hw2 = sum_hw2;
    return a;
  };
  ProcessAggregate p = aggregate("sqlservr", 3, 2, 120.5, 150.25, 4.0);
  auto decoded = DecodeProcesses(EncodeProcesses({p, aggregate("Ünïcode", 1, 0, 1, 0, 0)}));
  ASSERT_TRUE(decoded.ok());
  ASSERT_EQ(decoded->size(), 2u);
  EXPECT_EQ((*decoded)[0].name, "sqlservr");
  EXPECT_EQ((*decoded)[0].n_corr, 2);
  EXPECT_DOUBLE_EQ(*(*decoded)[0].MeanCorrected(), 75.125);
  EXPECT_DOUBLE_EQ(*(*decoded)[0].HalfWidth95(), 1.0);
  EXPECT_EQ((*decoded)[1].name, "Ünïcode");
  EXPECT_FALSE((*decoded)[1].MeanCorrected());
  const std::string blob = EncodeProcesses({p});
  EXPECT_FALSE(DecodeProcesses(std::string_view(blob).substr(0, blob.size() - 1)).ok());
}

// The esxtop capture's Ready-Time summary, read back for its VM only as a fleet round reads it.
TEST_P(StoredCorrectionsTest, ReadySummariesWithTheirDigestAreReadForTheGivenVms) {
  auto store = Store::Open(testing::NewStore(GetParam(), dir_.path(), "ready_digest.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  ASSERT_TRUE(IngestFile(store->get(), Fixture("esxtop/app02-contention.csv"), {}).ok());
  ASSERT_TRUE(StoreCorrections(store->get(), CorrectionRequest{}).ok());
  auto all = ReadySummariesWithDigest(store->get());
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_FALSE(all->empty());
  const std::string key = all->begin()->first;
  std::set<std::pair<std::string, std::string>> of_key;
  for (const auto& ks : *all)
    if (ks.first == key) of_key.insert(ks);
  EXPECT_EQ(*ReadySummariesWithDigest(store->get(), std::set<std::string>{key, "vsphere:vc/vm-none"}), of_key);
  EXPECT_TRUE(ReadySummariesWithDigest(store->get(), std::set<std::string>{"vsphere:vc/vm-none"})->empty());
}

TEST_P(StoredCorrectionsTest, StoresWhatRunCorrectionComputes) {
  auto store = SeedStore();
  CorrectionRequest req;
  auto computed = RunCorrection(store.get(), req);
  ASSERT_TRUE(computed.ok());
  ASSERT_FALSE(computed->empty());
  auto n = StoreCorrections(store.get(), req);
  ASSERT_TRUE(n.ok()) << n.status().message();
  EXPECT_EQ(*n, static_cast<int64_t>(computed->size()));

  auto vms = ListCorrVms(store.get());
  ASSERT_TRUE(vms.ok());
  ASSERT_EQ(vms->size(), 1u);
  EXPECT_EQ((*vms)[0].vm, "WEB01");
  EXPECT_EQ((*vms)[0].host_source, "hyperv");
  // A fleet round reads only its own VMs' rows.
  const std::string key = (*vms)[0].vm_key;
  auto own = ListCorrVms(store.get(), std::set<std::string>{key, "vsphere:vc/vm-none"});
  ASSERT_TRUE(own.ok()) << own.status().message();
  ASSERT_EQ(own->size(), 1u);
  EXPECT_EQ((*own)[0].id, (*vms)[0].id);
  EXPECT_TRUE(ListCorrVms(store.get(), std::set<std::string>{"vsphere:vc/vm-none"})->empty());
  std::vector<StoredWindow> windows;
  ASSERT_TRUE(ForEachCorrWindow(store.get(), (*vms)[0].id, INT64_MIN, INT64_MAX, [&](const StoredWindow& w) {
                windows.push_back(w);
                return true;
              }).ok());
  ASSERT_EQ(windows.size(), computed->size());
  for (size_t i = 0; i < windows.size(); ++i) {
    const auto& r = (*computed)[i];
    EXPECT_EQ(windows[i].start, r.start);
    EXPECT_EQ(windows[i].w.has_value(), r.w.has_value());
    if (r.w) {
      EXPECT_DOUBLE_EQ(*windows[i].w, *r.w);
    }
    EXPECT_EQ(windows[i].flags.size(), r.flags.size());
  }
  // The hourly aggregates hold every process the windows held, with the same mean.
  auto procs = LoadProcessAggregates(store.get(), (*vms)[0].id, INT64_MIN / 2, INT64_MAX / 2);
  ASSERT_TRUE(procs.ok());
  ASSERT_FALSE(procs->empty());
  const std::string top = (*procs)[0].name;
  double sum = 0;
  int n_corr = 0;
  for (const auto& r : *computed)
    for (const auto& p : r.processes)
      if (p.name == top && p.corrected_pct) {
        sum += *p.corrected_pct;
        ++n_corr;
      }
  ASSERT_GT(n_corr, 0);
  EXPECT_NEAR(*(*procs)[0].MeanCorrected(), sum / n_corr, 1e-9);
}

// More new VMs than get their rows in one statement (64): each VM's windows are stored under
// its own id, as the correction computed them.
TEST_P(StoredCorrectionsTest, ManyNewVmsEachKeepTheirOwnWindows) {
  auto store = Store::Open(testing::NewStore(GetParam(), dir_.path(), "many_new_vms.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  const TimeNs from = NsFromCivil(CivilTime{2026, 3, 2}), to = from + 15 * 60 * kNsPerSec;
  constexpr int kVms = 70;
  for (int i = 0; i < kVms; ++i) {
    const std::string name = "APP" + std::to_string(100 + i);
    const std::vector<SeriesKey> guest = {
        SeriesKey{SourceKind::kGuest, name, "Processor", "_Total", "% Processor Time", "percent", "", ""},
        SeriesKey{SourceKind::kGuest, name, "Process", "sqlservr", "% Processor Time", "percent", "", ""}};
    const std::vector<SeriesKey> host = {
        SeriesKey{SourceKind::kVsphere, name, "cpu", "", "cpu.usage.average", "percent", "", ""}};
    testing::WriteSampleFile(store->get(), "guest-" + name, guest, from, to, 15 * kNsPerSec, 10 + i);
    testing::WriteSampleFile(store->get(), "host-" + name, host, from, to, 20 * kNsPerSec, 5 + 0.5 * i);
  }
  CorrectionRequest req;
  req.window = 300 * kNsPerSec;
  auto computed = RunCorrection(store->get(), req);
  ASSERT_TRUE(computed.ok()) << computed.status().message();
  std::map<std::string, std::vector<models::WindowResult>> want;
  for (models::WindowResult& r : *computed) want[r.vm_key].push_back(std::move(r));
  ASSERT_EQ(want.size(), static_cast<size_t>(kVms));
  ASSERT_TRUE(StoreCorrections(store->get(), req).ok());

  auto vms = ListCorrVms(store->get());
  ASSERT_TRUE(vms.ok());
  ASSERT_EQ(vms->size(), static_cast<size_t>(kVms));
  std::set<int64_t> ids;
  for (const CorrVm& vm : *vms) {
    ids.insert(vm.id);
    ASSERT_TRUE(want.contains(vm.vm_key)) << vm.vm_key;
    const std::vector<models::WindowResult>& w = want[vm.vm_key];
    std::vector<StoredWindow> got;
    ASSERT_TRUE(ForEachCorrWindow(store->get(), vm.id, INT64_MIN, INT64_MAX, [&](const StoredWindow& s) {
                  got.push_back(s);
                  return true;
                }).ok());
    ASSERT_EQ(got.size(), w.size()) << vm.vm;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].start, w[i].start) << vm.vm;
      ASSERT_TRUE(got[i].guest_util && w[i].guest_util_pct) << vm.vm;
      EXPECT_DOUBLE_EQ(*got[i].guest_util, *w[i].guest_util_pct) << vm.vm;
      EXPECT_EQ(got[i].w.has_value(), w[i].w.has_value()) << vm.vm;
      if (got[i].w && w[i].w) {
        EXPECT_DOUBLE_EQ(*got[i].w, *w[i].w) << vm.vm;
      }
    }
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(kVms));
}

TEST_P(StoredCorrectionsTest, StoringAgainReplacesInsteadOfDuplicating) {
  auto store = SeedStore();
  CorrectionRequest req;
  auto first = StoreCorrections(store.get(), req);
  ASSERT_TRUE(first.ok());
  auto second = StoreCorrections(store.get(), req);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*first, *second);
  auto count = CountCorrWindows(store.get());
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, *first);
  // A partial range replaces only its hours: the total stays the same.
  auto computed = RunCorrection(store.get(), req);
  ASSERT_TRUE(computed.ok());
  CorrectionRequest part;
  part.from = computed->back().start;
  ASSERT_TRUE(StoreCorrections(store.get(), part).ok());
  count = CountCorrWindows(store.get());
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, *first);
}

TEST_P(StoredCorrectionsTest, UnknownVmIsNotFoundAndLeavesTheStoreAlone) {
  auto store = SeedStore();
  CorrectionRequest req;
  ASSERT_TRUE(StoreCorrections(store.get(), req).ok());
  req.vm = "NOPE*";
  auto r = StoreCorrections(store.get(), req);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  auto count = CountCorrWindows(store.get());
  ASSERT_TRUE(count.ok());
  EXPECT_GT(*count, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoredCorrectionsTest,
                         ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres), testing::BackendParamName);

}  // namespace
}  // namespace vrecon
