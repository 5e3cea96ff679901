// Alignment through the real binary: a generated guest Perfmon log whose clock runs ahead of the
// Hyper-V host's, ingested and corrected with and without --no-align.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <regex>

#include "src/core/time_util.h"
#include "tests/support/cli_runner.h"
#include "tests/support/step_load.h"

namespace vrecon {
namespace {

using testing::CliResult;
using testing::RunVrecon;
using testing::TempDir;
using testing::WriteText;

constexpr double kTrueW = 1.25;  // host run % / guest % Processor Time

// Local "MM/DD/YYYY HH:MM:SS.mmm" for a UTC time and a bias (UTC - local, minutes).
std::string Stamp(TimeNs utc, int bias_minutes) {
  const CivilTime c = CivilFromNs(utc - static_cast<TimeNs>(bias_minutes) * 60 * kNsPerSec);
  char b[40];
  std::snprintf(b, sizeof b, "%02d/%02d/%04d %02d:%02d:%02d.%03d", c.month, c.day, c.year, c.hour, c.minute, c.second,
                c.millis);
  return b;
}

// True utilization of the VM (host-measured %), one value per second from t0.
std::vector<double> Truth(int seconds, unsigned seed) { return vrecon::testing::StepLoad(seconds, seed, 20, 95); }

double Mean(const std::vector<double>& u, int a, int b) {
  double s = 0;
  for (int t = a; t < b; ++t) s += u[t];
  return s / (b - a);
}

// The guest samples every 15 s of real time; its row carries the guest clock's reading
// `guest_utc(true seconds)` written in local time with `bias(true seconds)`.
std::string GuestLog(const std::vector<double>& u, TimeNs t0, const std::string& zone, int first_bias,
                     const std::function<double(int)>& clock_ahead_s, const std::function<int(int)>& bias) {
  std::string s =
      "\"(PDH-CSV 4.0) (" + zone + ")(" + std::to_string(first_bias) +
      ")\",\"\\\\APP01\\Processor(0)\\% Processor Time\",\"\\\\APP01\\Processor(_Total)\\% Processor Time\","
      "\"\\\\APP01\\Process(A)\\% Processor Time\",\"\\\\APP01\\Process(B)\\% Processor Time\"\n";
  for (int t = 15; t <= static_cast<int>(u.size()); t += 15) {
    const double g = Mean(u, t - 15, t) / kTrueW;
    const TimeNs guest = t0 + static_cast<TimeNs>((t + clock_ahead_s(t)) * kNsPerSec);
    char row[200];
    std::snprintf(row, sizeof row, "\"%s\",\"%.4f\",\"%.4f\",\"%.4f\",\"%.4f\"\n", Stamp(guest, bias(t)).c_str(), g, g,
                  0.6 * g, 0.3 * g);
    s += row;
  }
  return s;
}

std::string HostLog(const std::vector<double>& u, TimeNs t0) {
  std::string s =
      "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\","
      "\"\\\\HV01\\Hyper-V Hypervisor Virtual Processor(APP01:Hv VP 0)\\% Total Run Time\"\n";
  for (int t = 20; t <= static_cast<int>(u.size()); t += 20) {
    char row[120];
    std::snprintf(row, sizeof row, "\"%s\",\"%.4f\"\n", Stamp(t0 + t * kNsPerSec, 0).c_str(), Mean(u, t - 20, t));
    s += row;
  }
  return s;
}

struct Window {
  std::string start, line;
  std::optional<double> w, offset;
};

// One JSON line per window (src/report/correction_report.cc writes them so).
std::vector<Window> Windows(const std::string& json) {
  std::vector<Window> out;
  const std::regex start("\"start\": \"([^\"]+)\""), w("\"w\": ([-0-9.e]+|null)"),
      off("\"clock_offset_s\": ([-0-9.e]+|null)");
  size_t from = 0;
  for (size_t nl; (nl = json.find('\n', from)) != std::string::npos; from = nl + 1) {
    const std::string line = json.substr(from, nl - from);
    std::smatch m;
    if (!std::regex_search(line, m, start)) continue;
    Window x{m[1], line, std::nullopt, std::nullopt};
    if (std::regex_search(line, m, w) && m[1] != "null") x.w = std::stod(m[1]);
    if (std::regex_search(line, m, off) && m[1] != "null") x.offset = std::stod(m[1]);
    out.push_back(x);
  }
  return out;
}

bool HasClockFlag(const std::string& line) {
  for (const char* c :
       {"interval-jitter", "\"gap\"", "clock-step", "dst-shift", "elapsed-mismatch", "alignment-unknown"})
    if (line.find(c) != std::string::npos) return true;
  return false;
}

CliResult Correct(const std::string& guest, const std::string& host, bool align) {
  std::vector<std::string> args{"correct", "--guest", guest, "--host", host, "--format", "json"};
  if (!align) args.push_back("--no-align");
  return RunVrecon(args);
}

TEST(AlignmentTest, GuestClockFortySecondsAheadIsAlignedAndReported) {
  TempDir dir;
  const TimeNs t0 = *ParseIso("2026-09-21T00:00:00Z");
  const std::vector<double> u = Truth(3 * 3600, 5);
  WriteText(dir.File("guest.csv"),
            GuestLog(
                u, t0, "Coordinated Universal Time", 0, [](int) { return 40.0; }, [](int) { return 0; }));
  WriteText(dir.File("host.csv"), HostLog(u, t0));

  CliResult a = Correct(dir.File("guest.csv"), dir.File("host.csv"), true);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  CliResult n = Correct(dir.File("guest.csv"), dir.File("host.csv"), false);
  ASSERT_EQ(n.exit_code, 0) << n.err;
  const std::vector<Window> aligned = Windows(a.out), raw = Windows(n.out);
  ASSERT_GE(aligned.size(), 36u);
  ASSERT_GE(raw.size(), 36u);

  // Inner windows only: the first and last are partly covered on one side.
  auto error = [](const std::vector<Window>& ws, int* flagged) {
    double sum = 0;
    int n = 0;
    for (size_t i = 1; i + 1 < ws.size(); ++i) {
      EXPECT_TRUE(ws[i].w.has_value()) << ws[i].line;
      if (!ws[i].w) continue;
      sum += std::abs(*ws[i].w - kTrueW);
      ++n;
      *flagged += HasClockFlag(ws[i].line);
    }
    return sum / n;
  };
  int flagged_aligned = 0, flagged_raw = 0;
  const double err_aligned = error(aligned, &flagged_aligned), err_raw = error(raw, &flagged_raw);
  EXPECT_LT(err_aligned, 0.01) << "mean |w - 1.25| with alignment";
  EXPECT_GT(err_raw, 0.03) << "mean |w - 1.25| without alignment";
  EXPECT_GT(err_raw, 4 * err_aligned);
  EXPECT_EQ(flagged_aligned, 0) << "calm data: no clock flag";
  EXPECT_EQ(flagged_raw, 0);
  for (size_t i = 1; i + 1 < aligned.size(); ++i) {
    ASSERT_TRUE(aligned[i].offset.has_value()) << aligned[i].line;
    EXPECT_NEAR(*aligned[i].offset, 40.0, 1.5) << aligned[i].start;
  }
  for (const Window& w : raw) EXPECT_FALSE(w.offset.has_value()) << "--no-align reports no offset: " << w.line;

  CliResult table = RunVrecon({"correct", "--guest", dir.File("guest.csv"), "--host", dir.File("host.csv")});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(std::regex_search(table.out, std::regex("guest clock \\+(39|40|41)\\.[0-9] s")))
      << table.out.substr(0, 600);
  CliResult csv =
      RunVrecon({"correct", "--guest", dir.File("guest.csv"), "--host", dir.File("host.csv"), "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_TRUE(csv.out.substr(0, csv.out.find('\n'))
                  .ends_with(",clock_offset_s,vm_key,present_s,host_counter,basis,bottleneck_pct,queue_ms_mean,queue_"
                             "ms_p95,sampled_pct,guest_utility_pct,host_sources,dpc_isr_pct,bias_ratio"));
  EXPECT_TRUE(std::regex_search(
      csv.out, std::regex(",(39|40|41)\\.[0-9]+,hyperv:[^,\n]+,[0-9.]*,% Total Run Time,samples,,,,,,,,\n")))
      << csv.out.substr(0, 600);
}

TEST(AlignmentTest, ResyncStepAndDstChangeAreFlaggedAndSplitTheEstimate) {
  TempDir dir;
  const TimeNs t0 = *ParseIso("2026-11-01T04:00:00Z");  // 00:00 EDT
  const std::vector<double> u = Truth(5 * 3600, 9);
  // The guest clock reads 06:00 UTC (02:00 EDT becomes 01:00 EST) at true 05:59:20, in the
  // host's window 05:55; the guest clock jumps 25 s ahead at true 07:31:30.
  const int dst_at = 2 * 3600 - 40;
  const int step_at = 3 * 3600 + 1800 + 90;
  auto ahead = [&](int t) { return t < step_at ? 40.0 : 65.0; };
  auto bias = [&](int t) { return t < dst_at ? 240 : 300; };
  WriteText(dir.File("guest.csv"), GuestLog(u, t0, "Eastern Daylight Time", 240, ahead, bias));
  WriteText(dir.File("host.csv"), HostLog(u, t0));
  CliResult c = Correct(dir.File("guest.csv"), dir.File("host.csv"), true);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const std::vector<Window> ws = Windows(c.out);
  int dst = 0, step = 0, flagged = 0;
  for (const Window& w : ws) {
    flagged += HasClockFlag(w.line);
    if (w.line.find("\"dst-shift\"") != std::string::npos) {
      ++dst;
      EXPECT_EQ(w.start, "2026-11-01T05:55:00Z");
    }
    if (w.line.find("\"clock-step\"") != std::string::npos) {
      ++step;
      EXPECT_EQ(w.start, "2026-11-01T07:30:00Z");
      EXPECT_NE(w.line.find("forward by 25.0 s"), std::string::npos) << w.line;
    }
    if (w.start == "2026-11-01T05:00:00Z" || w.start == "2026-11-01T09:00:00Z") {
      ASSERT_TRUE(w.offset.has_value()) << w.line;
      EXPECT_NEAR(*w.offset, w.start == "2026-11-01T05:00:00Z" ? 40.0 : 65.0, 1.5);
    }
    if (w.w && w.start != ws.front().start && w.start != ws.back().start) {
      EXPECT_NEAR(*w.w, kTrueW, 0.05) << w.line;
    }
  }
  EXPECT_EQ(dst, 1);
  EXPECT_EQ(step, 1);
  EXPECT_LE(flagged, 2) << "only the DST and the step windows carry clock flags";
}

// The guest clock set back 30 s: ingest skips the rows whose time is not after the last kept one
// (import issue time-backwards), so the stored spacing looks regular; the engine reads the step
// back from the issues.
TEST(AlignmentTest, ClockSetBackIsFlaggedFromTheSkippedRows) {
  TempDir dir;
  const TimeNs t0 = *ParseIso("2026-09-21T00:00:00Z");
  const std::vector<double> u = Truth(3 * 3600, 13);
  const int back_at = 5400 + 120;  // true 01:32:00
  WriteText(dir.File("guest.csv"), GuestLog(
                                       u, t0, "Coordinated Universal Time", 0,
                                       [&](int t) { return t < back_at ? 40.0 : 10.0; }, [](int) { return 0; }));
  WriteText(dir.File("host.csv"), HostLog(u, t0));
  CliResult c = Correct(dir.File("guest.csv"), dir.File("host.csv"), true);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  int steps = 0;
  for (const Window& w : Windows(c.out)) {
    if (w.line.find("\"clock-step\"") == std::string::npos) continue;
    ++steps;
    EXPECT_EQ(w.start, "2026-09-21T01:30:00Z");
    EXPECT_NE(w.line.find("backward by 30.0 s"), std::string::npos) << w.line;
  }
  EXPECT_EQ(steps, 1);
  for (const Window& w : Windows(c.out)) {
    if (w.start == "2026-09-21T00:30:00Z" || w.start == "2026-09-21T02:30:00Z") {
      ASSERT_TRUE(w.offset.has_value()) << w.line;
      EXPECT_NEAR(*w.offset, w.start == "2026-09-21T00:30:00Z" ? 40.0 : 10.0, 1.5);
    }
  }
}

}  // namespace
}  // namespace vrecon
