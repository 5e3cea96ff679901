// Window arithmetic through the real binary (issue 14): a process that exits inside a window
// (Perfmon writes blank cells for it afterwards), a window shorter than the host's samples.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/pdh_log.h"

namespace vrecon::testing {
namespace {

// 1-vCPU guest, 15 s samples over 10:00-10:05 UTC: _Total 60%, Process(batch) 50% for the first
// 60 s then blank; the Hyper-V host ran the VP at 72% (w = 1.2).
const std::vector<std::string> kGuestCpu = {"\\\\VM1\\Processor(0)\\% Processor Time",
                                            "\\\\VM1\\Processor(_Total)\\% Processor Time"};
const std::string kHostVp = "\\\\HV1\\Hyper-V Hypervisor Virtual Processor(VM1:Hv VP 0)\\% Total Run Time";

void WriteLogs(const TempDir& dir) {
  std::vector<std::string> paths = kGuestCpu;
  paths.push_back("\\\\VM1\\Process(batch)\\% Processor Time");
  std::string guest = PdhHeader(paths), host = PdhHeader({kHostVp});
  for (int s = 0; s <= 300; s += 15) {
    guest += PdhRow(s, {"60", "60", s <= 60 ? "50" : " "});
    host += PdhRow(s, {"72"});
  }
  WriteText(dir.File("guest.csv"), guest);
  WriteText(dir.File("host.csv"), host);
}

TEST(PartialProcessTest, AProcessThatExitsIsItsCpuOverTheWholeWindow) {
  TempDir dir;
  WriteLogs(dir);
  CliResult r = RunVrecon(
      {"correct", "--guest", dir.File("guest.csv"), "--host", dir.File("host.csv"), "--no-align", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("{\"name\": \"batch\", \"guest_pct\": 10, \"corrected_pct\": 12, \"ci95\": ["),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"present_s\": 60, \"basis\": \"samples\""), std::string::npos) << r.out;
  CliResult t = RunVrecon({"correct", "--guest", dir.File("guest.csv"), "--host", dir.File("host.csv"), "--no-align"});
  EXPECT_NE(t.out.find("batch *"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("existed for part of the window"), std::string::npos);
}

// `--window 60` against a host sampled every 300 s: each minute's w would divide one 5-minute
// host value by that minute's guest figure.
TEST(WindowArithmeticTest, AWindowShorterThanTheHostsSamplesIsFlagged) {
  TempDir dir;
  std::string guest = PdhHeader(kGuestCpu), host = PdhHeader({kHostVp});
  for (int s = 0; s <= 600; s += 15) {
    const std::string busy = s % 300 < 60 ? "90" : "40";
    guest += PdhRow(s, {busy, busy});
    if (s % 300 == 0) host += PdhRow(s, {"60"});
  }
  WriteText(dir.File("guest.csv"), guest);
  WriteText(dir.File("host.csv"), host);
  auto run = [&](const char* window) {
    return RunVrecon({"correct", "--guest", dir.File("guest.csv"), "--host", dir.File("host.csv"), "--no-align",
                      "--window", window, "--format", "json"});
  };
  CliResult minute = run("60");
  ASSERT_EQ(minute.exit_code, 0) << minute.err;
  EXPECT_NE(minute.out.find("\"code\": \"host-coarser-than-window\""), std::string::npos) << minute.out.substr(0, 1500);
  EXPECT_NE(minute.out.find("every 300 s, longer than this 60 s window"), std::string::npos);
  CliResult five = run("300");
  ASSERT_EQ(five.exit_code, 0) << five.err;
  EXPECT_EQ(five.out.find("host-coarser-than-window"), std::string::npos) << five.out.substr(0, 1500);
}

// A reboot inside a window: the guest logged 10:00-10:02 (40% of the window) at 73% and nothing
// while it rebooted; the host ran the VP at 88% while the guest logged and at 100% during the boot.
// w compares the same seconds: 88 / 73 = 1.2055, not the whole window's 95.2 / 73 = 1.304.
TEST(WindowArithmeticTest, WComparesHostAndGuestOverTheSameSeconds) {
  TempDir dir;
  std::string guest = PdhHeader(kGuestCpu), host = PdhHeader({kHostVp});
  for (int s = 0; s <= 300; s += 15) {
    if (s <= 120) guest += PdhRow(s, {"73", "73"});  // then the VM rebooted: the log ends
    host += PdhRow(s, {s <= 120 ? "88" : "100"});
  }
  WriteText(dir.File("guest.csv"), guest);
  WriteText(dir.File("host.csv"), host);
  CliResult r = RunVrecon(
      {"correct", "--guest", dir.File("guest.csv"), "--host", dir.File("host.csv"), "--no-align", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t first = r.out.find("\"start\": \"2026-11-02T10:00:00Z\"");
  ASSERT_NE(first, std::string::npos) << r.out;
  const std::string window = r.out.substr(first, r.out.find('\n', first) - first);
  EXPECT_NE(window.find("\"host_util_pct\": 88,"), std::string::npos) << window;
  EXPECT_NE(window.find("\"w\": 1.205479452054794"), std::string::npos) << window;
  EXPECT_NE(window.find("compares the host's figure over those same seconds"), std::string::npos) << window;
}

// A reboot between two guest logs (the logger stops, a new log starts after boot): the guest's
// System Up Time starts again, so the silence is flagged guest-restart, not gap or clock-step.
TEST(WindowArithmeticTest, ARebootIsAGuestRestartNotAClockStep) {
  TempDir dir;
  std::vector<std::string> paths = kGuestCpu;
  paths.push_back("\\\\VM1\\System\\System Up Time");
  std::string before = PdhHeader(paths), after = PdhHeader(paths), host = PdhHeader({kHostVp});
  for (int s = 0; s <= 130; s += 10) before += PdhRow(s, {"50", "50", std::to_string(86400 + s)});
  // Booted at 10:04:00; the new log's first row is at 10:05:00 (uptime 60 s).
  for (int s = 300; s <= 600; s += 10)
    after += PdhRow(s, {s == 300 ? " " : "50", s == 300 ? " " : "50", std::to_string(s - 240)});
  for (int s = 0; s <= 600; s += 20) host += PdhRow(s, {"60"});
  WriteText(dir.File("a.csv"), before);
  WriteText(dir.File("b.csv"), after);
  WriteText(dir.File("host.csv"), host);
  CliResult r = RunVrecon({"correct", "--guest", dir.File("a.csv"), "--guest", dir.File("b.csv"), "--host",
                           dir.File("host.csv"), "--no-align", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("guest-restart"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("clock-step"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(";gap"), std::string::npos) << r.out;
  CliResult json = RunVrecon({"correct", "--guest", dir.File("a.csv"), "--guest", dir.File("b.csv"), "--host",
                              dir.File("host.csv"), "--no-align", "--format", "json"});
  EXPECT_NE(json.out.find("the guest restarted at 10:04:00 UTC"), std::string::npos) << json.out.substr(0, 2000);
  EXPECT_EQ(json.out.find("\"code\": \"gap\""), std::string::npos);
  EXPECT_EQ(json.out.find("\"code\": \"clock-step\""), std::string::npos);
}

}  // namespace
}  // namespace vrecon::testing
