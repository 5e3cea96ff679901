// `vrecon correct` on the agent's cycle counts (the `cycles` basis, issue 39 part 3) through a
// real store: seed 002's two processes on a 5-vCPU Hyper-V guest, counted in cycles; Perfmon's
// figures beside them; an ETW trace of the same window preferred, a profile not.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "models/event_correction.h"
#include "src/engine/correction_job.h"
#include "src/ingest/ingest_file.h"
#include "tests/support/cli_runner.h"
#include "tests/support/pdh_log.h"
#include "tests/support/seed002_trace.h"

namespace vrecon {
namespace {

using testing::PdhHeader;
using testing::PdhRow;
using testing::TempDir;
using testing::WriteText;

const TimeNs kStart = ParseIso("2026-11-02T10:00:00Z").value();

// The agent's cycles columns over 10:00-10:05 (to 15 x `last` s), every 15 s, on 5 processors of
// 3 GHz: single.exe one processor's cycles, multi.exe one processor's spread over four, the rest
// idle (40% busy; each process 100% of one CPU).
std::string CyclesLog(int last = 20) {
  std::vector<std::string> paths = {"\\\\WEB01\\vrecon Process Cycles(single:100)\\Cycles",
                                    "\\\\WEB01\\vrecon Process Cycles(multi:200)\\Cycles"};
  for (int cpu = 0; cpu < 5; ++cpu)
    paths.push_back("\\\\WEB01\\vrecon Processor Cycles(0," + std::to_string(cpu) + ")\\Idle Cycles");
  paths.push_back("\\\\WEB01\\vrecon Processor Cycles(_Total)\\Cycles");
  paths.push_back("\\\\WEB01\\vrecon System\\OS Build");
  paths.push_back("\\\\WEB01\\vrecon System\\Architecture");
  std::string out = PdhHeader(paths);
  const double per_cpu = 3e9 * 15;  // a processor's cycles in 15 s
  for (int k = 0; k <= last; ++k) {
    std::vector<std::string> cells = {std::to_string(static_cast<long long>(k * per_cpu)),
                                      std::to_string(static_cast<long long>(k * per_cpu))};
    for (int cpu = 0; cpu < 5; ++cpu) cells.push_back(std::to_string(static_cast<long long>(k * per_cpu * 3 / 5)));
    cells.push_back(std::to_string(static_cast<long long>(k * per_cpu * 5)));
    cells.push_back("20348");
    cells.push_back("9");
    out += PdhRow(15 * k, cells);
  }
  return out;
}

class CyclesCorrectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Store::Open(dir_.File("store.db"));
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    store_ = std::move(opened).value();
    Ingest("host.csv", testing::HostLog());
  }
  void Ingest(const std::string& name, const std::string& text) {
    WriteText(dir_.File(name), text);
    IngestOptions o;
    o.machine = "WEB01";
    o.trace_start = kStart;
    auto r = IngestFile(store_.get(), dir_.File(name), o);
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  // The window from 10:01 (every source covers it whole).
  const models::WindowResult* Window() {
    CorrectionRequest req;
    req.vm = "WEB01";
    req.window = 60 * kNsPerSec;
    req.align = false;
    auto r = RunCorrection(store_.get(), req);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) return nullptr;
    results_ = std::move(*r);
    auto it = std::find_if(results_.begin(), results_.end(),
                           [](const auto& w) { return w.start == kStart + 60 * kNsPerSec; });
    return it == results_.end() ? nullptr : &*it;
  }
  static const models::ProcessResult* Process(const models::WindowResult& r, const std::string& name) {
    auto it = std::find_if(r.processes.begin(), r.processes.end(), [&](const auto& p) { return p.name == name; });
    return it == r.processes.end() ? nullptr : &*it;
  }

  TempDir dir_;
  std::unique_ptr<Store> store_;
  std::vector<models::WindowResult> results_;
};

TEST_F(CyclesCorrectionTest, CycleSharesAreTheBasisWithPerfmonsFiguresBeside) {
  Ingest("guest.csv", testing::GuestLog());
  Ingest("cycles.csv", CyclesLog());
  const models::WindowResult* r = Window();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kCycles);
  EXPECT_STREQ(models::BasisName(r->basis), "cycles");
  ASSERT_TRUE(r->guest_util_pct && r->host_util_pct && r->w);
  EXPECT_NEAR(*r->guest_util_pct, 40, 1e-6);  // the cycles', not Perfmon's 38%
  EXPECT_NEAR(*r->w, 1.25, 1e-6);
  ASSERT_TRUE(r->sampled_guest_util_pct);
  EXPECT_NEAR(*r->sampled_guest_util_pct, 38, 1e-6);
  EXPECT_EQ(r->vcpus, 5);
  for (const char* name : {"single:100", "multi:200"}) {
    const models::ProcessResult* p = Process(*r, name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_EQ(p->basis, models::Basis::kCycles);
    ASSERT_TRUE(p->guest_pct && p->corrected_pct) << name;
    EXPECT_NEAR(*p->guest_pct, 100, 1e-6) << name;
    EXPECT_NEAR(*p->corrected_pct, 125, 1e-6) << name;
    // Perfmon's figure for the same process, found by name and ID Process.
    ASSERT_TRUE(p->sampled_pct) << name;
    EXPECT_EQ(p->sampled_name, std::string(name).substr(0, std::string(name).find(':')));
  }
  EXPECT_NEAR(*Process(*r, "multi:200")->sampled_pct, 80, 1e-6);
}

TEST_F(CyclesCorrectionTest, AContextSwitchTraceIsPreferredAndCyclesBeatTheTicksWithoutOne) {
  Ingest("guest.csv", testing::GuestLog());
  const models::WindowResult* r = Window();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kSamples);
  Ingest("cycles.csv", CyclesLog());
  r = Window();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kCycles);
  Ingest("web01.txt", testing::Trace(300));
  r = Window();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kEvents);
}

// Every basis that covers a window is reported beside the one it is corrected on.
TEST_F(CyclesCorrectionTest, TheOtherBasesOfAWindowAreBesideItsOwn) {
  Ingest("guest.csv", testing::GuestLog());
  Ingest("cycles.csv", CyclesLog());
  Ingest("web01.txt", testing::Trace(300));
  const models::WindowResult* r = Window();
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->basis, models::Basis::kEvents);
  ASSERT_EQ(r->other_bases.size(), 2u);
  EXPECT_EQ(r->other_bases[0].basis, models::Basis::kCycles);
  EXPECT_NEAR(r->other_bases[0].pct, 40, 1e-6);
  EXPECT_EQ(r->other_bases[1].basis, models::Basis::kSamples);
  EXPECT_NEAR(r->other_bases[1].pct, 38, 1e-6);
  const models::ProcessResult* multi = Process(*r, "multi:200");
  ASSERT_NE(multi, nullptr);
  ASSERT_EQ(multi->other_bases.size(), 2u);
  EXPECT_EQ(multi->other_bases[0].basis, models::Basis::kCycles);
  EXPECT_NEAR(multi->other_bases[0].pct, 100, 1e-6);
  EXPECT_EQ(multi->other_bases[1].basis, models::Basis::kSamples);
  EXPECT_NEAR(multi->other_bases[1].pct, 80, 1e-6);
}

// A samples window names its processes as Perfmon does (single, multi): the other bases' figures
// are found by the pid their ID Process reads.
TEST_F(CyclesCorrectionTest, ASamplesWindowFindsTheOtherBasesProcessesByPid) {
  Ingest("guest.csv", testing::GuestLog());
  Ingest("cycles.csv", CyclesLog(5));  // to 10:01:15: a quarter of the window from 10:01
  const models::WindowResult* r = Window();
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->basis, models::Basis::kSamples);
  ASSERT_EQ(r->other_bases.size(), 1u);
  EXPECT_EQ(r->other_bases[0].basis, models::Basis::kCycles);
  EXPECT_NEAR(r->other_bases[0].pct, 40, 1e-6);
  const models::ProcessResult* multi = Process(*r, "multi");
  ASSERT_NE(multi, nullptr);
  ASSERT_EQ(multi->other_bases.size(), 1u);
  EXPECT_NEAR(multi->other_bases[0].pct, 100, 1e-6);
}

}  // namespace
}  // namespace vrecon
