// `vrecon counters` through the real binary: a guest log with one counter of each type and a
// Hyper-V host log with the root's disk latency; each counter typed and treated as
// docs/counter-types.md says.
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

// 10:00:00 to 10:10:00 local (EST, bias 300: 15:00 to 15:10 UTC) every `step` seconds.
std::string Times(int step, int i) {
  const int s = i * step;
  char buf[32];
  std::snprintf(buf, sizeof buf, "11/02/2026 10:%02d:%02d.000", s / 60, s % 60);
  return buf;
}

// Guest WEB01, 1 vCPU, 15 s: 50% busy, thread A/0 20%, 100 pages/s, 2048 MB available, disk
// latency 12 ms, and a counter vrecon does not know.
std::string GuestLog() {
  std::string t = "\"(PDH-CSV 4.0) (Eastern Standard Time)(300)\"";
  for (const char* c : {"Processor(0)\\% Processor Time", "Processor(_Total)\\% Processor Time",
                        "Process(A)\\% Processor Time", "Thread(A/0)\\% Processor Time", "Memory\\Pages/sec",
                        "Memory\\Available MBytes", "LogicalDisk(C:)\\Avg. Disk sec/Transfer", "Foo Widget\\Frobs"})
    t += std::string(",\"\\\\WEB01\\") + c + "\"";
  t += "\n";
  for (int i = 0; i <= 40; ++i) {
    t += "\"" + Times(15, i) + "\"";
    // The first row of interval counters is blank; snapshots have a value.
    t += i == 0 ? ",\" \",\" \",\" \",\" \",\" \",\"2048\",\" \",\"7\"\n"
                : ",\"50\",\"50\",\"30\",\"20\",\"100\",\"2048\",\"0.012\",\"7\"\n";
  }
  return t;
}

// Host HV01, 20 s: the VM's VP runs 60% (w = 1.2); the root's D: answers in 9 ms, E: in 4 ms.
std::string HostLog(bool two_disks) {
  std::string t =
      "\"(PDH-CSV 4.0) (Eastern Standard Time)(300)\",\"\\\\HV01\\Hyper-V Hypervisor Virtual "
      "Processor(WEB01:Hv VP 0)\\% Total Run Time\",\"\\\\HV01\\LogicalDisk(D:)\\Avg. Disk sec/Transfer\","
      "\"\\\\HV01\\LogicalDisk(_Total)\\Avg. Disk sec/Transfer\"";
  if (two_disks) t += ",\"\\\\HV01\\LogicalDisk(E:)\\Avg. Disk sec/Transfer\"";
  t += "\n";
  for (int i = 0; i <= 30; ++i) {
    t += "\"" + Times(20, i) + "\"";
    t += i == 0 ? ",\" \",\" \",\" \"" : ",\"60\",\"0.009\",\"0.0065\"";
    if (two_disks) t += i == 0 ? ",\" \"" : ",\"0.004\"";
    t += "\n";
  }
  return t;
}

// The JSON object of one counter in the first window.
std::string FirstWindowCounter(const std::string& json, const std::string& path_tail) {
  const size_t w = json.find("\"start\": \"2026-11-02T15:00:00Z\"");
  const size_t p = json.find(path_tail + "\", \"type\"", w);
  if (w == std::string::npos || p == std::string::npos) return "";
  return json.substr(p, json.find('}', p) - p);
}

double Field(const std::string& text, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("\"" + key + "\": (-?[0-9.e-]+)"))) return -1e300;
  return std::stod(m[1].str());
}

class CountersCliTest : public ::testing::Test {
 protected:
  std::string Store(bool with_host, bool two_disks) {
    WriteText(dir_.File("guest.csv"), GuestLog());
    WriteText(dir_.File("host.csv"), HostLog(two_disks));
    const std::string db = dir_.File(std::string("s") + (with_host ? "h" : "") + (two_disks ? "2" : "") + ".db");
    std::vector<std::string> args = {"ingest", "--db", db, dir_.File("guest.csv")};
    if (with_host) args.push_back(dir_.File("host.csv"));
    CliResult in = RunVrecon(args);
    EXPECT_EQ(in.exit_code, 0) << in.err << in.out;
    return db;
  }
  TempDir dir_;
};

TEST_F(CountersCliTest, EachCounterTypedAndTreated) {
  const std::string db = Store(true, false);
  CliResult r = RunVrecon({"counters", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"start\": \"2026-11-02T15:05:00Z\""), std::string::npos) << r.out;
  EXPECT_NEAR(Field(r.out, "w"), 1.2, 1e-9);

  const std::string thread = FirstWindowCounter(r.out, "Thread(A/0)\\\\% Processor Time");
  EXPECT_NE(thread.find("\"type\": \"percent-time\""), std::string::npos) << r.out;
  EXPECT_NEAR(Field(thread, "guest_value"), 20, 1e-9);
  EXPECT_NEAR(Field(thread, "value"), 24, 1e-9);
  EXPECT_NE(thread.find("\"count\": null"), std::string::npos);

  const std::string pages = FirstWindowCounter(r.out, "Memory\\\\Pages/sec");
  EXPECT_NE(pages.find("\"type\": \"rate\""), std::string::npos) << r.out;
  EXPECT_NEAR(Field(pages, "count"), 30000, 1e-6);  // 20 intervals of 15 s at 100/s
  EXPECT_NEAR(Field(pages, "value"), 100, 1e-9);    // not aligned: the guest's interval stands
  EXPECT_NE(pages.find("\"unit\": \"per_second\""), std::string::npos);

  const std::string mem = FirstWindowCounter(r.out, "Memory\\\\Available MBytes");
  EXPECT_NE(mem.find("\"type\": \"instantaneous\""), std::string::npos) << r.out;
  EXPECT_NEAR(Field(mem, "value"), 2048, 1e-9);
  EXPECT_NE(mem.find("\"unit\": \"MB\""), std::string::npos);

  // The host logs D: and _Total: D:, its only disk, holds the VM's disk. 12 - 9 ms = 3 ms.
  const std::string disk = FirstWindowCounter(r.out, "LogicalDisk(C:)\\\\Avg. Disk sec/Transfer");
  EXPECT_NE(disk.find("\"type\": \"qpc-latency\""), std::string::npos) << r.out;
  EXPECT_NEAR(Field(disk, "guest_value"), 0.012, 1e-12);
  EXPECT_NEAR(Field(disk, "value"), 0.003, 1e-12);
  EXPECT_NE(disk.find("HV01 LogicalDisk(D:)"), std::string::npos) << disk;

  const std::string foo = FirstWindowCounter(r.out, "Foo Widget\\\\Frobs");
  EXPECT_NE(foo.find("\"type\": \"unknown\""), std::string::npos) << r.out;
  EXPECT_NEAR(Field(foo, "value"), 7, 1e-9);

  // The correction's own processes are not repeated.
  EXPECT_EQ(r.out.find("Process(A)"), std::string::npos);

  CliResult csv = RunVrecon({"counters", "--db", db, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "vm,guest_machine,start,end,w,path,type,guest_value,value,unit,count,note,vm_key");
  EXPECT_NE(csv.out.find(",rate,100,100,per_second,30000,"), std::string::npos) << csv.out;
  CliResult table = RunVrecon({"counters", "--db", db});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("qpc-latency"), std::string::npos) << table.out;
}

TEST_F(CountersCliTest, WithoutHostDataLatencyAndPercentPassThroughWithANote) {
  const std::string db = Store(false, false);
  CliResult r = RunVrecon({"counters", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string disk = FirstWindowCounter(r.out, "LogicalDisk(C:)\\\\Avg. Disk sec/Transfer");
  EXPECT_NEAR(Field(disk, "value"), 0.012, 1e-12) << r.out;
  EXPECT_NE(disk.find("no Hyper-V host log runs this VM"), std::string::npos) << disk;
  const std::string thread = FirstWindowCounter(r.out, "Thread(A/0)\\\\% Processor Time");
  EXPECT_NE(thread.find("\"value\": null"), std::string::npos) << thread;
  EXPECT_NE(thread.find("w is undefined"), std::string::npos) << thread;
}

TEST_F(CountersCliTest, HostWithSeveralDisksNeedsHostDisk) {
  const std::string db = Store(true, true);
  CliResult r = RunVrecon({"counters", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string disk = FirstWindowCounter(r.out, "LogicalDisk(C:)\\\\Avg. Disk sec/Transfer");
  EXPECT_NEAR(Field(disk, "value"), 0.012, 1e-12) << r.out;
  EXPECT_NE(disk.find("--host-disk"), std::string::npos) << disk;

  CliResult e = RunVrecon({"counters", "--db", db, "--host-disk", "e:", "--format", "json"});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_NEAR(Field(FirstWindowCounter(e.out, "LogicalDisk(C:)\\\\Avg. Disk sec/Transfer"), "value"), 0.008, 1e-12)
      << e.out;

  CliResult none = RunVrecon({"counters", "--db", db, "--host-disk", "Z:", "--format", "json"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(FirstWindowCounter(none.out, "LogicalDisk(C:)\\\\Avg. Disk sec/Transfer").find("LogicalDisk(Z:)"),
            std::string::npos)
      << none.out;
}

TEST_F(CountersCliTest, CorrectCountersAddsTheArrayToEachJsonWindow) {
  const std::string db = Store(true, false);
  CliResult r = RunVrecon({"correct", "--db", db, "--counters", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The existing keys stay; "counters" follows "flags".
  EXPECT_NE(r.out.find("\"processes\": [{\"name\": \"A\", \"guest_pct\": 30, \"corrected_pct\": 36"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"flags\": [], \"counters\": [{\"path\": "), std::string::npos) << r.out;
  EXPECT_NEAR(Field(FirstWindowCounter(r.out, "Thread(A/0)\\\\% Processor Time"), "value"), 24, 1e-9) << r.out;
  CliResult plain = RunVrecon({"correct", "--db", db, "--format", "json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find("\"counters\""), std::string::npos);
  CliResult table = RunVrecon({"correct", "--db", db, "--counters"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("Typed counters"), std::string::npos) << table.out;
  CliResult csv = RunVrecon({"correct", "--db", db, "--counters", "--format", "csv"});
  EXPECT_EQ(csv.exit_code, 2);
  EXPECT_NE(csv.err.find("vrecon counters --format csv"), std::string::npos) << csv.err;
}

TEST_F(CountersCliTest, ErrorsAndHelp) {
  const std::string db = Store(true, false);
  CliResult bad = RunVrecon({"counters", "--db", db, "--from", "yesterday"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--from"), std::string::npos) << bad.err;
  CliResult missing = RunVrecon({"counters", "--db", dir_.File("nothing.db")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nothing.db"), std::string::npos);
  CliResult nope = RunVrecon({"counters", "--db", db, "--vm", "NOPE"});
  EXPECT_EQ(nope.exit_code, 1);
  EXPECT_TRUE(nope.out.empty());
  CliResult lone = RunVrecon({"correct", "--db", db, "--host-disk", "D:"});
  EXPECT_EQ(lone.exit_code, 2);
  EXPECT_NE(lone.err.find("--counters"), std::string::npos) << lone.err;
  CliResult help = RunVrecon({"counters", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--host-disk"), std::string::npos);
}

}  // namespace
}  // namespace vrecon::testing
