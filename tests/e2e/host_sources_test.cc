// One VM seen by two host-side sources is one VM (issue 39 part 1), through the binary: an esxtop
// capture of esx01 and a PowerCLI Get-Stat export of the same four VMs, with each VM's guest log,
// are four VMs corrected once each, every window against esxtop's finer figure with vSphere's
// beside it; and two VMs of one name on two hosts at once stay two.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "src/core/text_util.h"
#include "tests/support/cli_runner.h"
#include "tests/support/pdh_log.h"

namespace vrecon::testing {
namespace {

constexpr int kSpan = 3 * 3600;  // 10:00 to 13:00

// VM n's busy % per vCPU at second t: its own level and wave.
double Load(int n, int t) { return 30 + 10 * n + 15 * std::sin(t * 2 * M_PI / (600 + 120 * n)); }

// esxtop on `host`: each VM's group % Used (summed over its 2 vCPUs) every 5 s.
std::string Esxtop(const std::string& host, const std::vector<std::pair<std::string, int>>& vms) {
  std::vector<std::string> paths;
  for (const auto& [name, n] : vms)
    paths.push_back("\\\\" + host + "\\Group Cpu(" + std::to_string(4000 + n) + ":" + name + ")\\% Used");
  std::string out = PdhHeader(paths);
  for (int s = 0; s <= kSpan; s += 5) {
    std::vector<std::string> cells;
    for (const auto& [name, n] : vms) cells.push_back(FormatFixed(2 * Load(n, s), 2));
    out += PdhRow(s, cells);
  }
  return out;
}

// "11/2/2026 1:05:20 PM": Export-Csv in en-US, read as UTC.
std::string EnUsTime(int s) {
  const int h = 10 + s / 3600;
  char out[40];
  std::snprintf(out, sizeof out, "11/2/2026 %d:%02d:%02d %s", h > 12 ? h - 12 : h, s / 60 % 60, s % 60,
                h >= 12 ? "PM" : "AM");
  return out;
}

// Get-Stat -Realtime | Export-Csv: cpu.usage.average (% of capacity) every 20 s, stamped at each
// interval's end, the mean of the four 5-second points it spans.
std::string GetStat(const std::vector<std::pair<std::string, int>>& vms) {
  std::string out =
      "#TYPE VMware.VimAutomation.ViCore.Impl.V1.Stat.FloatSampleImpl\r\n"
      "\"Value\",\"Timestamp\",\"MetricId\",\"Unit\",\"Description\",\"Entity\",\"EntityId\",\"IntervalSecs\","
      "\"Instance\"\r\n";
  for (const auto& [name, n] : vms) {
    for (int end = kSpan; end >= 20; end -= 20) {
      const double usage = (Load(n, end - 15) + Load(n, end - 10) + Load(n, end - 5) + Load(n, end)) / 4;
      out += "\"" + FormatFixed(usage, 2) + "\",\"" + EnUsTime(end) +
             "\",\"cpu.usage.average\",\"%\",\"CPU usage as a percentage during the interval\",\"" + name +
             "\",\"VirtualMachine-vm-" + std::to_string(100 + n) + "\",\"20\",\"\"\r\n";
    }
  }
  return out;
}

// The guest of VM n: its ticks count 80% of what the host gave it; one process does half its work.
std::string Guest(const std::string& name, int n) {
  const std::string m = "\\\\" + name + "\\";
  std::string out = PdhHeader({m + "Processor(0)\\% Processor Time", m + "Processor(1)\\% Processor Time",
                               m + "Processor(_Total)\\% Processor Time", m + "Process(app)\\% Processor Time"});
  for (int s = 0; s <= kSpan; s += 15) {
    const std::string busy = FormatFixed(0.8 * Load(n, s), 3);
    out += PdhRow(s, {busy, busy, busy, FormatFixed(0.8 * Load(n, s), 3)});
  }
  return out;
}

std::vector<std::string> Split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  if (!text.empty() && text.back() == sep) out.emplace_back();
  return out;
}

// The CSV's rows by (vm_key, start): each window's one process row, split into cells.
using Rows = std::map<std::pair<std::string, std::string>, std::vector<std::string>>;
Rows ByWindow(const std::string& csv) {
  Rows rows;
  for (const std::string& line : Split(csv.substr(csv.find('\n') + 1), '\n')) {
    if (line.empty()) continue;
    std::vector<std::string> cells = Split(line, ',');
    EXPECT_EQ(cells.size(), 31u) << line;
    if (cells.size() == 31) rows[{cells[19], cells[1]}] = std::move(cells);
  }
  return rows;
}

class HostSourcesCliTest : public ::testing::Test {
 protected:
  void Write(const std::string& name, const std::string& text) { WriteText(dir_.File(name), text); }
  CliResult Ingest(const std::string& db, const std::vector<std::string>& files) {
    std::vector<std::string> args = {"ingest", "--db", dir_.File(db)};
    for (const std::string& f : files) args.push_back(dir_.File(f));
    return RunVrecon(args);
  }
  std::string Correct(const std::string& db) {
    CliResult r = RunVrecon({"correct", "--db", dir_.File(db), "--format", "csv"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  }
  TempDir dir_;
};

const std::vector<std::pair<std::string, int>> kVms = {{"WEB01", 0}, {"WEB02", 1}, {"APP01", 2}, {"DB01", 3}};

TEST_F(HostSourcesCliTest, EsxtopAndGetStatOfOneHostAreOneVmEachCorrectedInEveryWindow) {
  Write("esxtop.csv", Esxtop("esx01", kVms));
  Write("getstat.csv", GetStat(kVms));
  std::vector<std::string> guests;
  for (const auto& [name, n] : kVms) {
    Write(name + ".csv", Guest(name, n));
    guests.push_back(name + ".csv");
  }
  std::vector<std::string> both = guests, esxtop_only = guests;
  both.insert(both.end(), {"esxtop.csv", "getstat.csv"});
  esxtop_only.push_back("esxtop.csv");
  ASSERT_EQ(Ingest("both.db", both).exit_code, 0);
  ASSERT_EQ(Ingest("esxtop.db", esxtop_only).exit_code, 0);

  const Rows pair = ByWindow(Correct("both.db")), alone = ByWindow(Correct("esxtop.db"));
  ASSERT_EQ(pair.size(), 144u);  // 4 VMs x 36 windows, each VM once
  ASSERT_EQ(alone.size(), 144u);
  for (const auto& [key, cells] : pair) {
    SCOPED_TRACE(key.first + " " + key.second);
    EXPECT_TRUE(key.first.starts_with("vsphere:")) << "the esxtop VM is linked into the Get-Stat one";
    EXPECT_FALSE(cells[6].empty()) << "w in every window";
    EXPECT_EQ(cells[12].find("ambiguous-vm"), std::string::npos) << cells[12];
    EXPECT_EQ(cells[12].find("host-sources-disagree"), std::string::npos) << cells[12];
    EXPECT_EQ(cells[13], "esxtop");  // the finer interval
    EXPECT_TRUE(cells[28].starts_with("esxtop:% Used=")) << cells[28];
    EXPECT_NE(cells[28].find(";vsphere:cpu.usage.average="), std::string::npos) << cells[28];
    // Equal within 0.1 points to esxtop alone.
    const std::string name = cells[0];
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto it = alone.find({"esxtop:esx01/" + lower, key.second});
    ASSERT_NE(it, alone.end());
    EXPECT_NEAR(std::stod(cells[5]), std::stod(it->second[5]), 0.1);  // host_util_pct
    EXPECT_NEAR(std::stod(cells[9]), std::stod(it->second[9]), 0.1);  // corrected_pct
  }
}

TEST_F(HostSourcesCliTest, TwoVmsOfOneNameOnTwoHostsAtOnceStayTwo) {
  // WEB01 on esx-a runs VM 0's load, on esx-b VM 2's; Get-Stat's WEB01 is esx-b's.
  Write("esx-a.csv", Esxtop("esx-a", {{"WEB01", 0}}));
  Write("esx-b.csv", Esxtop("esx-b", {{"WEB01", 2}}));
  Write("getstat.csv", GetStat({{"WEB01", 2}}));
  ASSERT_EQ(Ingest("s.db", {"esx-a.csv", "esx-b.csv", "getstat.csv"}).exit_code, 0);
  CliResult r = RunVrecon({"correct", "--db", dir_.File("s.db"), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"vm_key\": \"esxtop:esx-a/web01\""), std::string::npos);
  EXPECT_NE(r.out.find("\"vm_key\": \"vsphere:web01\""), std::string::npos);
  EXPECT_EQ(r.out.find("\"vm_key\": \"esxtop:esx-b/web01\""), std::string::npos) << "linked into vsphere:web01";
  // The linked VM is still found by the esxtop key it had.
  CliResult b = RunVrecon({"correct", "--db", dir_.File("s.db"), "--vm", "esxtop:esx-b/web01", "--format", "csv"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(b.out.find(",vsphere:web01,"), std::string::npos) << b.out.substr(0, 600);
  EXPECT_EQ(b.out.find(",esxtop:esx-a/web01,"), std::string::npos);

  // When both hosts' WEB01 ran what Get-Stat shows, which one it is cannot be told: none is linked.
  Write("esx-a2.csv", Esxtop("esx-a", {{"WEB01", 2}}));
  ASSERT_EQ(Ingest("t.db", {"esx-a2.csv", "esx-b.csv", "getstat.csv"}).exit_code, 0);
  CliResult t = RunVrecon({"correct", "--db", dir_.File("t.db"), "--format", "json"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  for (const char* key : {"esxtop:esx-a/web01", "esxtop:esx-b/web01", "vsphere:web01"})
    EXPECT_NE(t.out.find("\"vm_key\": \"" + std::string(key) + "\""), std::string::npos) << key;
}

}  // namespace
}  // namespace vrecon::testing
