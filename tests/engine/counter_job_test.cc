// RunCounters on a real store: the guest's other series typed per window, rates re-derived with
// a guest clock that runs slow (the alignment's clock map) and the host root's disk latency.
#include "src/engine/counter_job.h"

#include <gtest/gtest.h>

#include "src/engine/correction_job.h"
#include "src/ingest/ingest_file.h"
#include "tests/support/cli_runner.h"

namespace vrecon {
namespace {

using vrecon::testing::TempDir;
using vrecon::testing::WriteText;

// 15:00:00 to 15:10:00 UTC (10:00 EST) every `step` s.
std::string Rows(int step, int n, const std::string& first, const std::string& rest) {
  std::string t;
  for (int i = 0; i <= n; ++i) {
    char ts[64];  // room for any two ints, which -Wformat-truncation counts on
    std::snprintf(ts, sizeof ts, "\"11/02/2026 10:%02d:%02d.000\"", i * step / 60, i * step % 60);
    t += ts + (i == 0 ? first : rest) + "\n";
  }
  return t;
}

std::unique_ptr<Store> CounterStore(const TempDir& dir) {
  WriteText(dir.File("g.csv"),
            "\"(PDH-CSV 4.0) (Eastern Standard Time)(300)\",\"\\\\G1\\Processor(_Total)\\% Processor Time\","
            "\"\\\\G1\\Memory\\Pages/sec\",\"\\\\G1\\PhysicalDisk(0 C:)\\Avg. Disk sec/Write\"\n" +
                Rows(15, 40, ",\" \",\" \",\" \"", ",\"40\",\"100\",\"0.02\""));
  WriteText(dir.File("h.csv"),
            "\"(PDH-CSV 4.0) (Eastern Standard Time)(300)\",\"\\\\HV9\\Hyper-V Hypervisor Virtual Processor(G1:Hv VP "
            "0)\\% Total Run Time\",\"\\\\HV9\\PhysicalDisk(_Total)\\Avg. Disk sec/Write\"\n" +
                Rows(20, 30, ",\" \",\" \"", ",\"50\",\"0.015\""));
  auto store = Store::Open(":memory:");
  EXPECT_TRUE(IngestFile(store->get(), dir.File("g.csv"), {}).ok());
  EXPECT_TRUE(IngestFile(store->get(), dir.File("h.csv"), {}).ok());
  return std::move(store).value();
}

const models::CounterValue* Find(const std::vector<models::CounterValue>& v, const std::string& tail) {
  for (const auto& c : v)
    if (c.path.ends_with(tail)) return &c;
  return nullptr;
}

TEST(CounterJobTest, RatesUseTheTrueIntervalOfTheClockMap) {
  TempDir dir;
  auto store = CounterStore(dir);
  CorrectionRequest req;
  req.align = false;
  auto windows = RunCorrection(store.get(), req);
  ASSERT_TRUE(windows.ok()) << windows.status().message();
  ASSERT_EQ(windows->size(), 2u);

  // The guest clock runs 2% slow from 15:00: 300 apparent s are 306 true ones.
  const TimeNs t0 = (*windows)[0].start;
  CounterRequest creq;
  creq.clocks[(*windows)[0].vm_key] = [t0](TimeNs t) { return t0 + static_cast<TimeNs>((t - t0) * 1.02); };
  auto counters = RunCounters(store.get(), *windows, creq);
  ASSERT_TRUE(counters.ok()) << counters.status().message();
  ASSERT_EQ(counters->size(), 2u);

  const models::CounterValue* pages = Find((*counters)[0], "Memory\\Pages/sec");
  ASSERT_NE(pages, nullptr);
  EXPECT_EQ(pages->type, models::CounterType::kRate);
  // The first true window holds 300 / 1.02 apparent seconds of 100/s.
  EXPECT_NEAR(*pages->count, 100 * 300 / 1.02, 1e-6);
  EXPECT_NEAR(*pages->guest_value, 100, 1e-9);
  EXPECT_NEAR(*pages->value, 100 / 1.02, 1e-9);

  // The host logged only PhysicalDisk(_Total): used, 20 - 15 ms.
  const models::CounterValue* disk = Find((*counters)[0], "Avg. Disk sec/Write");
  ASSERT_NE(disk, nullptr);
  EXPECT_EQ(disk->type, models::CounterType::kQpcLatency);
  EXPECT_NEAR(*disk->value, 0.005, 1e-12);
  EXPECT_NE(disk->note.find("HV9 PhysicalDisk(_Total)"), std::string::npos) << disk->note;

  const models::CounterValue* cpu = Find((*counters)[0], "Processor(_Total)\\% Processor Time");
  ASSERT_NE(cpu, nullptr);
  EXPECT_NEAR(*cpu->value, 50, 1e-9);  // w = 50 / 40

  // Without a clock map the rate is the guest's.
  auto plain = RunCounters(store.get(), *windows, CounterRequest{});
  ASSERT_TRUE(plain.ok());
  EXPECT_NEAR(*Find((*plain)[0], "Memory\\Pages/sec")->value, 100, 1e-9);
  EXPECT_NEAR(*Find((*plain)[0], "Memory\\Pages/sec")->count, 30000, 1e-6);
}

// What `vrecon counters` and `correct --counters` run: the correction's windows, one list of
// typed counters per window, on the request's window width, and --host-disk passed through.
TEST(CounterJobTest, CorrectionWithCountersTypesEachWindowOfTheCorrection) {
  TempDir dir;
  auto store = CounterStore(dir);
  CorrectionRequest req;
  req.align = false;
  req.window = 600 * kNsPerSec;
  auto both = RunCorrectionWithCounters(store.get(), req, std::nullopt);
  ASSERT_TRUE(both.ok()) << both.status().message();
  ASSERT_EQ(both->windows.size(), 1u);
  ASSERT_EQ(both->counters.size(), 1u);
  const models::CounterValue* pages = Find(both->counters[0], "Memory\\Pages/sec");
  ASSERT_NE(pages, nullptr);
  EXPECT_NEAR(*pages->count, 100 * 600, 1e-6);
  const models::CounterValue* disk = Find(both->counters[0], "Avg. Disk sec/Write");
  ASSERT_NE(disk, nullptr);
  EXPECT_NEAR(*disk->value, 0.005, 1e-12);

  auto named = RunCorrectionWithCounters(store.get(), req, "D:");
  ASSERT_TRUE(named.ok()) << named.status().message();
  disk = Find(named->counters[0], "Avg. Disk sec/Write");
  ASSERT_NE(disk, nullptr);
  EXPECT_NE(disk->note.find("(D:) named by --host-disk"), std::string::npos) << disk->note;

  req.vm = "NO-SUCH-VM";
  EXPECT_FALSE(RunCorrectionWithCounters(store.get(), req, std::nullopt).ok());
}

TEST(CounterJobTest, UseClocksTakesOnlyEstimatedModels) {
  models::ClockModel estimated, flat;
  estimated.segments.push_back({0, 4'000'000'000LL * kNsPerSec, 2.0, 0.0, true, 0, {}, 0});
  flat.segments.push_back({0, 4'000'000'000LL * kNsPerSec, 0.0, 0.0, false, 0, {}, 0});
  CounterRequest req;
  UseClocks({{"g1", estimated}, {"g2", flat}}, &req);
  ASSERT_EQ(req.clocks.count("g1"), 1u);
  EXPECT_EQ(req.clocks.count("g2"), 0u);
  const TimeNs t = 1'800'000'000LL * kNsPerSec;
  EXPECT_EQ(req.clocks["g1"](t), t - 2 * kNsPerSec);  // guest 2 s ahead of the host
}

}  // namespace
}  // namespace vrecon
