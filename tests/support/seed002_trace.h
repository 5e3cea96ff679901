// Seed 002's case as files for tests of event-based correction: an xperf dumper trace of a 5-vCPU
// guest WEB01 from 2026-11-02T10:00:00Z, the Hyper-V host's log of its VM and a Perfmon log of the
// same guest (tests/support/xperf_text.h, pdh_log.h).
#ifndef VRECON_TESTS_SUPPORT_SEED002_TRACE_H_
#define VRECON_TESTS_SUPPORT_SEED002_TRACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tests/support/pdh_log.h"
#include "tests/support/xperf_text.h"

namespace vrecon::testing {

inline constexpr int64_t kSecUs = 1'000'000;
// `seconds` from 10:00:00 UTC on 5 CPUs: single.exe's one thread runs all the time on CPU 0;
// multi.exe's four threads run together on CPUs 1-4 for the first 250 ms of each second, each
// readied 10 ms before it is switched in (from the second second on). Both use one CPU's worth (100%); the
// guest is 40% busy; single.exe's bottleneck is 100%, multi.exe's 25%.
inline std::string Trace(int seconds) {
  std::vector<ThreadRun> runs{{0, 0, seconds * kSecUs, "single.exe", 100, 101, -1}};
  runs.reserve(1 + 4 * static_cast<size_t>(seconds));
  for (int64_t k = 0; k < seconds; ++k)
    for (int t = 0; t < 4; ++t)
      runs.push_back({1 + t, k * kSecUs, k * kSecUs + 250'000, "multi.exe", 200, static_cast<uint32_t>(201 + t),
                      k > 0 ? k * kSecUs - 10'000 : -1});
  return XperfText(runs);
}

// Hyper-V says each of the 5 VPs ran 50% of the time from 10:00 to 10:05.
inline std::string HostLog() {
  std::vector<std::string> paths;
  paths.reserve(5);
  for (int vp = 0; vp < 5; ++vp)
    paths.push_back("\\\\HV01\\Hyper-V Hypervisor Virtual Processor(WEB01:Hv VP " + std::to_string(vp) +
                    ")\\% Total Run Time");
  std::string out = PdhHeader(paths) + PdhRow(0, std::vector<std::string>(5, " "));
  for (int s = 20; s <= 300; s += 20) out += PdhRow(s, std::vector<std::string>(5, "50"));
  return out;
}

// Perfmon in the same guest over 10:00-10:05, every 15 s: the total reads 38%, single.exe 100%
// and multi.exe 80% of one CPU.
inline std::string GuestLog() {
  std::string out = PdhHeader({"\\\\WEB01\\Processor(_Total)\\% Processor Time",
                               "\\\\WEB01\\Process(single)\\% Processor Time", "\\\\WEB01\\Process(single)\\ID Process",
                               "\\\\WEB01\\Process(multi)\\% Processor Time", "\\\\WEB01\\Process(multi)\\ID Process"});
  out += PdhRow(0, {" ", " ", "100", " ", "200"});
  for (int s = 15; s <= 300; s += 15) out += PdhRow(s, {"38", "100", "100", "80", "200"});
  return out;
}

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_SEED002_TRACE_H_
