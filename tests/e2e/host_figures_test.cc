// Like-for-like host figures (issue 39 part 2), through the binary. --esxtop-counter: an esxtop
// capture whose group % Used is % Run x 1.25 (turbo) plus % System, beside a guest log of the VM;
// % Used stays the default, % Run gives w against time, and either way the window says the two
// differ (frequency-scaled). VMware Tools' VM Processor(_Total): read as its vCPUs' mean unless
// the log shows it is their sum.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/pdh_log.h"

namespace vrecon::testing {
namespace {

// 10:00 to 10:10, every 20 s: two vCPUs 60% running (% Run 120), % System 4, % Used at 1.25 x run.
std::string Esxtop() {
  const std::string g = "\\\\esx01\\Group Cpu(4242:WEB01)\\";
  std::string out = PdhHeader({g + "% Used", g + "% Run", g + "% System", g + "% Ready"});
  for (int s = 0; s <= 600; s += 20) out += PdhRow(s, {"154", "120", "4", "2"});
  return out;
}

// The guest: two processors 50% busy, one process 30% of one; Processor Information's utility 65%
// (a clock 30% above nominal, as Task Manager's Processes tab would show it).
std::string Guest() {
  std::string out =
      PdhHeader({"\\\\WEB01\\Processor(0)\\% Processor Time", "\\\\WEB01\\Processor(1)\\% Processor Time",
                 "\\\\WEB01\\Processor(_Total)\\% Processor Time", "\\\\WEB01\\Process(app)\\% Processor Time",
                 "\\\\WEB01\\Processor Information(_Total)\\% Processor Utility"});
  for (int s = 0; s <= 600; s += 15) out += PdhRow(s, {"50", "50", "50", "30", "65"});
  return out;
}

class HostFiguresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteText(dir_.File("esxtop.csv"), Esxtop());
    WriteText(dir_.File("guest.csv"), Guest());
    CliResult r = RunVrecon({"ingest", "--db", db_, dir_.File("esxtop.csv"), dir_.File("guest.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  // The first full window's CSV row (10:05 to 10:10) of `vrecon correct` with `args`.
  std::string SecondWindow(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"correct", "--db", db_, "--format", "csv"};
    all.insert(all.end(), args.begin(), args.end());
    CliResult r = RunVrecon(all);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const size_t at = r.out.find("2026-11-02T10:05:00");
    if (at == std::string::npos) {
      ADD_FAILURE() << r.out;
      return "";
    }
    const size_t begin = r.out.rfind('\n', at) + 1;
    return r.out.substr(begin, r.out.find('\n', at) - begin);
  }
  TempDir dir_;
  const std::string db_ = dir_.File("esx.db");
};

TEST_F(HostFiguresTest, EsxtopUsedIsTheDefaultAndRunIsTimeAgainstTime) {
  // % Used: (154 / 2) / 50 = 1.54; the clock's gain and % System are in it.
  const std::string used = SecondWindow({});
  EXPECT_NE(used.find(",77,1.54,"), std::string::npos) << used;
  EXPECT_NE(used.find(",% Used,"), std::string::npos) << used;
  EXPECT_NE(used.find("frequency-scaled"), std::string::npos) << used;
  // % Run: (120 / 2) / 50 = 1.2.
  const std::string run = SecondWindow({"--esxtop-counter", "run"});
  EXPECT_NE(run.find(",60,1.2,"), std::string::npos) << run;
  EXPECT_NE(run.find(",% Run,"), std::string::npos) << run;
  EXPECT_NE(run.find("frequency-scaled"), std::string::npos) << run;
  EXPECT_EQ(RunVrecon({"correct", "--db", db_, "--esxtop-counter", "usage"}).exit_code, 2);
}

// Processor Information's % Processor Utility is given beside the guest's time, never divided by
// w: JSON `guest_utility_pct`, the CSV's column of that name (before host_sources, empty for a
// VM one host-side source sees, dpc_isr_pct, empty without a trace, and bias_ratio), the table's guest line; w stays
// time over time (50%), and `vrecon counters` types it frequency-scaled.
TEST_F(HostFiguresTest, ProcessorUtilityIsReportedBesideTimeAndNeverCorrected) {
  const std::string row = SecondWindow({"--esxtop-counter", "run"});
  EXPECT_NE(row.find(",60,1.2,"), std::string::npos) << row;
  EXPECT_TRUE(row.ends_with(",65,,,")) << row;
  CliResult json = RunVrecon({"correct", "--db", db_, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"guest_util_pct\": 50,"), std::string::npos) << json.out.substr(0, 400);
  EXPECT_NE(
      json.out.find("\"guest_utility_pct\": 65, \"host_sources\": [], \"dpc_isr_pct\": null, \"other_bases\": []}"),
      std::string::npos)
      << json.out.substr(0, 2000);
  CliResult table = RunVrecon({"correct", "--db", db_});
  EXPECT_NE(table.out.find("guest 50.0% (utility 65.0%)"), std::string::npos) << table.out.substr(0, 600);
  CliResult counters = RunVrecon({"counters", "--db", db_, "--vm", "WEB01", "--format", "csv"});
  ASSERT_EQ(counters.exit_code, 0) << counters.err;
  EXPECT_NE(counters.out.find("% Processor Utility"), std::string::npos) << counters.out.substr(0, 600);
  EXPECT_NE(counters.out.find("frequency-scaled"), std::string::npos) << counters.out.substr(0, 600);
}

// The stored corrections keep it (window block version 2): `vrecon report` gives it as the window
// rows' last CSV column and each JSON window's last field, and its mean over the VM's windows on
// the vm row, in the JSON summary and on the HTML section's summary line.
TEST_F(HostFiguresTest, ProcessorUtilityIsStoredAndReported) {
  CliResult csv = RunVrecon({"report", "--db", db_, "--format", "csv", "--out", dir_.File("r.csv")});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const std::string text = ReadText(dir_.File("r.csv"));
  EXPECT_NE(text.substr(0, text.find('\n')).find(",cores_per_30d,guest_utility_pct"), std::string::npos);
  const size_t at = text.find("window,WEB01,,,,2026-11-02T10:05:00");
  ASSERT_NE(at, std::string::npos) << text.substr(0, 2000);
  const std::string row = text.substr(at, text.find('\n', at) - at);
  EXPECT_EQ(row.substr(row.rfind(',') + 1), "65") << row;
  const size_t vm_at = text.find("\nvm,WEB01,");
  ASSERT_NE(vm_at, std::string::npos) << text.substr(0, 2000);
  const std::string vm_row = text.substr(vm_at + 1, text.find('\n', vm_at + 1) - vm_at - 1);
  EXPECT_EQ(vm_row.substr(vm_row.rfind(',') + 1), "65") << vm_row;
  CliResult json = RunVrecon({"report", "--db", db_, "--format", "json", "--out", dir_.File("r.json")});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const std::string json_text = ReadText(dir_.File("r.json"));
  EXPECT_NE(json_text.find("], \"guest_utility_pct\": 65}"), std::string::npos);
  EXPECT_NE(json_text.find(", \"guest_utility_pct\": 65},\n   \"processes\": ["), std::string::npos)
      << json_text.substr(0, 1500);
  CliResult html = RunVrecon({"report", "--db", db_, "--format", "html", "--out", dir_.File("r.html")});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(ReadText(dir_.File("r.html")).find("&middot; guest 50.0% (utility 65.0%) vs real"), std::string::npos);
}

// A guest log with VMware Tools' counters whose _Total is the sum of its two vCPUs (140 = 70 +
// 70) is read as 70% of the VM, with the window saying why.
TEST(VmToolsScaleTest, ATotalThatIsTheSumOfItsVcpusIsReadAsTheSum) {
  TempDir dir;
  const std::string db = dir.File("tools.db");
  std::string log =
      PdhHeader({"\\\\DB01\\Processor(0)\\% Processor Time", "\\\\DB01\\Processor(1)\\% Processor Time",
                 "\\\\DB01\\Processor(_Total)\\% Processor Time", "\\\\DB01\\VM Processor(0)\\% Processor Time",
                 "\\\\DB01\\VM Processor(1)\\% Processor Time", "\\\\DB01\\VM Processor(_Total)\\% Processor Time"});
  for (int s = 0; s <= 600; s += 15) log += PdhRow(s, {"56", "56", "56", "70", "70", "140"});
  WriteText(dir.File("db01.csv"), log);
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir.File("db01.csv")}).exit_code, 0);
  CliResult r = RunVrecon({"correct", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"host_util_pct\": 70"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("vm-processor-scale"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"host_counter\": \"VM Processor(_Total)\\\\% Processor Time\""), std::string::npos) << r.out;
}

}  // namespace
}  // namespace vrecon::testing
