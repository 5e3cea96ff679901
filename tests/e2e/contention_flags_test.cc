// Hyper-V's counterpart of high ready in `vrecon correct` (issue 14, part 3), through the binary.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

TEST(ContentionFlagsTest, HyperVWaitPerDispatchIsFlaggedPerWindow) {
  TempDir dir;
  std::string guest = "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\VM1\\Processor(0)\\% Processor Time\","
                      "\"\\\\VM1\\Processor(_Total)\\% Processor Time\"\r\n";
  std::string host = "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\","
                     "\"\\\\HV1\\Hyper-V Hypervisor Virtual Processor(VM1:Hv VP 0)\\% Total Run Time\","
                     "\"\\\\HV1\\Hyper-V Hypervisor Virtual Processor(VM1:Hv VP 0)\\CPU Wait Time Per Dispatch\"\r\n";
  // Two windows: 10:00-10:05 waits 250 us per dispatch (ns in the counter), 10:05-10:10 20 us.
  for (int s = 0; s <= 600; s += 15) {
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "\"11/02/2026 10:%02d:%02d.000\"", s / 60, s % 60);
    guest += std::string(stamp) + ",\"90\",\"90\"\r\n";
    host += std::string(stamp) + ",\"40\"," + (s <= 300 ? "\"250000\"" : "\"20000\"") + "\r\n";
  }
  WriteText(dir.File("guest.csv"), guest);
  WriteText(dir.File("host.csv"), host);
  CliResult r = RunVrecon({"correct", "--guest", dir.File("guest.csv"), "--host", dir.File("host.csv"), "--no-align",
                           "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t first = r.out.find("\nVM1,2026-11-02T10:00:00Z");
  const size_t second = r.out.find("\nVM1,2026-11-02T10:05:00Z");
  ASSERT_NE(first, std::string::npos) << r.out;
  ASSERT_NE(second, std::string::npos) << r.out;
  EXPECT_NE(r.out.substr(first, second - first).find("high-dispatch-wait"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(second).find("high-dispatch-wait"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace vrecon::testing
