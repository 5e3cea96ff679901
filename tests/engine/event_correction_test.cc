// `vrecon correct` on an ETW trace (models/event_correction.h) through a real store: seed 002's
// two processes with the same CPU, one bound by a single thread, on a 5-vCPU Hyper-V guest.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "src/engine/correction_job.h"
#include "src/ingest/ingest_file.h"
#include "tests/support/cli_runner.h"
#include "tests/support/seed002_trace.h"

namespace vrecon {
namespace {

using testing::GuestLog;
using testing::HostLog;
using testing::TempDir;
using testing::Trace;
using testing::WriteText;

const TimeNs k1000 = ParseIso("2026-11-02T10:00:00Z").value();

class EventCorrectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Open("store.db");
    Ingest("host.csv", HostLog(), "");
    Ingest("web01.txt", Trace(60), "WEB01");
  }
  // The store `name` in the test's directory, empty at first: a test that writes its own trace opens one.
  void Open(const std::string& name) {
    auto opened = Store::Open(dir_.File(name));
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    store_ = std::move(opened).value();
  }
  void Ingest(const std::string& name, const std::string& text, const std::string& machine) {
    WriteText(dir_.File(name), text);
    IngestOptions o;
    o.machine = machine;
    auto r = IngestFile(store_.get(), dir_.File(name), o);
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  std::vector<models::WindowResult> Correct(TimeNs window, bool align = false, bool calibrate_bias = false) {
    CorrectionRequest req;
    req.vm = "WEB01";
    req.window = window;
    req.align = align;
    req.bias.calibrate = calibrate_bias;
    auto r = RunCorrection(store_.get(), req);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : std::vector<models::WindowResult>{};
  }
  static const models::WindowResult* At(const std::vector<models::WindowResult>& rs, TimeNs start) {
    auto it = std::find_if(rs.begin(), rs.end(), [&](const auto& r) { return r.start == start; });
    return it == rs.end() ? nullptr : &*it;
  }
  static const models::ProcessResult* Process(const models::WindowResult& r, const std::string& name) {
    auto it = std::find_if(r.processes.begin(), r.processes.end(), [&](const auto& p) { return p.name == name; });
    return it == r.processes.end() ? nullptr : &*it;
  }
  static bool HasFlag(const models::WindowResult& r, const std::string& code) {
    return std::any_of(r.flags.begin(), r.flags.end(), [&](const auto& f) { return f.code == code; });
  }

  TempDir dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(EventCorrectionTest, SameCpuOneThreadBoundCorrectedFromTheEvents) {
  const auto rs = Correct(60 * kNsPerSec);
  const models::WindowResult* r = At(rs, k1000);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kEvents);
  ASSERT_TRUE(r->guest_util_pct && r->host_util_pct && r->w);
  EXPECT_NEAR(*r->guest_util_pct, 40, 1e-6);
  EXPECT_NEAR(*r->host_util_pct, 50, 1e-6);
  EXPECT_NEAR(*r->w, 1.25, 1e-6);
  EXPECT_EQ(r->vcpus, 5);
  EXPECT_FALSE(r->dpc_isr_pct) << "a trace recorded without DPC and INTERRUPT: unknown, not zero";
  const models::ProcessResult* single = Process(*r, "single:100");
  const models::ProcessResult* multi = Process(*r, "multi:200");
  ASSERT_NE(single, nullptr);
  ASSERT_NE(multi, nullptr);
  for (const models::ProcessResult* p : {single, multi}) {
    EXPECT_EQ(p->basis, models::Basis::kEvents);
    ASSERT_TRUE(p->guest_pct && p->corrected_pct && p->ci_lo && p->ci_hi) << p->name;
    // The same heater ratio ...
    EXPECT_NEAR(*p->guest_pct, 100, 1e-6) << p->name;
    EXPECT_NEAR(*p->corrected_pct, 125, 1e-6) << p->name;
    // ... and no tick-sampling error: the host's 20 s samples fit the window, so w is exact too.
    EXPECT_LT(*p->ci_hi - *p->ci_lo, 0.01) << p->name;
  }
  // ... but very different bottleneck ratios (seed 002).
  ASSERT_TRUE(single->bottleneck_pct && multi->bottleneck_pct);
  EXPECT_NEAR(*single->bottleneck_pct, 100, 1e-6);
  EXPECT_NEAR(*multi->bottleneck_pct, 25, 1e-6);
  // Each of multi.exe's switch-ins waited 10 ms; single.exe's thread never queued.
  ASSERT_TRUE(multi->queue_ms_mean && multi->queue_ms_p95);
  EXPECT_NEAR(*multi->queue_ms_mean, 10, 1e-6);
  EXPECT_NEAR(*multi->queue_ms_p95, 10, 0.2);
  EXPECT_FALSE(single->queue_ms_mean);
}

TEST_F(EventCorrectionTest, PerfmonOfTheSameGuestIsComparedProcessByProcess) {
  Ingest("guest.csv", GuestLog(), "");
  const auto rs = Correct(60 * kNsPerSec);
  const models::WindowResult* r = At(rs, k1000);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kEvents);
  ASSERT_TRUE(r->w && r->sampled_guest_util_pct);
  EXPECT_NEAR(*r->w, 1.25, 1e-6);  // from the events' 40%, not Perfmon's 38%
  EXPECT_NEAR(*r->sampled_guest_util_pct, 38, 1e-6);
  const models::ProcessResult* single = Process(*r, "single:100");
  const models::ProcessResult* multi = Process(*r, "multi:200");
  ASSERT_TRUE(single && multi);
  ASSERT_TRUE(single->sampled_pct && multi->sampled_pct);
  EXPECT_NEAR(*single->sampled_pct, 100, 1e-6);
  EXPECT_NEAR(*multi->sampled_pct, 80, 1e-6);
  auto flag = std::find_if(r->flags.begin(), r->flags.end(), [](auto& f) { return f.code == "sampled-vs-events"; });
  ASSERT_NE(flag, r->flags.end());
  EXPECT_NE(flag->message.find("multi:200 sampled 80.0%, events 100.0%"), std::string::npos) << flag->message;
  EXPECT_NE(flag->message.find("guest total sampled 38.0%, events 40.0%"), std::string::npos) << flag->message;
}

TEST_F(EventCorrectionTest, AWindowTheTracePartlyCoversIsCorrectedFromPerfmon) {
  Ingest("guest.csv", GuestLog(), "");
  const auto rs = Correct(300 * kNsPerSec);
  const models::WindowResult* r = At(rs, k1000);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kSamples);
  ASSERT_TRUE(r->w);
  EXPECT_NEAR(*r->w, 50.0 / 38.0, 1e-6);
  EXPECT_TRUE(HasFlag(*r, "events-partial"));
  ASSERT_NE(Process(*r, "multi"), nullptr);
  EXPECT_EQ(Process(*r, "multi")->basis, models::Basis::kSamples);
  EXPECT_EQ(Process(*r, "multi:200"), nullptr);
}

TEST_F(EventCorrectionTest, ATraceAloneIsCorrectedWhateverItCovers) {
  // No Perfmon: the 300 s window has the trace's 60 s only, and the host's mean over them.
  const auto rs = Correct(300 * kNsPerSec, /*align=*/true);
  const models::WindowResult* r = At(rs, k1000);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kEvents);
  ASSERT_TRUE(r->w);
  EXPECT_NEAR(*r->w, 1.25, 1e-6);
  EXPECT_TRUE(HasFlag(*r, "low-coverage"));
  EXPECT_FALSE(HasFlag(*r, "missing-guest"));
}

// Seed 002's trace with DPC and interrupt events: each second a 10 ms DPC interrupts single.exe
// on CPU 0 and a 5 ms interrupt runs on CPU 3 while it idles. The DPC is not single.exe's (99% of
// one CPU, not 100), both are the guest's busy time (CPU 3 busy 25.5%), and the window says how
// much they took: (1% + 0.5%) / 5 vCPUs.
std::string WithDeferred(const std::string& trace, int seconds) {
  std::vector<std::pair<int64_t, std::string>> events;
  for (int64_t k = 0; k < seconds; ++k) {
    const int64_t dpc = k * testing::kSecUs + 500'000, isr = k * testing::kSecUs + 600'000;
    events.emplace_back(dpc,
                        "DPC, " + std::to_string(dpc) + ", 10000, 0, 0xfffff80345671234, ndis.sys!ndisInterruptDpc");
    events.emplace_back(isr, "Interrupt, " + std::to_string(isr) +
                                 ", 5000, 3, 0x00000000000000a0, 0, 0x00000001, 0xfffff80345679999, storport.sys!Isr");
  }
  std::string out;
  size_t next = 0;
  bool events_begun = false, header_done = false;
  std::istringstream lines(trace);
  for (std::string line; std::getline(lines, line);) {
    if (line == "EndHeader") {
      header_done = true;
      out +=
          "DPC,  TimeStamp, ElapsedTime, CPU, ServiceAddr, Image!Function\n"
          "Interrupt,  TimeStamp, ElapsedTime, CPU, Vector, MessageIndex, Status, ServiceAddr, Image!Function\n";
    }
    if (header_done && (line.starts_with("CSwitch,") || line.starts_with("ReadyThread,"))) {
      events_begun = true;
      const int64_t t = std::stoll(line.substr(line.find(',') + 1));
      for (; next < events.size() && events[next].first < t; ++next) out += events[next].second + "\n";
    }
    if (!line.empty()) out += line + "\n";
  }
  EXPECT_TRUE(events_begun);
  for (; next < events.size(); ++next) out += events[next].second + "\n";
  return out;
}

TEST_F(EventCorrectionTest, DpcAndInterruptTimeIsTheGuestsButNoProcesss) {
  Open("dpc.db");
  Ingest("host.csv", HostLog(), "");
  Ingest("web01-dpc.txt", WithDeferred(Trace(60), 60), "WEB01");
  const auto rs = Correct(60 * kNsPerSec);
  const models::WindowResult* r = At(rs, k1000);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->basis, models::Basis::kEvents);
  ASSERT_TRUE(r->guest_util_pct && r->dpc_isr_pct);
  EXPECT_NEAR(*r->guest_util_pct, 40.1, 1e-6);
  EXPECT_NEAR(*r->dpc_isr_pct, 0.3, 1e-6);
  const models::ProcessResult* single = Process(*r, "single:100");
  ASSERT_NE(single, nullptr);
  ASSERT_TRUE(single->guest_pct);
  EXPECT_NEAR(*single->guest_pct, 99, 1e-6);
}

// Seed 002's Perfmon log reads multi.exe at 80% of one CPU where its context switches say 100%
// (single.exe 100% both ways): over the trace's eight 15 s windows a ratio of 1.25 for multi. The
// windows after the trace, Perfmon's alone, are flagged sampling-bias for multi only, and with
// calibration they give what the trace's windows give.
TEST_F(EventCorrectionTest, SamplingBiasMeasuredWhereBothCoverIsFlaggedAndCalibratedWhereOnlyPerfmonDoes) {
  Open("bias.db");
  Ingest("host.csv", HostLog(), "");
  Ingest("guest.csv", GuestLog(), "");
  Ingest("web01-120.txt", Trace(120), "WEB01");
  constexpr TimeNs kWindow = 15 * kNsPerSec;
  const auto rs = Correct(kWindow);
  const models::WindowResult* during = At(rs, k1000 + 30 * kNsPerSec);
  const models::WindowResult* after = At(rs, k1000 + 150 * kNsPerSec);
  ASSERT_TRUE(during && after);
  EXPECT_EQ(during->basis, models::Basis::kEvents);
  EXPECT_FALSE(HasFlag(*during, "sampling-bias"));
  ASSERT_EQ(after->basis, models::Basis::kSamples);
  auto flag = std::find_if(after->flags.begin(), after->flags.end(), [](auto& f) { return f.code == "sampling-bias"; });
  ASSERT_NE(flag, after->flags.end());
  EXPECT_EQ(flag->severity, Severity::kWarning);
  EXPECT_NE(flag->message.find("multi: ETW context switches measured 1.25x Perfmon's figure (95% interval 1.25-1.25, "
                               "8 windows with both"),
            std::string::npos)
      << flag->message;
  EXPECT_EQ(flag->message.find("single"), std::string::npos) << flag->message;
  const models::ProcessResult* multi = Process(*after, "multi");
  ASSERT_TRUE(multi && multi->corrected_pct && after->w);
  EXPECT_NEAR(*multi->corrected_pct, 80 * *after->w, 1e-6);
  EXPECT_FALSE(multi->bias_ratio);

  const auto calibrated = Correct(kWindow, false, true);
  const models::WindowResult* c = At(calibrated, k1000 + 150 * kNsPerSec);
  ASSERT_NE(c, nullptr);
  const models::ProcessResult* cm = Process(*c, "multi");
  ASSERT_TRUE(cm && cm->corrected_pct && cm->ci_lo && cm->ci_hi && cm->bias_ratio);
  // As the trace's windows give it: multi x 1.25, and w over the guest total as 100 less
  // Perfmon's idle (62%) x idle's ratio (60 / 62): 40%, the trace's, so w is 50 / 40.
  EXPECT_NEAR(*cm->bias_ratio, 1.25 * 38 / 40, 1e-9);
  EXPECT_NEAR(*cm->corrected_pct, 125, 1e-6);
  ASSERT_TRUE(c->w);
  EXPECT_NEAR(*c->w, 1.25, 1e-9);
  EXPECT_LE(*cm->ci_lo, *cm->corrected_pct);
  EXPECT_GE(*cm->ci_hi, *cm->corrected_pct);
  EXPECT_NEAR(*Process(*c, "single")->corrected_pct, 125, 1e-6);  // not flagged: Perfmon's x the new w
  auto cflag = std::find_if(c->flags.begin(), c->flags.end(), [](auto& f) { return f.code == "sampling-bias"; });
  ASSERT_NE(cflag, c->flags.end());
  EXPECT_EQ(cflag->severity, Severity::kInfo);
}

}  // namespace
}  // namespace vrecon
