// `vrecon correct` on a sampled CPU profile (WPA's CPU Usage (Sampled) export, the `profile` basis)
// through a real store: seed 002's two processes on a 5-vCPU Hyper-V guest, sampled at 1 kHz.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "models/event_correction.h"
#include "src/engine/correction_job.h"
#include "src/ingest/ingest_file.h"
#include "tests/support/cli_runner.h"
#include "tests/support/seed002_trace.h"

namespace vrecon {
namespace {

using testing::TempDir;
using testing::WriteText;

const TimeNs kProfileStart = ParseIso("2026-11-02T10:00:00Z").value();

// `seconds` of a 1 kHz profile from 10:00:00 UTC on 5 CPUs: single.exe on CPU 0 all the time,
// multi.exe on CPUs 1-4 for the first 250 ms of each second, idle otherwise (40% busy; each
// process one CPU's worth, 100% of one CPU).
std::string Profile(int seconds) {
  std::string out = "Process,CPU,Weight (ms),Count,TimeStamp (s)\n";
  char b[80];
  for (int64_t ms = 1; ms <= seconds * 1000; ++ms) {
    std::snprintf(b, sizeof b, ",1.0,1,%lld.%03lld\n", static_cast<long long>(ms / 1000),
                  static_cast<long long>(ms % 1000));
    out += std::string("single.exe (100),0") + b;
    const bool multi = (ms - 1) % 1000 < 250;
    for (int cpu = 1; cpu < 5; ++cpu) out += (multi ? "multi.exe (200)," : "Idle (0),") + std::to_string(cpu) + b;
  }
  return out;
}

class ProfileCorrectionTest : public ::testing::Test {
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
    o.trace_start = kProfileStart;
    auto r = IngestFile(store_.get(), dir_.File(name), o);
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  const models::WindowResult* First() {
    CorrectionRequest req;
    req.vm = "WEB01";
    req.window = 20 * kNsPerSec;
    req.align = false;
    auto r = RunCorrection(store_.get(), req);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) return nullptr;
    results_ = std::move(*r);
    auto it = std::find_if(results_.begin(), results_.end(), [](const auto& w) { return w.start == kProfileStart; });
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

TEST_F(ProfileCorrectionTest, TheProfileIsTheBasisAndBeatsPerfmonsTicks) {
  Ingest("guest.csv", testing::GuestLog());
  const models::WindowResult* sampled = First();
  ASSERT_NE(sampled, nullptr);
  ASSERT_EQ(sampled->basis, models::Basis::kSamples);
  const models::ProcessResult* multi_ticks = Process(*sampled, "multi");
  ASSERT_TRUE(multi_ticks && multi_ticks->ci_lo && multi_ticks->ci_hi);
  const double ticks_width = *multi_ticks->ci_hi - *multi_ticks->ci_lo;

  Ingest("web01-sampled.csv", Profile(20));
  const models::WindowResult* r = First();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kProfile);
  EXPECT_STREQ(models::BasisName(r->basis), "profile");
  ASSERT_TRUE(r->guest_util_pct && r->host_util_pct && r->w);
  EXPECT_NEAR(*r->guest_util_pct, 40, 1e-6);  // the profile's, not Perfmon's 38%
  EXPECT_NEAR(*r->w, 1.25, 1e-6);
  EXPECT_EQ(r->vcpus, 5);
  EXPECT_EQ(Process(*r, "multi"), nullptr) << "Perfmon's instance is not the window's";
  for (const char* name : {"single:100", "multi:200"}) {
    const models::ProcessResult* p = Process(*r, name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_EQ(p->basis, models::Basis::kProfile);
    ASSERT_TRUE(p->guest_pct && p->corrected_pct && p->ci_lo && p->ci_hi) << name;
    EXPECT_NEAR(*p->guest_pct, 100, 1e-6) << name;
    EXPECT_NEAR(*p->corrected_pct, 125, 1e-6) << name;
    // The binomial error of 1,000 samples a second and CPU against 64 ticks: about 4 times narrower.
    const double width = *p->ci_hi - *p->ci_lo;
    EXPECT_GT(width, 0) << name << ": a profile is sampled, never exact";
    EXPECT_LT(width, ticks_width / 3) << name;
    // Perfmon's figure for the same process (name and ID Process) beside the profile's.
    ASSERT_TRUE(p->sampled_pct) << name;
  }
  EXPECT_NEAR(*Process(*r, "multi:200")->sampled_pct, 80, 1e-6);
  ASSERT_TRUE(r->sampled_guest_util_pct);
  EXPECT_NEAR(*r->sampled_guest_util_pct, 38, 1e-6);
}

TEST_F(ProfileCorrectionTest, AContextSwitchTraceOfTheSameWindowIsPreferred) {
  Ingest("web01-sampled.csv", Profile(20));
  const models::WindowResult* r = First();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kProfile);
  Ingest("web01.txt", testing::Trace(20));
  r = First();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kEvents);
  ASSERT_TRUE(r->w);
  EXPECT_NEAR(*r->w, 1.25, 1e-6);
}

}  // namespace
}  // namespace vrecon
