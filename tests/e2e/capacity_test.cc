// `vrecon capacity` (docs/capacity.md) through the binary: 35 days of esxtop captures of a VM
// whose demand grows and one whose demand is flat; the answers, the output shapes and the usage
// errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <string>

#include "src/core/time_util.h"
#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

constexpr int kDays = 35;

// 5-minute esxtop rows from 2026-10-01 UTC: WEB02 runs 60% + 2% a day of one vCPU plus 5% ready
// (demand 0.65 + 0.02 x day cores), with a little swing within each day; DB02 a flat 50%; APP03
// 250% of its 2 vCPUs' worth, with 10% co-stop (5% a vCPU). The host's 4 PCPUs are 40% busy.
std::string EsxtopLog() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* vm : {"101:WEB02", "102:DB02"})
    for (const char* c : {"% Run", "% Ready"})
      s += std::string(",\"\\\\esx01.example.com\\Group Cpu(") + vm + ")\\" + c + "\"";
  for (const char* c : {"% Run", "% CoStop"})
    s += std::string(",\"\\\\esx01.example.com\\Group Cpu(103:APP03)\\") + c + "\"";
  for (const char* pcpu : {"_Total", "0", "1", "2", "3"})
    s += std::string(",\"\\\\esx01.example.com\\Physical Cpu(") + pcpu + ")\\% Util Time\"";
  s += "\n";
  const TimeNs start = DaysFromCivil(2026, 10, 1) * 86400 * kNsPerSec;
  char b[192];
  for (int i = 0; i < kDays * 288; ++i) {
    const CivilTime c = CivilFromNs(start + static_cast<TimeNs>(i + 1) * 300 * kNsPerSec);
    const double day = i / 288.0, swing = (i % 288) % 7 * 0.5;
    std::snprintf(
        b, sizeof b,
        "\"%02d/%02d/%04d %02d:%02d:%02d.000\",\"%.3f\",\"5\",\"%.3f\",\"1\",\"250\",\"10\",\"40\",\"40\",\"40\","
        "\"40\",\"40\"\n",
        c.month, c.day, c.year, c.hour, c.minute, c.second, 60 + 2 * day + swing, 50 + swing);
    s += b;
  }
  return s;
}

// 22 days of a Hyper-V host's log: APP01's two virtual processors at 30% and 50% run time (0.8
// cores of demand, no ready on Hyper-V), 5-minute rows from 2026-10-14.
std::string HyperVLog() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* vp : {"0", "1"})
    s += std::string(",\"\\\\HV02\\Hyper-V Hypervisor Virtual Processor(APP01:Hv VP ") + vp + ")\\% Total Run Time\"";
  s += "\n";
  const TimeNs start = DaysFromCivil(2026, 10, 14) * 86400 * kNsPerSec;
  char b[96];
  for (int i = 0; i < 22 * 288; ++i) {
    const CivilTime c = CivilFromNs(start + static_cast<TimeNs>(i + 1) * 300 * kNsPerSec);
    std::snprintf(b, sizeof b, "\"%02d/%02d/%04d %02d:%02d:%02d.000\",\"30\",\"50\"\n", c.month, c.day, c.year, c.hour,
                  c.minute, c.second);
    s += b;
  }
  return s;
}

// The guests' Processor(n) instances give the VMs' vCPUs: WEB02 2, DB02 4, APP03 2.
std::string Guests() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* cpu : {"0", "1"}) s += std::string(",\"\\\\WEB02\\Processor(") + cpu + ")\\% Processor Time\"";
  for (const char* cpu : {"0", "1", "2", "3"})
    s += std::string(",\"\\\\DB02\\Processor(") + cpu + ")\\% Processor Time\"";
  for (const char* cpu : {"0", "1"}) s += std::string(",\"\\\\APP03\\Processor(") + cpu + ")\\% Processor Time\"";
  return s + "\n\"10/01/2026 01:00:00.000\",\"5\",\"5\",\"5\",\"5\",\"5\",\"5\",\"5\",\"5\"\n";
}

class CapacityCommandTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    WriteText(dir_->File("esxtop.csv"), EsxtopLog());
    WriteText(dir_->File("guests.csv"), Guests());
    WriteText(dir_->File("hyperv.csv"), HyperVLog());
    db_ = dir_->File("cap.db");
    CliResult r = RunVrecon(
        {"ingest", "--db", db_, dir_->File("esxtop.csv"), dir_->File("guests.csv"), dir_->File("hyperv.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  static TempDir* dir_;
  static std::string db_;
};
TempDir* CapacityCommandTest::dir_ = nullptr;
std::string CapacityCommandTest::db_;

// The number after `"field": ` in the entity named `name` (-1 for null).
double Field(const std::string& json, const std::string& name, const std::string& field) {
  const size_t at = json.find("\"name\": \"" + name + "\"");
  EXPECT_NE(at, std::string::npos) << name;
  std::smatch m;
  const std::string rest = json.substr(at);
  if (!std::regex_search(rest, m, std::regex("\"" + field + "\": (null|-?[0-9.]+)"))) return -2;
  return m[1] == "null" ? -1 : std::stod(m[1]);
}

TEST_F(CapacityCommandTest, GrowingDemandRunsOutWhenItsTruthDoes) {
  CliResult r = RunVrecon({"capacity", "--db", db_, "--format", "json", "--risk", "aggressive"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"as_of\": \"2026-11-05T00:00:00Z\", \"risk\": \"aggressive\", \"buffer_pct\": 10, ", 0), 0u)
      << r.out.substr(0, 200);
  // WEB02: 2 vCPUs, usable 1.8 cores; its daily p95 is 0.65 + 0.02 x day + 0.03 of swing, over
  // 1.8 from day 56.
  EXPECT_EQ(Field(r.out, "WEB02", "vcpus"), 2);
  EXPECT_DOUBLE_EQ(Field(r.out, "WEB02", "usable_cores"), 1.8);
  EXPECT_EQ(Field(r.out, "WEB02", "history_days"), kDays);
  EXPECT_NEAR(Field(r.out, "WEB02", "time_remaining_days"), 56 - (kDays - 1), 7);
  EXPECT_NE(r.out.find("\"demand_counter\": \"% Run + % Ready\""), std::string::npos);
  // DB02: flat at 0.51-0.54 cores of 4 vCPUs: no crossing, and 1 vCPU is enough at 70%.
  EXPECT_EQ(Field(r.out, "DB02", "time_remaining_days"), -1);
  EXPECT_EQ(Field(r.out, "DB02", "recommended_vcpus"), 1);
  EXPECT_NE(r.out.find("\"code\": \"fewer-vcpus\""), std::string::npos);
  EXPECT_NE(r.out.find("level, trend, weekly profile"), std::string::npos);
  // Conservative reads the upper band: no later than aggressive.
  CliResult c = RunVrecon({"capacity", "--db", db_, "--format", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_LE(Field(c.out, "WEB02", "time_remaining_days"), Field(r.out, "WEB02", "time_remaining_days"));
}

// APP03 needs 4 vCPUs at 70% (2.5 cores), but its co-stop is high: more vCPUs would wait longer
// to be scheduled together, and the hint says so instead of asking for them.
TEST_F(CapacityCommandTest, HighCoStopArguesAgainstMoreVcpus) {
  CliResult r = RunVrecon({"capacity", "--db", db_, "--name", "APP03", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Field(r.out, "APP03", "recommended_vcpus"), 4);
  EXPECT_NE(r.out.find("\"code\": \"more-vcpus\", \"severity\": \"info\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("its co-stop is high"), std::string::npos);
  EXPECT_NE(r.out.find("\"demand_counter\": \"% Run\""), std::string::npos) << "no ready series";
}

// A host of a host log: its busy logical processors (40% of 4) plus its VMs' ready (5% and 1% of
// a vCPU: WEB02, DB02), against its 4 logical processors, hyper-threading unknown. Hyper-V's
// HV02 logged no logical processor counters and is not a host here.
TEST_F(CapacityCommandTest, AHostLogsHostIsItsBusyProcessorsAndItsVmsReady) {
  CliResult r = RunVrecon({"capacity", "--db", db_, "--scope", "host", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("{\"scope\": \"host\", \"name\": \"esx01.example.com\", \"key\": \"esxtop:esx01.example.com\", "
                       "\"capacity_cores\": 4, \"usable_cores\": 3.6, "),
            std::string::npos)
      << r.out.substr(0, 400);
  EXPECT_NEAR(Field(r.out, "esx01.example.com", "demand_p95_cores"), 1.6 + 0.05 + 0.01, 1e-9);
  EXPECT_EQ(Field(r.out, "esx01.example.com", "history_days"), kDays);
  EXPECT_NE(r.out.find("\"code\": \"capacity-logical\""), std::string::npos);
  EXPECT_EQ(r.out.find("\"scope\": \"vm\""), std::string::npos);
  EXPECT_EQ(r.out.find("HV02"), std::string::npos);
}

// Hyper-V: the virtual processors' run times summed; their number is the vCPUs.
TEST_F(CapacityCommandTest, HyperVDemandIsItsVirtualProcessorsRunTime) {
  CliResult r = RunVrecon({"capacity", "--db", db_, "--name", "APP01", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Field(r.out, "APP01", "vcpus"), 2);
  EXPECT_DOUBLE_EQ(Field(r.out, "APP01", "demand_p95_cores"), 0.8);
  EXPECT_EQ(Field(r.out, "APP01", "history_days"), 22);
  EXPECT_EQ(Field(r.out, "APP01", "recommended_vcpus"), 2);
  EXPECT_EQ(Field(r.out, "APP01", "time_remaining_days"), -1);
  EXPECT_NE(r.out.find("\"demand_counter\": \"Hyper-V Hypervisor Virtual Processor % Total Run Time\""),
            std::string::npos);
  EXPECT_EQ(r.out.find("WEB02"), std::string::npos) << "--name selects";
}

TEST_F(CapacityCommandTest, TableIsWorstFirstAndCsvHasARowPerEntity) {
  CliResult t = RunVrecon({"capacity", "--db", db_});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const size_t web = t.out.find("WEB02"), db = t.out.find("DB02");
  ASSERT_NE(web, std::string::npos);
  EXPECT_LT(web, db) << t.out;
  CliResult csv = RunVrecon({"capacity", "--db", db_, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "scope,name,key,host,vcpus,recommended_vcpus,capacity_cores,usable_cores,demand_p95_cores,"
            "time_remaining_days,peak_time_remaining_days,capacity_remaining_pct,history_days,as_of,source,"
            "demand_counter,model,flags");
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 6);  // the host and four VMs
  EXPECT_NE(csv.out.find("\nvm,WEB02,esxtop:esx01.example.com/web02,esx01.example.com,2,"), std::string::npos)
      << csv.out;
}

TEST_F(CapacityCommandTest, ForecastOutHoldsEveryDayOfTheHorizon) {
  const std::string out = dir_->File("forecast.csv");
  CliResult r = RunVrecon({"capacity", "--db", db_, "--name", "WEB02", "--horizon-days", "90", "--forecast-out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string f = ReadText(out);
  EXPECT_EQ(f.substr(0, f.find('\n')), "scope,key,name,date,lower,mid,upper");
  EXPECT_EQ(std::count(f.begin(), f.end(), '\n'), 91);
  EXPECT_NE(f.find("\nvm,esxtop:esx01.example.com/web02,WEB02,2026-11-05,"), std::string::npos) << f.substr(0, 300);
}

// --as-of cuts the history: 10 days are too few, and the VM is listed with its flag.
TEST_F(CapacityCommandTest, AsOfAndTooLittleHistory) {
  CliResult r = RunVrecon({"capacity", "--db", db_, "--as-of", "2026-10-11T00:00:00Z", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"as_of\": \"2026-10-11T00:00:00Z\"", 0), 0u);
  EXPECT_EQ(Field(r.out, "WEB02", "history_days"), 10);
  EXPECT_EQ(Field(r.out, "WEB02", "time_remaining_days"), -1);
  EXPECT_NE(r.out.find("\"code\": \"insufficient-history\""), std::string::npos);
  EXPECT_NE(r.out.find("\"model\": \"none: 10 day(s) of history, 21 needed\""), std::string::npos);
}

// esxtop.csv's WEB02 with `% Used` (the counter the correction divides by) equal to its run.
std::string Web02HostLog() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* c : {"% Run", "% Ready", "% Used"})
    s += std::string(",\"\\\\esx01.example.com\\Group Cpu(101:WEB02)\\") + c + "\"";
  s += "\n";
  const TimeNs start = DaysFromCivil(2026, 10, 1) * 86400 * kNsPerSec;
  char b[128];
  for (int i = 0; i < kDays * 288; ++i) {
    const CivilTime c = CivilFromNs(start + static_cast<TimeNs>(i + 1) * 300 * kNsPerSec);
    const double run = 60 + 2 * (i / 288.0) + (i % 288) % 7 * 0.5;
    std::snprintf(b, sizeof b, "\"%02d/%02d/%04d %02d:%02d:%02d.000\",\"%.3f\",\"5\",\"%.3f\"\n", c.month, c.day,
                  c.year, c.hour, c.minute, c.second, run, run);
    s += b;
  }
  return s;
}

// WEB02's guest as it logs itself beside Web02HostLog, 5-minute rows: its two CPUs' mean load is
// half the host's run (so w is 1), `app` grows a core a hundred days and `svc` is flat.
std::string GrowingGuestLog() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* c : {"Processor(_Total)", "Processor(0)", "Processor(1)", "Process(app)", "Process(svc)"})
    s += std::string(",\"\\\\WEB02\\") + c + "\\% Processor Time\"";
  s += "\n";
  const TimeNs start = DaysFromCivil(2026, 10, 1) * 86400 * kNsPerSec;
  char b[192];
  for (int i = 0; i < kDays * 288; ++i) {
    const CivilTime c = CivilFromNs(start + static_cast<TimeNs>(i + 1) * 300 * kNsPerSec);
    const double day = i / 288.0, cpu = (60 + 2 * day + (i % 288) % 7 * 0.5) / 2;
    std::snprintf(b, sizeof b, "\"%02d/%02d/%04d %02d:%02d:%02d.000\",\"%.4f\",\"%.4f\",\"%.4f\",\"%.4f\",\"10\"\n",
                  c.month, c.day, c.year, c.hour, c.minute, c.second, cpu, cpu, cpu, 20 + day);
    s += b;
  }
  return s;
}

// With stored corrections (a report makes them), a VM lists the processes that drive its growth.
TEST_F(CapacityCommandTest, GrowthDriversAreTheProcessesWhoseCorrectedDemandGrows) {
  const std::string db = dir_->File("growth.db");
  WriteText(dir_->File("web02-guest.csv"), GrowingGuestLog());
  WriteText(dir_->File("web02-esxtop.csv"), Web02HostLog());
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir_->File("web02-esxtop.csv"), dir_->File("web02-guest.csv")}).exit_code,
            0);
  CliResult before = RunVrecon({"capacity", "--db", db, "--name", "WEB02", "--format", "json"});
  ASSERT_EQ(before.exit_code, 0) << before.err;
  EXPECT_NE(before.out.find("\"growth_drivers\": []"), std::string::npos) << "no stored corrections yet";
  ASSERT_EQ(RunVrecon({"report", "--db", db, "--format", "csv", "--out", dir_->File("growth.csv")}).exit_code, 0);
  CliResult r = RunVrecon({"capacity", "--db", db, "--name", "WEB02", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m,
                                std::regex("\"growth_drivers\": \\[\\{\"process\": \"app\", \"cores_now\": ([0-9.]+), "
                                           "\"cores_per_30d\": ([0-9.]+)\\}\\]")))
      << r.out.substr(0, 3000);
  EXPECT_NEAR(std::stod(m[1]), 0.20 + 0.01 * 31.5, 0.02);  // its last week's mean
  EXPECT_NEAR(std::stod(m[2]), 0.3, 0.02);
}

// A right size is at most its host's cores: APP03's 2.5 cores at 50% would be 5 vCPUs; esx01's
// log shows 4 processors.
TEST_F(CapacityCommandTest, ARightSizeIsAtMostItsHostsCores) {
  CliResult r = RunVrecon({"capacity", "--db", db_, "--name", "APP03", "--target-util-pct", "50", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Field(r.out, "APP03", "recommended_vcpus"), 4);
  EXPECT_NE(r.out.find("more than its host's 4 cores"), std::string::npos) << r.out.substr(0, 2000);
}

// `vrecon prune` takes the samples into the day digests first: a forecast after it reads the days
// whose samples are gone, and gives what it gave before.
TEST_F(CapacityCommandTest, TheDaysOutliveThePrunedSamples) {
  const std::string db = dir_->File("pruned.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir_->File("esxtop.csv"), dir_->File("guests.csv")}).exit_code, 0);
  CliResult prune = RunVrecon({"prune", "--db", db, "--samples", "1d", "--format", "json"});
  ASSERT_EQ(prune.exit_code, 0) << prune.err;
  ASSERT_EQ(RunVrecon({"samples", "--db", db, "--format", "csv"}).out.find("esx01"), std::string::npos)
      << "the samples are gone";
  CliResult after = RunVrecon({"capacity", "--db", db, "--name", "WEB02", "--format", "json"});
  CliResult full = RunVrecon({"capacity", "--db", db_, "--name", "WEB02", "--format", "json"});
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(Field(after.out, "WEB02", "history_days"), kDays);
  EXPECT_EQ(Field(after.out, "WEB02", "demand_p95_cores"), Field(full.out, "WEB02", "demand_p95_cores"));
  EXPECT_EQ(Field(after.out, "WEB02", "time_remaining_days"), Field(full.out, "WEB02", "time_remaining_days"));
}

TEST_F(CapacityCommandTest, UsageErrorsAndUnknownNames) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--risk", "bold"},
                                               {"--scope", "rack"},
                                               {"--as-of", "yesterday"},
                                               {"--buffer-pct", "120"},
                                               {"--horizon-days", "0"}}) {
    std::vector<std::string> all = {"capacity", "--db", db_};
    all.insert(all.end(), args.begin(), args.end());
    CliResult r = RunVrecon(all);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err.rfind("vrecon: error: ", 0), 0u) << r.err;
  }
  CliResult none = RunVrecon({"capacity", "--db", db_, "--name", "NOPE"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("nothing named NOPE"), std::string::npos) << none.err;
  CliResult clusters = RunVrecon({"capacity", "--db", db_, "--scope", "cluster", "--format", "json"});
  EXPECT_EQ(clusters.exit_code, 0);
  EXPECT_NE(clusters.out.find("\"entities\": []"), std::string::npos) << clusters.out;
  EXPECT_NE(clusters.err.find("does not collect yet"), std::string::npos) << clusters.err;
}

}  // namespace
}  // namespace vrecon::testing
