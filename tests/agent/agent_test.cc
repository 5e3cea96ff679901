// The portable half of vrecon-agent, driven by a fake PDH: counter selection, instance
// bookkeeping, row assembly, PDH-CSV text, rotation, options.
#include <gtest/gtest.h>

#include <sstream>

#include "agent/agent.h"
#include "agent/counter_selection.h"
#include "agent/sampler.h"
#include "tests/agent/fake_pdh.h"

namespace vrecon::agent::testing {
namespace {

PdhItem Val(double v) { return PdhItem{"", kPdhValidData, v}; }
PdhItem Bad() { return PdhItem{"", kPdhCStatusInvalidData, 0}; }

// A guest "WEB01" with the objects of the vrecon set it has (no Process V2, no VMware Tools).
FakePdh Guest() {
  FakePdh p;
  auto rate = [](double v) { return [v](int n, const std::string&) { return n == 1 ? Bad() : Val(v); }; };
  p.counters["|Processor|% Processor Time"] = {{"0", "1", "_Total"}, [](int n, const std::string& i) {
                                                 if (n == 1) return Bad();
                                                 return Val(i == "0" ? 97.5 : i == "1" ? 40 : 68.75);
                                               }};
  for (const char* c : {"% User Time", "% Privileged Time", "% Interrupt Time", "% DPC Time"})
    p.counters[std::string("|Processor|") + c] = {{"0", "1", "_Total"}, rate(1)};
  // Two svchost instances (PDH names both "svchost"), Idle above 100% on 2 CPUs.
  const std::vector<std::string> procs = {"Idle", "svchost", "svchost", "_Total"};
  p.counters["|Process|% Processor Time"] = {procs, [](int n, const std::string& i) {
                                               if (n == 1) return Bad();
                                               if (i == "Idle") return Val(180.25);
                                               return Val(i == "job" ? 55 : 5);
                                             }};
  for (const char* c : {"% User Time", "% Privileged Time", "ID Process"})
    p.counters[std::string("|Process|") + c] = {procs, rate(2)};
  for (const char* c : {"Processor Queue Length", "Context Switches/sec", "Processes", "Threads"})
    p.counters[std::string("|System|") + c] = {{""}, rate(3)};
  for (const char* c : {"Available MBytes", "Committed Bytes", "Pages/sec"})
    p.counters[std::string("|Memory|") + c] = {{""}, rate(4)};
  return p;
}

TEST(AgentCounterPath, ParsesAndPrints) {
  auto s = ParseCounterPath("\\\\WEB01\\Process(svchost (netsvcs)#1)\\% Processor Time");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->machine, "WEB01");
  EXPECT_EQ(s->object, "Process");
  EXPECT_EQ(s->instance, "svchost (netsvcs)#1");
  EXPECT_EQ(s->counter, "% Processor Time");
  EXPECT_EQ(CounterPath(*s), "\\\\WEB01\\Process(svchost (netsvcs)#1)\\% Processor Time");
  auto m = ParseCounterPath("\\Memory\\Available MBytes");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->instance, "");
  EXPECT_FALSE(ParseCounterPath("Memory\\Available MBytes").ok());
  EXPECT_FALSE(ParseCounterPath("\\Processor(_Total)\\*").ok());
  EXPECT_FALSE(ParseCounterPath("\\\\\\Memory\\X").ok());
}

TEST(AgentCounterSets, VreconAndHyperV) {
  auto v = CounterSet("vrecon", "");
  ASSERT_TRUE(v.ok());
  auto has = [](const std::vector<CounterSpec>& s, const std::string& path) {
    for (const auto& c : s)
      if (CounterPath(c) == path) return true;
    return false;
  };
  EXPECT_TRUE(has(*v, "\\Processor(*)\\% Processor Time"));
  EXPECT_TRUE(has(*v, "\\Process(*)\\% Processor Time"));
  EXPECT_TRUE(has(*v, "\\System\\Processor Queue Length"));
  EXPECT_TRUE(has(*v, "\\VM Processor(*)\\% Processor Time"));
  EXPECT_TRUE(has(*v, "\\VM Memory\\Memory Ballooned in MB"));
  auto h = CounterSet("hyperv", "HV01");
  ASSERT_TRUE(h.ok());
  EXPECT_TRUE(has(*h, "\\\\HV01\\Hyper-V Hypervisor Virtual Processor(*)\\CPU Wait Time Per Dispatch"));
  EXPECT_TRUE(has(*h, "\\\\HV01\\Hyper-V Hypervisor Root Virtual Processor(*)\\% Total Run Time"));
  EXPECT_TRUE(has(*h, "\\\\HV01\\Hyper-V Hypervisor Logical Processor(*)\\% Total Run Time"));
  EXPECT_FALSE(CounterSet("nope", "").ok());
}

TEST(AgentCounterFile, CommentsBomCrlfAndErrorsNameTheLine) {
  auto f = ParseCounterFile(
      "\xEF\xBB\xBF# extra\r\n\r\n\\Process(*)\\Working Set\r\n  \\\\DB01\\Memory\\Pages/sec  \r\n", "extra.txt");
  ASSERT_TRUE(f.ok()) << f.status().message();
  ASSERT_EQ(f->size(), 2u);
  EXPECT_EQ((*f)[1].machine, "DB01");
  auto bad = ParseCounterFile("\\Memory\\X\nnot a path\n", "extra.txt");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("extra.txt line 2"), std::string::npos);
}

TEST(AgentOptions, ParseAndRefuse) {
  auto o = ParseOptions({"--interval", "5", "--out=D:\\perf", "--set", "hyperv", "--computer", "\\\\HV01", "--max-size",
                         "2", "--rotate-minutes", "30", "--counter", "\\Memory\\Pages/sec"});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->interval_seconds, 5);
  EXPECT_EQ(o->out_dir, "D:\\perf");
  EXPECT_EQ(o->computers, std::vector<std::string>{"HV01"});
  EXPECT_EQ(o->max_bytes, 2u << 20);
  EXPECT_EQ(o->rotate_seconds, 1800);
  auto sel = BuildSelection(*o, {});
  ASSERT_TRUE(sel.ok());
  EXPECT_EQ(sel->back().machine, "HV01") << "extra counters without \\\\NAME go to the selected computers";
  EXPECT_FALSE(ParseOptions({"--interval", "0"}).ok());
  EXPECT_FALSE(ParseOptions({"--interval"}).ok());
  EXPECT_FALSE(ParseOptions({"--set", "bogus"}).ok());
  EXPECT_FALSE(ParseOptions({"--counter", "Memory"}).ok());
  EXPECT_FALSE(ParseOptions({"--prefix", "a/b"}).ok());
  EXPECT_FALSE(ParseOptions({"--frobnicate"}).ok());
  auto none = ParseOptions({"--set", "none"});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(BuildSelection(*none, {}).ok());
  EXPECT_NE(UsageText().find("--rotate-minutes"), std::string::npos);
}

TEST(AgentInstances, DuplicatesNumberedLikePerfmon) {
  std::vector<PdhItem> items = {{"svchost"}, {"Idle"}, {"svchost"}, {"svchost"}, {"chrome:4242"}};
  EXPECT_EQ(NameInstances(items),
            (std::vector<std::string>{"svchost", "Idle", "svchost#1", "svchost#2", "chrome:4242"}));
}

// Runs the agent on a fake for `rows` rows with the given options; returns the files.
std::map<std::string, std::string> RunFake(FakePdh& pdh, Options o, int rows, RunStats* stats,
                                           std::string* log_out = nullptr) {
  o.count = rows;
  auto sel = BuildSelection(o, {});
  EXPECT_TRUE(sel.ok());
  FakeClock clock;
  MemoryFiles files;
  std::ostringstream log;
  Status s = RunAgent(o, *sel, pdh, clock, files, "WEB01", log, stats);
  EXPECT_TRUE(s.ok()) << s.message();
  if (log_out) *log_out = log.str();
  return files.files;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t e = text.find("\r\n", pos);
    out.push_back(text.substr(pos, e - pos));
    pos = e + 2;
  }
  return out;
}

TEST(AgentRun, TwoCollectionsBeforeTheFirstRowValuesNotCappedErrorsBlank) {
  FakePdh pdh = Guest();
  pdh.array_status_at[3] = kPdhCStatusInvalidData;  // the whole third collection's arrays fail
  Options o;
  o.refresh_seconds = 100000;
  RunStats st;
  std::string log;
  auto files = RunFake(pdh, o, 3, &st, &log);
  EXPECT_EQ(pdh.collections, 4) << "one collection at start, then one per row";
  EXPECT_EQ(pdh.open_queries, 0) << "query closed";
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files.begin()->first, "WEB01_20261102-050015.csv");
  auto lines = Lines(files.begin()->second);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(
      lines[0].rfind("\"(PDH-CSV 4.0) (Eastern Standard Time)(300)\",\"\\\\WEB01\\Processor(0)\\% Processor Time\"", 0),
      0u)
      << lines[0];
  EXPECT_NE(lines[0].find("\"\\\\WEB01\\Process(svchost#1)\\% Processor Time\""), std::string::npos);
  EXPECT_NE(lines[0].find("\"\\\\WEB01\\System\\Processor Queue Length\""), std::string::npos);
  EXPECT_EQ(lines[0].find("VM Processor"), std::string::npos) << "optional VMware Tools objects skipped";
  EXPECT_NE(log.find("not on this machine, skipped: \\VM Processor(*)\\% Processor Time"), std::string::npos);
  EXPECT_EQ(lines[1].rfind("\"11/02/2026 05:00:15.000\",\"97.5\",\"40\",\"68.75\"", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("\"180.25\""), std::string::npos) << "Idle above 100% kept";
  EXPECT_EQ(lines[2].rfind("\"11/02/2026 05:00:30.000\",\" \",\" \",\" \"", 0), 0u) << lines[2];
  EXPECT_EQ(lines[2].find_first_of("0123456789", 26), std::string::npos) << "every cell blank in the failed sample";
  EXPECT_EQ(lines[3].rfind("\"11/02/2026 05:00:45.000\",\"97.5\"", 0), 0u) << "the run goes on after it";
  EXPECT_EQ(st.rows, 3);
}

TEST(AgentRun, NewInstancesStartANewFileGoneOnesGoBlank) {
  FakePdh pdh = Guest();
  // Process instances follow the collection number.
  Options o;
  o.interval_seconds = 15;
  o.refresh_seconds = 15;  // refresh at every row
  auto sel = BuildSelection(o, {});
  ASSERT_TRUE(sel.ok());
  FakeClock clock;
  MemoryFiles files;
  std::ostringstream log;
  Sampler sampler(pdh, ResolveSelection(pdh, *sel, nullptr), "WEB01");
  ASSERT_TRUE(sampler.Start(nullptr).ok());
  RotatingWriter writer(files, "WEB01", RotationPolicy{});
  auto set_procs = [&](std::vector<std::string> v) {
    for (auto& [key, c] : pdh.counters)
      if (key.rfind("|Process|", 0) == 0) c.instances = v;
  };
  auto row = [&](bool refresh) {
    clock.now_ms += 15000;
    SampleResult r = sampler.Sample(refresh);
    EXPECT_TRUE(writer.Write(clock.Now(), sampler.HeaderPaths(), r.columns_changed, r.values).ok());
    return r;
  };
  EXPECT_TRUE(row(false).columns_changed);  // first row: columns established
  EXPECT_FALSE(row(true).columns_changed);
  set_procs({"Idle", "job", "svchost", "svchost", "_Total"});
  EXPECT_FALSE(row(false).columns_changed) << "new instances wait for the refresh";
  SampleResult r = row(true);
  EXPECT_TRUE(r.columns_changed);
  set_procs({"Idle", "svchost", "svchost", "_Total"});
  SampleResult gone = row(true);
  EXPECT_FALSE(gone.columns_changed) << "an instance that went away keeps its column";
  writer.Close();
  ASSERT_EQ(files.files.size(), 2u);
  const std::string& second = files.files.at(writer.files()[1]);
  auto lines = Lines(second);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find("\\\\WEB01\\Process(job)\\% Processor Time"), std::string::npos);
  // job's % Processor Time: 55 while it runs, " " after it exits.
  auto header = lines[0];
  size_t col = 0;
  for (size_t p = 0; p < header.find("Process(job)\\% Processor Time"); ++p)
    if (header[p] == ',') ++col;
  auto cell = [&](const std::string& line, size_t c) {
    size_t p = 0;
    for (size_t k = 0; k < c; ++k) p = line.find("\",\"", p) + 2;
    return line.substr(p + 1, line.find('"', p + 1) - p - 1);
  };
  EXPECT_EQ(cell(lines[1], col), "55");
  EXPECT_EQ(cell(lines[2], col), " ");
}

TEST(AgentRun, ProcessV2WhereTheOsHasIt) {
  FakePdh pdh = Guest();
  for (const char* c : {"% Processor Time", "% User Time", "% Privileged Time"})
    pdh.counters[std::string("|Process V2|") + c] = {{"Idle:0", "svchost:812", "svchost:1044", "_Total:0"},
                                                     [](int, const std::string&) { return Val(3); }};
  Options o;
  RunStats st;
  std::string log;
  auto files = RunFake(pdh, o, 1, &st, &log);
  const std::string& text = files.begin()->second;
  EXPECT_NE(text.find("\\\\WEB01\\Process V2(svchost:1044)\\% Processor Time"), std::string::npos);
  EXPECT_EQ(text.find("\\Process("), std::string::npos);
  EXPECT_EQ(text.find("ID Process"), std::string::npos) << "the pid is in the V2 instance name";
  EXPECT_NE(log.find("using Process V2"), std::string::npos);
}

TEST(AgentRun, HyperVWaitTimePerDispatchIsFormattedWithItsBase) {
  FakePdh pdh;
  // Raw value (100 ns ticks summed) and base (dispatches) grow; PDH reports delta value / delta
  // base. The agent must write that, not the raw sum.
  auto per_dispatch = [](int n, const std::string&) {
    if (n == 1) return Bad();
    const double value = 1e6 * n * n, base = 1000.0 * n;
    const double dv = value - 1e6 * (n - 1) * (n - 1), db = base - 1000.0 * (n - 1);
    return Val(dv / db);
  };
  const std::vector<std::string> vps = {"WEB01:Hv VP 0", "WEB01:Hv VP 1", "_Total"};
  for (const char* c : {"% Total Run Time", "% Guest Run Time", "% Hypervisor Run Time"})
    pdh.counters[std::string("HV01|Hyper-V Hypervisor Virtual Processor|") + c] = {
        vps, [](int, const std::string&) { return Val(144.5); }};
  pdh.counters["HV01|Hyper-V Hypervisor Virtual Processor|CPU Wait Time Per Dispatch"] = {vps, per_dispatch};
  for (const char* c : {"% Total Run Time", "% Guest Run Time", "% Hypervisor Run Time", "CPU Wait Time Per Dispatch"})
    pdh.counters[std::string("HV01|Hyper-V Hypervisor Root Virtual Processor|") + c] = {
        {"Root VP 0", "_Total"}, [](int, const std::string&) { return Val(1); }};
  for (const char* c : {"% Total Run Time", "% Guest Run Time", "% Hypervisor Run Time", "% Idle Time"})
    pdh.counters[std::string("HV01|Hyper-V Hypervisor Logical Processor|") + c] = {
        {"Hv LP 0", "Hv LP 1", "_Total"}, [](int, const std::string&) { return Val(2); }};
  auto o = ParseOptions({"--set", "hyperv", "--computer", "HV01"});
  ASSERT_TRUE(o.ok());
  RunStats st;
  auto files = RunFake(pdh, *o, 2, &st);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files.begin()->first.rfind("HV01_", 0), 0u);
  auto lines = Lines(files.begin()->second);
  EXPECT_NE(
      lines[0].find("\"\\\\HV01\\Hyper-V Hypervisor Virtual Processor(WEB01:Hv VP 1)\\CPU Wait Time Per Dispatch\""),
      std::string::npos);
  // Collection 2: (4e6-1e6)/(2000-1000) = 3000; collection 3: (9e6-4e6)/1000 = 5000.
  EXPECT_NE(lines[1].find("\"3000\""), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("\"5000\""), std::string::npos) << lines[2];
  EXPECT_NE(lines[1].find("\"144.5\""), std::string::npos) << "run time above 100% not capped";
}

TEST(AgentRun, RequiredCounterMissingIsAnErrorNamingIt) {
  FakePdh pdh = Guest();
  auto o = ParseOptions({"--counter", "\\No Such Object\\Foo"});
  ASSERT_TRUE(o.ok());
  auto sel = BuildSelection(*o, {});
  ASSERT_TRUE(sel.ok());
  FakeClock clock;
  MemoryFiles files;
  std::ostringstream log;
  Status s = RunAgent(*o, *sel, pdh, clock, files, "WEB01", log, nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("\\No Such Object\\Foo"), std::string::npos);
  EXPECT_TRUE(files.files.empty());
  EXPECT_EQ(pdh.open_queries, 0);
}

TEST(AgentRun, RotatesBySizeAndByTime) {
  {
    FakePdh pdh = Guest();
    Options o;
    o.max_bytes = 2500;
    o.rotate_seconds = 0;
    RunStats st;
    auto files = RunFake(pdh, o, 10, &st);
    EXPECT_GT(files.size(), 1u) << files.begin()->second.size();
    for (const auto& [name, text] : files) {
      EXPECT_LE(text.size(), 2500u) << name;
      EXPECT_EQ(text.rfind("\"(PDH-CSV 4.0)", 0), 0u) << "every file has its header";
    }
  }
  {
    FakePdh pdh = Guest();
    Options o;
    o.rotate_seconds = 60;  // 4 rows of 15 s per file
    RunStats st;
    auto files = RunFake(pdh, o, 10, &st);
    EXPECT_EQ(files.size(), 3u);
  }
}

TEST(AgentRun, StopsWhenAskedAndOnDuration) {
  FakePdh pdh = Guest();
  Options o;
  o.duration_seconds = 60;
  auto sel = BuildSelection(o, {});
  FakeClock clock;
  MemoryFiles files;
  std::ostringstream log;
  RunStats st;
  ASSERT_TRUE(RunAgent(o, *sel, pdh, clock, files, "WEB01", log, &st).ok());
  EXPECT_EQ(st.rows, 4);
  FakePdh pdh2 = Guest();
  FakeClock clock2;
  clock2.stop_at_ms = clock2.now_ms + 31000;
  o.duration_seconds = 0;
  RunStats st2;
  ASSERT_TRUE(RunAgent(o, *sel, pdh2, clock2, files, "WEB01", log, &st2).ok());
  EXPECT_EQ(st2.rows, 2);
  EXPECT_EQ(pdh2.open_queries, 0);
}

}  // namespace
}  // namespace vrecon::agent::testing
