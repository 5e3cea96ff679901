// `vrecon capacity` (docs/capacity.md) through the binary: 35 days of esxtop captures of a VM
// whose demand grows and one whose demand is flat (tests/support/capacity_logs.h); the answers, the
// output shapes and the usage errors; the report's Capacity section in CSV, JSON and markdown.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/support/capacity_logs.h"
#include "tests/support/cli_runner.h"
#include "tests/support/fake_vcenter.h"

namespace vrecon::testing {
namespace {

class CapacityCommandTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    WriteText(dir_->File("esxtop.csv"), EsxtopLog());
    WriteText(dir_->File("guests.csv"), CapacityGuests());
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
  EXPECT_EQ(Field(r.out, "WEB02", "history_days"), kCapacityLogDays);
  EXPECT_NEAR(Field(r.out, "WEB02", "time_remaining_days"), 56 - (kCapacityLogDays - 1), 7);
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
  EXPECT_EQ(Field(r.out, "esx01.example.com", "history_days"), kCapacityLogDays);
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
  // Each value to a ten-thousandth of a core at most.
  EXPECT_FALSE(std::regex_search(f, std::regex(R"(\.\d{5})"))) << f.substr(0, 300);
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
  EXPECT_EQ(Field(after.out, "WEB02", "history_days"), kCapacityLogDays);
  EXPECT_EQ(Field(after.out, "WEB02", "demand_p95_cores"), Field(full.out, "WEB02", "demand_p95_cores"));
  EXPECT_EQ(Field(after.out, "WEB02", "time_remaining_days"), Field(full.out, "WEB02", "time_remaining_days"));
}

// A CSV line's cells, quotes taken off.
std::vector<std::string> CsvCells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

// The report's Capacity section carries `vrecon capacity`'s answers with the same defaults: the
// JSON report's `capacity` object is the command's output, the CSV has a `capacity` row per
// entity and a `forecast` row per entity and day, the markdown summary starts with them.
TEST_F(CapacityCommandTest, TheReportCarriesTheCapacityAnswers) {
  const std::string db = dir_->File("report.db");
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir_->File("esxtop.csv"), dir_->File("guests.csv")}).exit_code, 0);
  CliResult json = RunVrecon({"report", "--db", db, "--format", "json", "--out", "-"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  CliResult cap = RunVrecon({"capacity", "--db", db, "--format", "json"});
  ASSERT_EQ(cap.exit_code, 0) << cap.err;
  const std::string key = ",\n \"capacity\": ";
  const size_t at = json.out.find(key);
  ASSERT_NE(at, std::string::npos) << json.out.substr(json.out.size() - 500);
  EXPECT_EQ(json.out.substr(at + key.size()), cap.out + "}\n");
  EXPECT_NE(cap.out.find("\"name\": \"esx01.example.com\""), std::string::npos);

  CliResult csv = RunVrecon({"report", "--db", db, "--format", "csv", "--out", "-"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const std::vector<std::string> header = CsvCells(csv.out.substr(0, csv.out.find('\n')));
  // The CSV row that starts with `start`, split into cells.
  auto row = [&](const std::string& start) {
    const size_t at = csv.out.find("\n" + start);
    if (at == std::string::npos) return std::vector<std::string>();
    return CsvCells(csv.out.substr(at + 1, csv.out.find('\n', at + 1) - at - 1));
  };
  auto column = [&](const std::vector<std::string>& cells, const std::string& name) {
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i)
      if (header[i] == name) return cells[i];
    return std::string("(no column ") + name + ")";
  };
  const std::vector<std::string> web02 = row("capacity,WEB02,vm,esxtop,");
  ASSERT_EQ(web02.size(), header.size()) << "every row has every column";
  EXPECT_EQ(std::stod(column(web02, "time_remaining_days")), Field(cap.out, "WEB02", "time_remaining_days"));
  EXPECT_EQ(column(web02, "usable_cores"), "1.8");
  EXPECT_EQ(column(web02, "vcpus"), "2");
  EXPECT_EQ(column(web02, "count"), std::to_string(kCapacityLogDays)) << "the history's days";
  const std::vector<std::string> host = row("capacity,esx01.example.com,host,esxtop,");
  ASSERT_EQ(host.size(), header.size());
  EXPECT_EQ(std::stod(column(host, "usable_cores")), Field(cap.out, "esx01.example.com", "usable_cores"));
  const std::vector<std::string> day = row("forecast,WEB02,vm,,,2026-11-05T00:00:00Z,");
  ASSERT_EQ(day.size(), header.size());
  EXPECT_LE(std::stod(column(day, "lower")), std::stod(column(day, "mid")));
  EXPECT_LE(std::stod(column(day, "mid")), std::stod(column(day, "upper")));
  size_t forecast_rows = 0;
  for (size_t p = csv.out.find("\nforecast,WEB02,"); p != std::string::npos;
       p = csv.out.find("\nforecast,WEB02,", p + 1))
    ++forecast_rows;
  EXPECT_EQ(forecast_rows, 365u);
  EXPECT_LT(csv.out.find("\ncapacity,"), csv.out.find("\nwindow,")) << "the Capacity section first";

  CliResult md = RunVrecon({"report", "--db", db, "--format", "markdown", "--out", "-"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("**Capacity** (as of 2026-11-05T00:00:00Z; conservative, 10% buffer)"), std::string::npos)
      << md.out;
  EXPECT_NE(md.out.find("- host esx01.example.com: "), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("- VMs to resize: "), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("  - DB02: 4 -> 1 vCPUs"), std::string::npos) << md.out;
}

// A cluster whose HA admission control holds back 25% of its CPU (the fake vCenter's Cluster01:
// one host of 16 cores with hyper-threading active, 32 threads): 12 cores of capacity, 10.8
// usable; --ha-hosts overrides what the cluster says.
TEST_F(CapacityCommandTest, AClustersHaAdmissionControlIsWhatItHoldsBack) {
  auto vc = FakeVcenter::Start({.max_query_metrics = 4});
  ASSERT_NE(vc, nullptr);
  const std::string db = dir_->File("fake-vc.db");
  setenv("VRECON_VSPHERE_PASSWORD", vc->options().password.c_str(), 1);
  CliResult r = RunVrecon({"collect", "vsphere", "--url", vc->url(), "--allow-insecure-http", "--user",
                           vc->options().user, "--db", db, "--since", "5m"});
  unsetenv("VRECON_VSPHERE_PASSWORD");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CliResult cap = RunVrecon({"capacity", "--db", db, "--scope", "cluster", "--format", "json"});
  ASSERT_EQ(cap.exit_code, 0) << cap.err;
  EXPECT_EQ(Field(cap.out, "Cluster01", "capacity_cores"), 12);
  EXPECT_DOUBLE_EQ(Field(cap.out, "Cluster01", "usable_cores"), 10.8);
  EXPECT_NE(cap.out.find("HA admission control holds back 25% of the cluster's CPU"), std::string::npos) << cap.out;
  EXPECT_NE(cap.out.find("the cluster's demand is its 2 VMs' run + ready"), std::string::npos) << cap.out;
  CliResult none = RunVrecon({"capacity", "--db", db, "--name", "cluster01", "--ha-hosts", "0", "--format", "json"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(Field(none.out, "Cluster01", "capacity_cores"), 16);
  EXPECT_EQ(none.out.find("ha-reserve"), std::string::npos);
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
  EXPECT_EQ(clusters.err,
            "vrecon: note: no cluster: clusters come from a vCenter's inventory (vrecon collect vsphere)\n");
}

}  // namespace
}  // namespace vrecon::testing
