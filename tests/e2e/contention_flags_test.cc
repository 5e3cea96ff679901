// Hyper-V's counterpart of high ready in `vrecon correct` (issue 14, part 3), through the binary.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/pdh_log.h"

namespace vrecon::testing {
namespace {

TEST(ContentionFlagsTest, HyperVWaitPerDispatchIsFlaggedPerWindow) {
  TempDir dir;
  const std::string vp = "\\\\HV1\\Hyper-V Hypervisor Virtual Processor(VM1:Hv VP 0)\\";
  std::string guest =
      PdhHeader({"\\\\VM1\\Processor(0)\\% Processor Time", "\\\\VM1\\Processor(_Total)\\% Processor Time"});
  std::string host = PdhHeader({vp + "% Total Run Time", vp + "CPU Wait Time Per Dispatch"});
  // Two windows: 10:00-10:05 waits 250 us per dispatch (ns in the counter), 10:05-10:10 20 us.
  for (int s = 0; s <= 600; s += 15) {
    guest += PdhRow(s, {"90", "90"});
    host += PdhRow(s, {"40", s <= 300 ? "250000" : "20000"});
  }
  WriteText(dir.File("guest.csv"), guest);
  WriteText(dir.File("host.csv"), host);
  CliResult r = RunVrecon(
      {"correct", "--guest", dir.File("guest.csv"), "--host", dir.File("host.csv"), "--no-align", "--format", "csv"});
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
