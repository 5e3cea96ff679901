#include "adapters/linux_proc/proc_sampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace vrecon::linux_proc {
namespace {

class FakeFs : public FileSystem {
 public:
  bool ReadFile(const std::string& path, std::string* out) override {
    auto it = files.find(path);
    if (it == files.end()) return false;
    *out = it->second;
    return true;
  }
  std::vector<std::string> ListDir(const std::string& path) override {
    std::vector<std::string> out;
    if (path != "/proc") return out;
    for (const auto& [p, text] : files) {
      if (!p.starts_with("/proc/") || !p.ends_with("/stat") || p == "/proc/stat") continue;
      out.push_back(p.substr(6, p.size() - 11));
    }
    out.push_back("self");  // not a pid: ignored
    return out;
  }
  void Stat(uint64_t busy0, uint64_t idle0, uint64_t steal0, uint64_t busy1, uint64_t idle1, uint64_t steal1) {
    auto line = [](const std::string& n, uint64_t b, uint64_t i, uint64_t s) {
      return n + " " + std::to_string(b) + " 0 0 " + std::to_string(i) + " 0 0 0 " + std::to_string(s) + " 0 0\n";
    };
    files["/proc/stat"] = line("cpu ", busy0 + busy1, idle0 + idle1, steal0 + steal1) +
                          line("cpu0", busy0, idle0, steal0) + line("cpu1", busy1, idle1, steal1) +
                          "btime 1700000000\n";
  }
  void Proc(int pid, const std::string& comm, uint64_t ut, uint64_t st, uint64_t start) {
    files["/proc/" + std::to_string(pid) + "/stat"] = std::to_string(pid) + " (" + comm + ") R 1 1 1 0 -1 0 0 0 0 0 " +
                                                      std::to_string(ut) + " " + std::to_string(st) + " 0 0 20 0 1 0 " +
                                                      std::to_string(start) +
                                                      " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
  }
  void Exit(int pid) { files.erase("/proc/" + std::to_string(pid) + "/stat"); }
  std::map<std::string, std::string> files;
};

// Keeps every row with the columns it was declared under.
class RecordingSink : public SampleSink {
 public:
  Status DeclareColumns(const std::vector<SeriesKey>& c) override {
    columns = c;
    ++declarations;
    return Status::Ok();
  }
  Status AddRow(TimeNs s, TimeNs e, std::span<const double> v) override {
    Row r{s, e, {}};
    for (size_t i = 0; i < v.size(); ++i)
      r.values[columns[i].object + "(" + columns[i].instance + ")\\" + columns[i].counter] = v[i];
    rows.push_back(r);
    return Status::Ok();
  }
  void AddIssue(ImportIssue) override {}
  struct Row {
    TimeNs start, end;
    std::map<std::string, double> values;
    // Value of a column; NaN when the row has the column missing; -1 when the row has no such column.
    double Get(const std::string& k) const {
      auto it = values.find(k);
      return it == values.end() ? -1 : it->second;
    }
  };
  std::vector<SeriesKey> columns;
  std::vector<Row> rows;
  int declarations = 0;
};

constexpr TimeNs kSec = kNsPerSec;
constexpr TimeNs kT0 = 1'700'000'000 * kSec;

struct Harness {
  FakeFs fs;
  RecordingSink sink;
  ProcSampler sampler{&fs, ProcSamplerOptions{"LNX01", 100, "/proc", false}};
  int n = 0;
  void Tick(int seconds = 1) {
    ASSERT_TRUE(sampler.Tick(kT0 + n * seconds * kSec, 1000 * kSec + n * seconds * kSec, &sink).ok());
    ++n;
  }
};

TEST(ProcSamplerTest, FirstTickPrimesThenCpuBusyAndSteal) {
  Harness h;
  h.fs.Stat(0, 0, 0, 0, 0, 0);
  h.fs.Proc(10, "burn", 0, 0, 5);
  h.Tick();
  EXPECT_TRUE(h.sink.rows.empty());
  // 1 s at 100 Hz: cpu0 50 busy / 40 idle / 10 steal, cpu1 10 busy / 90 idle.
  h.fs.Stat(50, 40, 10, 10, 90, 0);
  h.fs.Proc(10, "burn", 40, 10, 5);
  h.Tick();
  ASSERT_EQ(h.sink.rows.size(), 1u);
  const auto& r = h.sink.rows[0];
  EXPECT_EQ(r.start, kT0);
  EXPECT_EQ(r.end, kT0 + kSec);
  EXPECT_DOUBLE_EQ(r.Get("Processor(0)\\% Processor Time"), 50);
  EXPECT_DOUBLE_EQ(r.Get("Processor(0)\\% Steal Time"), 10);
  EXPECT_DOUBLE_EQ(r.Get("Processor(1)\\% Processor Time"), 10);
  EXPECT_DOUBLE_EQ(r.Get("Processor(1)\\% Steal Time"), 0);
  EXPECT_DOUBLE_EQ(r.Get("Processor(_Total)\\% Processor Time"), 30);
  EXPECT_DOUBLE_EQ(r.Get("Processor(_Total)\\% Steal Time"), 5);
  // (40 + 10) ticks in 1 s at 100 Hz = 50% of one CPU.
  EXPECT_DOUBLE_EQ(r.Get("Process(burn:10)\\% Processor Time"), 50);
  EXPECT_EQ(h.sink.columns[0].machine, "LNX01");
  EXPECT_EQ(h.sink.columns[0].source, SourceKind::kGuest);
  EXPECT_EQ(h.sink.columns[0].unit, "percent");
}

TEST(ProcSamplerTest, ProcessAboveOneCpuAndElapsedFromMonotonicClock) {
  Harness h;
  h.fs.Stat(0, 0, 0, 0, 0, 0);
  h.fs.Proc(10, "java", 100, 0, 5);
  h.Tick(2);
  h.fs.Stat(200, 0, 0, 200, 0, 0);
  h.fs.Proc(10, "java", 400, 0, 5);  // 300 ticks in 2 s = 150% of one CPU
  h.Tick(2);
  ASSERT_EQ(h.sink.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(h.sink.rows[0].Get("Process(java:10)\\% Processor Time"), 150);
}

TEST(ProcSamplerTest, NewProcessFromSecondSampleExitedIsMissingNotZero) {
  Harness h;
  h.fs.Stat(0, 0, 0, 0, 0, 0);
  h.fs.Proc(10, "a", 0, 0, 5);
  h.Tick();
  h.fs.Stat(10, 90, 0, 10, 90, 0);
  h.fs.Proc(10, "a", 10, 0, 5);
  h.fs.Proc(20, "b", 3, 0, 150);  // started between ticks: no value yet
  h.Tick();
  ASSERT_EQ(h.sink.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(h.sink.rows[0].Get("Process(a:10)\\% Processor Time"), 10);
  EXPECT_EQ(h.sink.rows[0].Get("Process(b:20)\\% Processor Time"), -1);
  h.fs.Stat(20, 180, 0, 20, 180, 0);
  h.fs.Proc(10, "a", 20, 0, 5);
  h.fs.Proc(20, "b", 8, 0, 150);
  h.Tick();
  EXPECT_DOUBLE_EQ(h.sink.rows[1].Get("Process(b:20)\\% Processor Time"), 5);
  EXPECT_EQ(h.sink.declarations, 2);  // b joined
  h.fs.Stat(30, 270, 0, 30, 270, 0);
  h.fs.Exit(20);
  h.fs.Proc(10, "a", 30, 0, 5);
  h.Tick();
  ASSERT_EQ(h.sink.rows.size(), 3u);
  EXPECT_TRUE(std::isnan(h.sink.rows[2].Get("Process(b:20)\\% Processor Time")));  // missing, never 0
  EXPECT_DOUBLE_EQ(h.sink.rows[2].Get("Process(a:10)\\% Processor Time"), 10);
  EXPECT_EQ(h.sink.declarations, 2);  // one exited process does not force a new column set
}

TEST(ProcSamplerTest, PidReuseDetectedByStartTime) {
  Harness h;
  h.fs.Stat(0, 0, 0, 0, 0, 0);
  h.fs.Proc(30, "worker", 1000, 0, 5);
  h.Tick();
  h.fs.Stat(10, 90, 0, 10, 90, 0);
  // pid 30 exited and a new "worker" got pid 30: its counters start low; without the starttime
  // check this would read as a negative or bogus delta.
  h.fs.Proc(30, "worker", 2, 0, 180);
  h.Tick();
  ASSERT_EQ(h.sink.rows.size(), 1u);
  EXPECT_EQ(h.sink.rows[0].Get("Process(worker:30)\\% Processor Time"), -1);
  h.fs.Stat(20, 180, 0, 20, 180, 0);
  h.fs.Proc(30, "worker", 12, 0, 180);
  h.Tick();
  EXPECT_DOUBLE_EQ(h.sink.rows[1].Get("Process(worker:30)\\% Processor Time"), 10);
  // Reuse with a higher counter than before is caught too.
  h.fs.Stat(30, 270, 0, 30, 270, 0);
  h.fs.Proc(30, "worker", 5000, 0, 250);
  h.Tick();
  EXPECT_TRUE(std::isnan(h.sink.rows[2].Get("Process(worker:30)\\% Processor Time")));
}

TEST(ProcSamplerTest, ManyExitsRedeclareWithoutDeadColumns) {
  Harness h;
  h.fs.Stat(0, 0, 0, 0, 0, 0);
  for (int p = 100; p < 140; ++p) h.fs.Proc(p, "job", 0, 0, 5);
  h.Tick();
  h.fs.Stat(10, 90, 0, 10, 90, 0);
  for (int p = 100; p < 140; ++p) h.fs.Proc(p, "job", 1, 0, 5);
  h.Tick();
  EXPECT_EQ(h.sink.declarations, 1);
  EXPECT_DOUBLE_EQ(h.sink.rows[0].Get("Process(job:100)\\% Processor Time"), 1);
  for (int p = 100; p < 130; ++p) h.fs.Exit(p);
  h.fs.Stat(20, 180, 0, 20, 180, 0);
  h.Tick();
  // 30 of 40 process columns would only carry missing values: the set is declared again.
  EXPECT_EQ(h.sink.declarations, 2);
  EXPECT_EQ(h.sink.rows[1].Get("Process(job:100)\\% Processor Time"), -1);
  EXPECT_DOUBLE_EQ(h.sink.rows[1].Get("Process(job:139)\\% Processor Time"), 0);
}

TEST(ProcSamplerTest, NoStealFieldGivesMissingSteal) {
  FakeFs fs;
  RecordingSink sink;
  ProcSampler s(&fs, ProcSamplerOptions{"OLD", 100, "/proc", true});
  fs.files["/proc/stat"] = "cpu  0 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0\n";
  ASSERT_TRUE(s.Tick(kT0, kSec, &sink).ok());
  fs.files["/proc/stat"] = "cpu  30 0 10 60 0 0 0\ncpu0 30 0 10 60 0 0 0\n";
  ASSERT_TRUE(s.Tick(kT0 + kSec, 2 * kSec, &sink).ok());
  ASSERT_EQ(sink.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(sink.rows[0].Get("Processor(0)\\% Processor Time"), 40);
  EXPECT_DOUBLE_EQ(sink.rows[0].Get("Processor(0)\\% User Time"), 30);
  EXPECT_DOUBLE_EQ(sink.rows[0].Get("Processor(0)\\% Privileged Time"), 10);
  EXPECT_TRUE(std::isnan(sink.rows[0].Get("Processor(0)\\% Steal Time")));
}

TEST(ProcSamplerTest, UnreadableProcStatIsAnError) {
  FakeFs fs;
  RecordingSink sink;
  ProcSampler s(&fs, ProcSamplerOptions{"X", 100, "/proc", true});
  EXPECT_FALSE(s.Tick(kT0, kSec, &sink).ok());
}

TEST(ProcSamplerTest, InstanceNamesAreSafeInCounterPaths) {
  EXPECT_EQ(ProcessInstance("(sd-pam)", 900), "[sd-pam]:900");
  EXPECT_EQ(ProcessInstance("kworker/0:1", 12), "kworker_0:1:12");
  EXPECT_EQ(ProcessInstance("a b#c", 3), "a b_c:3");
}

}  // namespace
}  // namespace vrecon::linux_proc
