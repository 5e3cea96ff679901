// A fleet round recomputes what its new samples touch: the VMs without a guest log from the
// window before those samples, keeping their hour's earlier windows; the others from the hour's
// start, since their process figures are sums over the whole hour, and so are VMs whose stored
// windows stop short (a round stopped before its correction). Round after round, the store then
// holds what a recompute of the whole history gives.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "src/engine/stored_corrections.h"
#include "src/store/window_blocks.h"
#include "tests/support/cli_runner.h"
#include "tests/support/sample_file.h"
#include "tests/support/test_store.h"
#include "tests/support/time_units.h"

namespace vrecon {
namespace {

using vrecon::testing::TestBackend;
using vrecon::testing::WriteSampleFile;

const TimeNs kRoundDay0 = NsFromCivil(CivilTime{2026, 3, 2});
using vrecon::testing::kMin;
constexpr TimeNs kWindow = 5 * kMin;
constexpr TimeNs kAll[] = {std::numeric_limits<TimeNs>::min(), std::numeric_limits<TimeNs>::max()};

SeriesKey Host(const std::string& vm) {
  return SeriesKey{SourceKind::kVsphere, vm, "cpu", "", "cpu.usage.average", "percent", "", ""};
}
SeriesKey RoundGuest(const std::string& object, const std::string& instance) {
  return SeriesKey{SourceKind::kGuest, "APP01", object, instance, "% Processor Time", "percent", "", ""};
}

// APP01 has a guest log with a process; WEB01 and DB02 have the host side only, and DB02 appears
// from the second round on.
void WriteRound(Store* store, int round, TimeNs from, TimeNs to) {
  const std::string n = std::to_string(round);
  WriteSampleFile(store, "guest-" + n, {RoundGuest("Processor", "_Total"), RoundGuest("Process", "sqlservr")}, from, to,
                  15 * kNsPerSec, 30);
  std::vector<SeriesKey> host = {Host("APP01"), Host("WEB01")};
  if (round > 1) host.push_back(Host("DB02"));
  WriteSampleFile(store, "host-" + n, host, from, to, 20 * kNsPerSec, 40 + round);
}

// The round's correction as the fleet runner asks for it (src/fleet/fleet_round.cc).
StatusOr<int64_t> StoreRound(Store* store, TimeNs first_new_end) {
  CorrectionRequest req;
  req.align = false;  // a guest window's figures then depend only on the samples inside it
  req.window = kWindow;
  req.from = FloorTo(first_new_end, kWindow) - kWindow;
  req.new_samples_from = first_new_end;
  return StoreCorrections(store, req);
}

// Every stored window and process hour, as text.
std::vector<std::string> Stored(Store* store) {
  std::vector<std::string> out;
  auto vms = ListCorrVms(store, std::nullopt);
  EXPECT_TRUE(vms.ok()) << vms.status().message();
  if (!vms.ok()) return out;
  for (const CorrVm& vm : *vms) {
    Status st = ForEachCorrWindow(store, vm.id, kAll[0], kAll[1], [&](const StoredWindow& w) {
      std::string s = vm.vm_key + " " + FormatIso(w.start, false) +
                      " guest=" + std::to_string(w.guest_util.value_or(-1)) +
                      " host=" + std::to_string(w.host_util.value_or(-1)) + " w=" + std::to_string(w.w.value_or(-1)) +
                      " cov=" + std::to_string(w.host_cov);
      for (const StoredFlag& f : w.flags) s += " [" + f.code + "]";
      out.push_back(s);
      return true;
    });
    EXPECT_TRUE(st.ok()) << st.message();
    for (TimeNs hour = kRoundDay0; hour < kRoundDay0 + 2 * 60 * kMin; hour += 60 * kMin) {
      auto procs = LoadProcessAggregates(store, vm.id, hour, hour + 60 * kMin);
      EXPECT_TRUE(procs.ok()) << procs.status().message();
      if (!procs.ok()) continue;
      for (const ProcessAggregate& p : *procs)
        out.push_back(vm.vm_key + " " + FormatIso(hour, false) + " " + p.name + " n=" + std::to_string(p.n_corr) +
                      " guest=" + std::to_string(p.sum_guest) + " corrected=" + std::to_string(p.sum_corr));
    }
  }
  return out;
}

class RoundRecomputeTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(GetParam()); }
  testing::TempDir dir_;
};

TEST_P(RoundRecomputeTest, RoundsInsideAnHourStoreWhatTheWholeHistoryGives) {
  auto store = Store::Open(testing::NewStore(GetParam(), dir_.path(), "round_recompute.db"));
  ASSERT_TRUE(store.ok()) << store.status().message();
  Store* s = store->get();

  WriteRound(s, 1, kRoundDay0, kRoundDay0 + 21 * kMin);
  ASSERT_TRUE(StoreRound(s, kRoundDay0 + 20 * kNsPerSec).ok());
  // 0:21 to 0:41: WEB01 from 0:15 (its windows reach 0:25, so all before 0:15 had their samples),
  // DB02 (new) and APP01 (a guest log) from 0:00.
  WriteRound(s, 2, kRoundDay0 + 21 * kMin, kRoundDay0 + 41 * kMin);
  auto second = StoreRound(s, kRoundDay0 + 21 * kMin + 20 * kNsPerSec);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(*second, 6 + 5 + 9);
  // 0:41 to 0:56 stored, and the round stopped before its correction; the next round's samples
  // begin at 0:56, but the stored windows reach only 0:45: every VM from the hour's start.
  WriteRound(s, 3, kRoundDay0 + 41 * kMin, kRoundDay0 + 56 * kMin);
  WriteRound(s, 4, kRoundDay0 + 56 * kMin, kRoundDay0 + 71 * kMin);
  auto fourth = StoreRound(s, kRoundDay0 + 56 * kMin + 20 * kNsPerSec);
  ASSERT_TRUE(fourth.ok()) << fourth.status().message();
  EXPECT_EQ(*fourth, 15 + 15 + 11);

  const std::vector<std::string> rounds = Stored(s);
  ASSERT_EQ(rounds.size(), 15u + 15u + 11u + 2u);  // windows of APP01, WEB01, DB02; APP01's process hours
  CorrectionRequest whole;
  whole.align = false;
  whole.window = kWindow;
  auto all = StoreCorrections(s, whole);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(Stored(s), rounds);
}

INSTANTIATE_TEST_SUITE_P(Backends, RoundRecomputeTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         testing::BackendParamName);

}  // namespace
}  // namespace vrecon
