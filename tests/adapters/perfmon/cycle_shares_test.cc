// The Perfmon reader turns the agent's cycle counts into shares (adapters/perfmon/cycle_shares.h):
// each process's share of all cycles x 100 x processors, the busy share of all processors, no
// share without the row before, for a count that went down, on ARM64 before build 26100; a log
// without cycle columns passes as it is.
#include "adapters/perfmon/cycle_shares.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "adapters/perfmon/perfmon_reader.h"
#include "src/core/cycle_columns.h"
#include "tests/support/capture_sink.h"
#include "tests/support/reader_options.h"

namespace vrecon::perfmon {
namespace {

using vrecon::testing::CaptureSink;

// An agent's cycles file: two processes, two processors in one group, then the build and
// architecture. Counts are cumulative; `total` is the agent's running count of every cycle.
std::string CyclesLog(const std::string& build, const std::string& arch) {
  return "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\WEB01\\vrecon Process Cycles(sql:10)\\Cycles\","
         "\"\\\\WEB01\\vrecon Process Cycles(web:20)\\Cycles\",\"\\\\WEB01\\vrecon Processor Cycles(0,0)\\Idle "
         "Cycles\","
         "\"\\\\WEB01\\vrecon Processor Cycles(0,1)\\Idle Cycles\",\"\\\\WEB01\\vrecon Processor "
         "Cycles(_Total)\\Cycles\","
         "\"\\\\WEB01\\vrecon System\\OS Build\",\"\\\\WEB01\\vrecon System\\Architecture\"\r\n"
         // 60,000 cycles in each 15 s interval over the two processors (30,000 each).
         "\"11/02/2026 10:00:00.000\",\"1000\",\"2000\",\"500\",\"700\",\"0\",\"" +
         build + "\",\"" + arch +
         "\"\r\n"
         // sql +15,000 (25% of all, 50% of one CPU), web +3,000, idle +30,000 +12,000 (busy 30%).
         "\"11/02/2026 10:00:15.000\",\"16000\",\"5000\",\"30500\",\"12700\",\"60000\",\"" +
         build + "\",\"" + arch +
         "\"\r\n"
         // A failed read (blank counts), then a row whose shares span both intervals; web's pid was
         // reused (its count went down).
         "\"11/02/2026 10:00:30.000\",\" \",\" \",\" \",\" \",\" \",\" \",\" \"\r\n"
         "\"11/02/2026 10:00:45.000\",\"46000\",\"100\",\"60500\",\"48700\",\"180000\",\"" +
         build + "\",\"" + arch + "\"\r\n";
}

size_t Column(const CaptureSink& sink, const std::string& object, const std::string& instance,
              const std::string& counter) {
  for (size_t i = 0; i < sink.columns_.size(); ++i)
    if (sink.columns_[i].object == object && sink.columns_[i].instance == instance &&
        sink.columns_[i].counter == counter)
      return i;
  ADD_FAILURE() << "no column " << object << "(" << instance << ")\\" << counter;
  return 0;
}

TEST(CycleSharesTest, SharesOfAllCyclesTimesProcessorsAndTheBusyShare) {
  CaptureSink sink;
  PerfmonReader reader(vrecon::testing::Options("agent.csv"), &sink);
  ASSERT_TRUE(vrecon::testing::ReadInChunks(reader, CyclesLog("20348", "9")).ok());
  ASSERT_EQ(sink.columns_.size(), 10u) << "7 read and 3 shares";
  const size_t sql = Column(sink, kProcessCyclesObject, "sql:10", kCyclesPctCounter);
  const size_t web = Column(sink, kProcessCyclesObject, "web:20", kCyclesPctCounter);
  const size_t total = Column(sink, kProcessorCyclesObject, "_Total", kCyclesPctCounter);
  EXPECT_EQ(sink.columns_[sql].unit, "percent");
  EXPECT_EQ(sink.columns_[sql].machine, "WEB01");
  ASSERT_EQ(sink.rows_.size(), 4u);
  // The first row has no row before it.
  EXPECT_TRUE(std::isnan(sink.rows_[0].values[sql]));
  EXPECT_TRUE(std::isnan(sink.rows_[0].values[total]));
  EXPECT_DOUBLE_EQ(sink.rows_[1].values[sql], 50);  // 15,000 / 60,000 x 100 x 2
  EXPECT_DOUBLE_EQ(sink.rows_[1].values[web], 10);
  EXPECT_DOUBLE_EQ(sink.rows_[1].values[total], 30);  // (60,000 - 42,000) / 60,000
  EXPECT_DOUBLE_EQ(sink.rows_[1].values[0], 16000) << "the counts are stored as read";
  // The failed read: no counts, no shares.
  EXPECT_TRUE(std::isnan(sink.rows_[2].values[sql]));
  EXPECT_TRUE(std::isnan(sink.rows_[2].values[total]));
  // After it the shares start from the last counts read, two intervals back: sql +30,000 of
  // 120,000, idle +30,000 +36,000; web's count went down.
  EXPECT_DOUBLE_EQ(sink.rows_[3].values[sql], 50);
  EXPECT_TRUE(std::isnan(sink.rows_[3].values[web]));
  EXPECT_DOUBLE_EQ(sink.rows_[3].values[total], 45);
  EXPECT_TRUE(sink.issues_.empty());
}

TEST(CycleSharesTest, AProcessorWithoutItsIdleCountStillCountsAsAProcessor) {
  std::string log = CyclesLog("20348", "9");
  // The second row's second idle count blank: the processes' shares stand, the busy share has no
  // base.
  const std::string row = "\"16000\",\"5000\",\"30500\",\"12700\",\"60000\"";
  log.replace(log.find(row), row.size(), "\"16000\",\"5000\",\"30500\",\" \",\"60000\"");
  CaptureSink sink;
  PerfmonReader reader(vrecon::testing::Options("agent.csv"), &sink);
  ASSERT_TRUE(vrecon::testing::ReadInChunks(reader, log).ok());
  const size_t sql = Column(sink, kProcessCyclesObject, "sql:10", kCyclesPctCounter);
  const size_t total = Column(sink, kProcessorCyclesObject, "_Total", kCyclesPctCounter);
  ASSERT_EQ(sink.rows_.size(), 4u);
  EXPECT_DOUBLE_EQ(sink.rows_[1].values[sql], 50);
  EXPECT_TRUE(std::isnan(sink.rows_[1].values[total]));
}

TEST(CycleSharesTest, NoShareOnArm64BeforeBuild26100AndTheIssueSaysWhy) {
  CaptureSink sink;
  PerfmonReader reader(vrecon::testing::Options("arm.csv"), &sink);
  ASSERT_TRUE(vrecon::testing::ReadInChunks(reader, CyclesLog("22631", "12")).ok());
  const size_t sql = Column(sink, kProcessCyclesObject, "sql:10", kCyclesPctCounter);
  for (const auto& row : sink.rows_) EXPECT_TRUE(std::isnan(row.values[sql]));
  ASSERT_EQ(sink.issues_.size(), 1u);
  EXPECT_EQ(sink.issues_[0].code, "cycles-idle-unrepresentative");
  EXPECT_EQ(sink.issues_[0].file, "arm.csv");
  EXPECT_NE(sink.issues_[0].message.find("WEB01 is ARM64 on Windows build 22631"), std::string::npos)
      << sink.issues_[0].message;

  CaptureSink later;
  PerfmonReader estimating(vrecon::testing::Options("arm24h2.csv"), &later);
  ASSERT_TRUE(vrecon::testing::ReadInChunks(estimating, CyclesLog("26100", "12")).ok());
  EXPECT_DOUBLE_EQ(later.rows_[1].values[sql], 50) << "build 26100 estimates idle cycles";
  EXPECT_TRUE(later.issues_.empty());
}

TEST(CycleSharesTest, AResumedIngestTakesTheStoredRowAsItsBase) {
  CaptureSink sink;
  ReaderOptions o = vrecon::testing::Options("agent.csv");
  o.resume_lookup = [](uint64_t) { return ResumePoint{2, 0}; };  // the header and the first row stored
  PerfmonReader reader(o, &sink);
  ASSERT_TRUE(vrecon::testing::ReadInChunks(reader, CyclesLog("20348", "9")).ok());
  ASSERT_EQ(sink.rows_.size(), 3u);
  const size_t sql = Column(sink, kProcessCyclesObject, "sql:10", kCyclesPctCounter);
  EXPECT_DOUBLE_EQ(sink.rows_[0].values[sql], 50) << "the share from the stored row's counts";
}

TEST(CycleSharesTest, ALogWithoutCycleColumnsPassesAsItIs) {
  CaptureSink sink;
  PerfmonReader reader(vrecon::testing::Options("plain.csv"), &sink);
  ASSERT_TRUE(vrecon::testing::ReadInChunks(reader,
                                            "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\WEB01\\Processor(_Total)\\% Processor "
                                            "Time\"\r\n\"11/02/2026 10:00:00.000\",\"12\"\r\n"
                                            "\"11/02/2026 10:00:15.000\",\"14\"\r\n")
                  .ok());
  ASSERT_EQ(sink.columns_.size(), 1u);
  ASSERT_EQ(sink.rows_.size(), 2u);
  EXPECT_DOUBLE_EQ(sink.rows_[1].values[0], 14);
}

}  // namespace
}  // namespace vrecon::perfmon
