// The host counter choice (src/core/host_counters.h): the options' words, the counters they name
// and back.
#include "src/core/host_counters.h"

#include <gtest/gtest.h>

namespace vrecon {
namespace {

TEST(HostCountersTest, EachWordNamesOneCounterAndComesBack) {
  for (const std::string& w : HyperVCounterWords()) EXPECT_EQ(OptionWord(*ParseHyperVCounter(w)), w);
  for (const std::string& w : VsphereCounterWords()) EXPECT_EQ(OptionWord(*ParseVsphereCounter(w)), w);
  for (const std::string& w : EsxtopCounterWords()) EXPECT_EQ(OptionWord(*ParseEsxtopCounter(w)), w);
  EXPECT_EQ(CounterName(*ParseVsphereCounter("usage")), "cpu.usage.average");
  EXPECT_EQ(CounterName(*ParseVsphereCounter("run")), "cpu.run.summation");
  EXPECT_EQ(CounterName(*ParseEsxtopCounter("used")), "% Used");
  EXPECT_EQ(CounterName(*ParseEsxtopCounter("run")), "% Run");
  EXPECT_EQ(CounterName(*ParseHyperVCounter("total")), "% Total Run Time");
  EXPECT_EQ(CounterName(*ParseHyperVCounter("guest")), "% Guest Run Time");
}

TEST(HostCountersTest, TheDefaultsAreEachSourcesUsualCounter) {
  const HostCounterChoice c;
  EXPECT_EQ(CounterName(c.hyperv), kHyperVTotalRunCounter);
  EXPECT_EQ(CounterName(c.vsphere), kVsphereUsageCounter);
  EXPECT_EQ(CounterName(c.esxtop), kEsxtopUsedCounter);
  EXPECT_EQ(HyperVCounterWords().front(), "total") << "the default is listed first";
  EXPECT_EQ(VsphereCounterWords().front(), "usage");
  EXPECT_EQ(EsxtopCounterWords().front(), "used");
}

TEST(HostCountersTest, OtherWordsNameNothing) {
  EXPECT_FALSE(ParseVsphereCounter("used"));
  EXPECT_FALSE(ParseVsphereCounter("Run")) << "words are exact, as CLI11's check is";
  EXPECT_FALSE(ParseEsxtopCounter("usage"));
  EXPECT_FALSE(ParseHyperVCounter(""));
  EXPECT_FALSE(ParseHyperVCounter("cpu.run.summation")) << "a counter's name is not its word";
}

TEST(HostCountersTest, MustBeOneOfListsTheWords) {
  EXPECT_EQ(MustBeOneOf(VsphereCounterWords()), "must be \"usage\" or \"run\"");
  EXPECT_EQ(MustBeOneOf({"a"}), "must be \"a\"");
  EXPECT_EQ(MustBeOneOf({"a", "b", "c"}), "must be \"a\", \"b\" or \"c\"");
}

}  // namespace
}  // namespace vrecon
