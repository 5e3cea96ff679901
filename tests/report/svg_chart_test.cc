#include "src/report/svg_chart.h"

#include <gtest/gtest.h>

#include <regex>

#include "src/report/flags_doc.h"

#include "tests/support/time_units.h"

namespace vrecon::report {
namespace {

using vrecon::testing::kMin;

TEST(SvgChartTest, BucketsKeepMinMeanMaxAndGaps) {
  Buckets b(0, 40 * kMin, 4);  // 10-minute buckets
  b.Add(0, 5 * kMin, 10.0);
  b.Add(5 * kMin, 10 * kMin, 30.0);
  b.Add(30 * kMin, 35 * kMin, std::nullopt);  // unknown: no value, bucket stays empty
  b.Add(20 * kMin, 25 * kMin, 7.0);
  EXPECT_DOUBLE_EQ(*b.mean(0), 20.0);
  EXPECT_DOUBLE_EQ(*b.min(0), 10.0);
  EXPECT_DOUBLE_EQ(*b.max(0), 30.0);
  EXPECT_FALSE(b.mean(1));
  EXPECT_DOUBLE_EQ(*b.mean(2), 7.0);
  EXPECT_FALSE(b.mean(3));
  EXPECT_EQ(b.Index(40 * kMin, 45 * kMin), -1);
}

TEST(SvgChartTest, AxisHelpers) {
  EXPECT_DOUBLE_EQ(NiceMax(73), 100);
  EXPECT_DOUBLE_EQ(NiceMax(1.21), 2);
  EXPECT_DOUBLE_EQ(NiceMax(12), 20);
  EXPECT_DOUBLE_EQ(NiceMax(0), 1);
  EXPECT_EQ(TimeTickStep(10 * kMin, 8), 5 * kMin);
  EXPECT_EQ(TimeTickStep(7 * 24 * 60 * kMin, 8), 24 * 60 * kMin);
  EXPECT_LE(30 * 24 * 60 * kMin / TimeTickStep(30 * 24 * 60 * kMin, 8), 8);
}

TEST(SvgChartTest, ChartDrawsLinesOrSaysDataIsMissing) {
  Buckets b(0, 20 * kMin, 4);
  b.Add(0, 5 * kMin, 50.0);
  b.Add(5 * kMin, 10 * kMin, 60.0);
  b.Add(15 * kMin, 20 * kMin, 40.0);  // alone after a gap: drawn across its bucket
  ChartSpec spec;
  spec.title = "t <&>";
  spec.y_label = "CPU (%)";
  spec.series = {{"guest", "#123456", &b, false, false, false}};
  const std::string svg = RenderChart(spec, 0, 20 * kMin);
  EXPECT_NE(svg.find("<title>t &lt;&amp;&gt;</title>"), std::string::npos);
  EXPECT_NE(svg.find("d=\"M"), std::string::npos);
  const size_t d = svg.find("class=\"line\" stroke=\"#123456\" d=\"");
  ASSERT_NE(d, std::string::npos);
  const size_t from = svg.find("d=\"", d) + 3;
  const std::string path = svg.substr(from, svg.find('"', from) - from);
  // Two runs (a gap between): two moves, four points in all ("M x y" then relative "l dx dy").
  EXPECT_EQ(std::count(path.begin(), path.end(), 'M'), 2) << path;
  const std::regex number("-?[0-9]+");
  EXPECT_EQ(std::distance(std::sregex_iterator(path.begin(), path.end(), number), std::sregex_iterator()), 8) << path;
  EXPECT_EQ(svg.find("no data"), std::string::npos);

  Buckets empty(0, 20 * kMin, 4);
  spec.series = {{"guest", "#123456", &empty, false, false, false}};
  const std::string none = RenderChart(spec, 0, 20 * kMin);
  EXPECT_NE(none.find("no data for this chart in this period"), std::string::npos);
  EXPECT_NE(none.find("time (UTC)"), std::string::npos);  // axes still drawn
}

TEST(SvgChartTest, SharedPartsAreDefinedOnceAndUsed) {
  Buckets a(0, 20 * kMin, 4), b(0, 20 * kMin, 4);
  a.Add(0, 5 * kMin, 50.0);
  b.Add(0, 5 * kMin, 90.0);
  ChartSpec spec;
  spec.title = "one";
  spec.y_label = "CPU (%)";
  spec.series = {{"guest", "#123456", &a, false, false, false}};
  SvgDefs defs;
  const std::string first = RenderChart(spec, 0, 20 * kMin, &defs);
  spec.title = "two";
  spec.series[0].data = &b;
  const std::string second = RenderChart(spec, 0, 20 * kMin, &defs);
  const std::string later = RenderChart(spec, 0, 40 * kMin, &defs);  // another period: another time axis
  EXPECT_NE(first.find("<use href=\"#c0\"/>"), std::string::npos);
  EXPECT_NE(second.find("<use href=\"#c0\"/>"), std::string::npos);
  EXPECT_NE(later.find("<use href=\"#c1\"/>"), std::string::npos);
  // The data and its tick labels stay in each chart; axis titles and legend are in the block, once.
  EXPECT_EQ(first.find("time (UTC)"), std::string::npos);
  EXPECT_NE(second.find(">100</text>"), std::string::npos);
  const std::string block = defs.Block();
  EXPECT_EQ(block.find("<svg class=\"defs\""), 0u);
  EXPECT_NE(block.find("<g id=\"c0\">"), std::string::npos);
  EXPECT_NE(block.find("<g id=\"c1\">"), std::string::npos);
  EXPECT_EQ(block.find("<g id=\"c2\">"), std::string::npos);
  EXPECT_NE(block.find("time (UTC)"), std::string::npos);
  // Styled by attributes: <use> clones do not get the page's CSS.
  EXPECT_NE(block.find("<rect class=\"frame\" fill=\"none\""), std::string::npos);
  EXPECT_EQ(SvgDefs().Block(), "");
}

TEST(FlagsDocTest, EveryFlagOfTheDocIsEmbedded) {
  const std::vector<FlagDoc> docs = ParseFlagDocs(FlagsMarkdown());
  ASSERT_GE(docs.size(), 8u);
  bool idle = false;
  for (const FlagDoc& d : docs) {
    EXPECT_FALSE(d.severity.empty()) << d.code;
    EXPECT_FALSE(d.when.empty()) << d.code;
    if (d.code == "idle-guest") idle = d.severity == "info";
  }
  EXPECT_TRUE(idle);
  EXPECT_EQ(InlineMarkdownToHtml("`a<b` see [ready.md](ready.md) **now**"),
            "<code>a&lt;b</code> see ready.md <b>now</b>");
}

}  // namespace
}  // namespace vrecon::report
