#include "adapters/perfmon/counter_names.h"

#include <gtest/gtest.h>

#include "adapters/perfmon/counter_path.h"

namespace vrecon::perfmon {
namespace {

TEST(CounterNamesTest, CpuCountersInFiveLanguages) {
  struct Case {
    const char* object;
    const char* counter;
  } cases[] = {
      {"Processor", "% Processor Time"},           {"Prozessor", "Prozessorzeit (%)"},
      {"Processeur", "% temps processeur"},        {"Procesador", "% de tiempo de procesador"},
      {"Процессор", "% загруженности процессора"},
  };
  for (const Case& c : cases) {
    const std::string obj = EnglishObject(c.object);
    EXPECT_EQ(obj, "Processor") << c.object;
    EXPECT_EQ(EnglishCounter(obj, c.counter), "% Processor Time") << c.counter;
  }
  EXPECT_EQ(EnglishObject("Процесс"), "Process");
  EXPECT_EQ(EnglishObject("Prozess"), "Process");
  EXPECT_EQ(EnglishObject("Processus"), "Process");
  EXPECT_EQ(EnglishObject("Proceso"), "Process");
  EXPECT_EQ(EnglishCounter("System", "Длина очереди процессора"), "Processor Queue Length");
  EXPECT_EQ(EnglishCounter("Process", "Prozesskennung"), "ID Process");
  EXPECT_EQ(EnglishObject("LogicalDisk"), "LogicalDisk") << "unknown names stay as they are";
}

TEST(CounterNamesTest, Units) {
  EXPECT_EQ(UnitOf("% Processor Time"), "percent");
  EXPECT_EQ(UnitOf("Disk Transfers/sec"), "per_second");
  EXPECT_EQ(UnitOf("CPU Wait Time Per Dispatch"), "ns");
  EXPECT_EQ(UnitOf("Available MBytes"), "MB");
  EXPECT_EQ(UnitOf("Effective VM Speed in MHz"), "MHz");
  EXPECT_EQ(UnitOf("Processor Queue Length"), "count");
}

TEST(CounterPathTest, KeepsParentIndexAndPid) {
  auto p = ParseCounterPath("\\\\SRV\\Thread(svchost/3#2)\\% Processor Time");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->machine, "SRV");
  EXPECT_EQ(p->object, "Thread");
  EXPECT_EQ(p->instance, "svchost/3#2");
  auto v2 = ParseCounterPath("\\\\SRV\\Process V2(chrome:1234)\\% Processor Time");
  EXPECT_EQ(v2->instance, "chrome:1234");
  auto nested = ParseCounterPath("\\\\SRV\\Network Interface(isatap.{E40-4B})\\Bytes Total/sec");
  EXPECT_EQ(nested->instance, "isatap.{E40-4B}");
  auto paren = ParseCounterPath("\\\\SRV\\Process(svchost (netsvcs))\\ID Process");
  EXPECT_EQ(paren->instance, "svchost (netsvcs)");
  auto none = ParseCounterPath("\\\\SRV\\Memory\\Available MBytes");
  EXPECT_EQ(none->instance, "");
  EXPECT_FALSE(ParseCounterPath("not a path"));
}

}  // namespace
}  // namespace vrecon::perfmon
