#include "adapters/powercli/powercli_csv.h"

#include <gtest/gtest.h>

#include "src/core/text_util.h"
#include "tests/support/capture_sink.h"
#include "tests/support/reader_options.h"

namespace vrecon::powercli {
namespace {

// Keeps every column set with its rows (CaptureSink keeps only the last set).
class SetSink : public SampleSink {
 public:
  struct Set {
    std::vector<SeriesKey> columns;
    std::vector<vrecon::testing::CapturedRow> rows;
  };
  Status DeclareColumns(const std::vector<SeriesKey>& columns) override {
    sets.push_back(Set{columns, {}});
    return Status::Ok();
  }
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override {
    if (sets.empty()) return Status::InvalidArgument("row before DeclareColumns");
    if (values.size() != sets.back().columns.size()) return Status::InvalidArgument("row width");
    sets.back().rows.push_back({start, end, std::vector<double>(values.begin(), values.end())});
    return Status::Ok();
  }
  void AddIssue(ImportIssue issue) override { issues.push_back(std::move(issue)); }
  const Set* Find(std::string_view machine, std::string_view counter, std::string_view instance) const {
    for (const Set& s : sets)
      if (s.columns.size() == 1 && s.columns[0].machine == machine && s.columns[0].counter == counter &&
          s.columns[0].instance == instance)
        return &s;
    return nullptr;
  }
  std::vector<std::string> Codes() const {
    std::vector<std::string> out;
    for (const ImportIssue& i : issues) out.push_back(std::to_string(i.line) + ":" + i.code);
    return out;
  }
  std::vector<Set> sets;
  std::vector<ImportIssue> issues;
};

constexpr const char* kHeader =
    "\"Value\",\"Timestamp\",\"MetricId\",\"Unit\",\"Description\",\"Entity\",\"EntityId\",\"IntervalSecs\","
    "\"Instance\"\r\n";

std::string Row(const std::string& value, const std::string& time, const std::string& metric, const std::string& unit,
                const std::string& instance, const std::string& entity = "WEB01", const std::string& interval = "20") {
  return "\"" + value + "\",\"" + time + "\",\"" + metric + "\",\"" + unit + "\",\"a, \"\"quoted\"\" text\",\"" +
         entity + "\",\"VirtualMachine-vm-1085\",\"" + interval + "\",\"" + instance + "\"\r\n";
}

Status ParseAll(std::string_view text, size_t chunk, SampleSink* sink, ReaderOptions opts = {}) {
  if (opts.file.empty()) opts.file = "x.csv";
  PowerCliReader p(opts, sink);
  return testing::ReadInChunks(p, text, chunk);
}

TimeNs Utc(const char* iso) { return *ParseIso(iso); }

TEST(PowerCliCsvTest, ConvertsUnitsAndPlacesIntervals) {
  const std::string text = "#TYPE VMware.VimAutomation.ViCore.Impl.V1.Stat.FloatSampleImpl\r\n" + std::string(kHeader) +
                           Row("0.55", "5/5/2026 6:41:20 PM", "cpu.usage.average", "%", "") +
                           Row("105", "5/5/2026 6:41:20 PM", "cpu.ready.summation", "millisecond", "") +
                           Row("60", "5/5/2026 6:41:20 PM", "cpu.ready.summation", "ms", "0");
  SetSink sink;
  PowerCliReader p(testing::Options("x.csv"), &sink);
  ASSERT_TRUE(p.Parse(text).ok());
  ASSERT_TRUE(p.Finish().ok());
  EXPECT_EQ(p.type_name(), "VMware.VimAutomation.ViCore.Impl.V1.Stat.FloatSampleImpl");
  EXPECT_EQ(p.summary().rows, 3);
  ASSERT_EQ(p.summary().columns.size(), 3u);

  const auto* usage = sink.Find("WEB01", "cpu.usage.average", "");
  ASSERT_NE(usage, nullptr);
  const SeriesKey& k = usage->columns[0];
  EXPECT_EQ(k.source, SourceKind::kVsphere);
  EXPECT_EQ(k.object, "cpu");
  EXPECT_EQ(k.unit, "percent");
  EXPECT_EQ(k.original, "powercli:cpu.usage.average");
  ASSERT_EQ(usage->rows.size(), 1u);
  EXPECT_EQ(usage->rows[0].values[0], 0.55) << "PowerCLI already gives percent";
  EXPECT_EQ(usage->rows[0].end, Utc("2026-05-05T18:41:20Z"));
  EXPECT_EQ(usage->rows[0].start, Utc("2026-05-05T18:41:00Z")) << "[Timestamp - IntervalSecs, Timestamp]";

  const auto* ready = sink.Find("WEB01", "cpu.ready.summation", "");
  ASSERT_NE(ready, nullptr);
  EXPECT_DOUBLE_EQ(ready->rows[0].values[0], 0.525) << "105 ms of 20 s";
  const auto* ready0 = sink.Find("WEB01", "cpu.ready.summation", "0");
  ASSERT_NE(ready0, nullptr);
  EXPECT_DOUBLE_EQ(ready0->rows[0].values[0], 0.3);
  EXPECT_EQ(ready0->columns[0].unit, "percent");
  EXPECT_EQ(sink.Codes(), std::vector<std::string>{"3:no-bias"});
}

// Get-Stat of a host (EntityId "HostSystem-...") is the host's own counters, stored as such,
// never read as a VM of the host's name.
TEST(PowerCliCsvTest, AHostsRowsAreTheHostsOwnCounters) {
  std::string host = Row("37.5", "5/5/2026 6:41:20 PM", "cpu.utilization.average", "%", "", "esx01");
  host.replace(host.find("VirtualMachine-vm-1085"), 22, "HostSystem-host-12");
  const std::string text =
      std::string(kHeader) + host + Row("0.55", "5/5/2026 6:41:20 PM", "cpu.usage.average", "%", "");
  SetSink sink;
  ASSERT_TRUE(ParseAll(text, text.size(), &sink).ok());
  const auto* h = sink.Find("esx01", "cpu.utilization.average", "");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->columns[0].source, SourceKind::kVsphereHost);
  EXPECT_EQ(h->rows[0].values[0], 37.5);
  const auto* vm = sink.Find("WEB01", "cpu.usage.average", "");
  ASSERT_NE(vm, nullptr);
  EXPECT_EQ(vm->columns[0].source, SourceKind::kVsphere);
}

TEST(PowerCliCsvTest, MinusOneAndEmptyAreMissingNeverZero) {
  const std::string text = std::string(kHeader) + Row("-1", "5/5/2026 6:41:20 PM", "cpu.ready.summation", "ms", "") +
                           Row("", "5/5/2026 6:41:00 PM", "cpu.ready.summation", "ms", "") +
                           Row("0", "5/5/2026 6:40:40 PM", "cpu.ready.summation", "ms", "");
  SetSink sink;
  ASSERT_TRUE(ParseAll(text, 1 << 20, &sink).ok());
  const auto* s = sink.Find("WEB01", "cpu.ready.summation", "");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->rows.size(), 3u);
  EXPECT_EQ(s->rows[0].values[0], 0.0) << "a real zero stays zero (rows sorted by time)";
  EXPECT_TRUE(IsMissing(s->rows[1].values[0]));
  EXPECT_TRUE(IsMissing(s->rows[2].values[0]));
}

TEST(PowerCliCsvTest, GroupsAreSortedByTimeAndEachInstanceIsItsOwnSet) {
  // Newest first, instances interleaved, a second entity, then the first entity again.
  const std::string text = std::string(kHeader) + Row("3", "5/5/2026 6:41:20 PM", "cpu.ready.summation", "ms", "") +
                           Row("1", "5/5/2026 6:41:20 PM", "cpu.ready.summation", "ms", "1") +
                           Row("2", "5/5/2026 6:41:00 PM", "cpu.ready.summation", "ms", "") +
                           Row("4", "5/5/2026 6:41:00 PM", "cpu.usage.average", "%", "", "APP02") +
                           Row("5", "5/5/2026 6:41:00 PM", "cpu.usage.average", "%", "");
  SetSink sink;
  ASSERT_TRUE(ParseAll(text, 5, &sink).ok());
  ASSERT_EQ(sink.sets.size(), 4u);
  EXPECT_EQ(sink.sets[0].columns[0].instance, "") << "the aggregate comes first";
  EXPECT_EQ(sink.sets[1].columns[0].instance, "1");
  ASSERT_EQ(sink.sets[0].rows.size(), 2u);
  EXPECT_LT(sink.sets[0].rows[0].end, sink.sets[0].rows[1].end);
  EXPECT_DOUBLE_EQ(sink.sets[0].rows[0].values[0], 0.01);  // 2 ms of 20 s
  EXPECT_EQ(sink.sets[2].columns[0].machine, "APP02");
  EXPECT_EQ(sink.sets[3].columns[0].machine, "WEB01");
}

TEST(PowerCliCsvTest, BadRowsAreIssuesAndReadingGoesOn) {
  const std::string text = std::string(kHeader) +
                           Row("1", "5/5/2026 6:41:20 PM", "cpu.usage.average", "%", "") +                // line 2
                           "\"2\",\"5/5/2026 6:41:00 PM\",\"cpu.usage.average\"\r\n" +                    // 3 ragged
                           Row("3", "not a time", "cpu.usage.average", "%", "") +                         // 4
                           Row("x7", "5/5/2026 6:40:20 PM", "cpu.usage.average", "%", "") +               // 5
                           Row("4", "5/5/2026 6:40:00 PM", "cpu.usage.average", "%", "", "WEB01", "0") +  // 6
                           Row("5", "5/5/2026 6:41:20 PM", "cpu.usage.average", "%", "") +                // 7 duplicate
                           "\"6\",\"5/5/2026 6:39:20 PM\",\"cpu.usage.average\",\"%\",\"unclosed,\"WEB01\"\r\n" +  // 8
                           Row("7", "5/5/2026 6:39:00 PM", "cpu.usage.average", "%", "");                          // 9
  SetSink sink;
  PowerCliReader p(testing::Options("x.csv", 0), &sink);
  ASSERT_TRUE(p.Parse(text).ok());
  ASSERT_TRUE(p.Finish().ok());
  EXPECT_EQ(sink.Codes(), (std::vector<std::string>{"2:no-bias", "3:ragged-row", "4:bad-timestamp", "5:non-numeric",
                                                    "6:bad-interval", "8:ragged-row", "7:duplicate-sample"}));
  EXPECT_EQ(p.summary().rows, 2);
  EXPECT_EQ(sink.issues[0].file, "x.csv");
}

TEST(PowerCliCsvTest, NoReadableRowIsOneError) {
  SetSink sink;
  Status s = ParseAll(std::string(kHeader) + Row("1", "soon", "cpu.usage.average", "%", ""), 1 << 20, &sink);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("none of the data rows of x.csv"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("line 2"), std::string::npos) << s.message();
  EXPECT_FALSE(ParseAll(kHeader, 1 << 20, &sink).ok());
  EXPECT_FALSE(ParseAll("", 1 << 20, &sink).ok());
  Status missing = ParseAll("\"Value\",\"Timestamp\",\"MetricId\",\"Entity\"\n\"1\",\"x\",\"y\",\"z\"\n", 64, &sink);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("IntervalSecs"), std::string::npos) << missing.message();
}

TEST(PowerCliCsvTest, TzBiasShiftsZoneLessTimesAndOffsetsWin) {
  const std::string text = std::string(kHeader) + Row("1", "05.05.2026 18:41:20", "cpu.usage.average", "%", "") +
                           Row("2", "2026-05-05T18:41:20.0000000+02:00", "cpu.usage.average", "%", "", "APP02");
  SetSink sink;
  PowerCliReader p(testing::Options("x.csv", -120), &sink);
  ASSERT_TRUE(p.Parse(text).ok());
  ASSERT_TRUE(p.Finish().ok());
  ASSERT_NE(sink.Find("WEB01", "cpu.usage.average", ""), nullptr);
  EXPECT_EQ(sink.Find("WEB01", "cpu.usage.average", "")->rows[0].end, Utc("2026-05-05T16:41:20Z"));
  EXPECT_EQ(sink.Find("APP02", "cpu.usage.average", "")->rows[0].end, Utc("2026-05-05T16:41:20Z"));
  ASSERT_EQ(sink.issues.size(), 1u);
  EXPECT_EQ(sink.issues[0].code, "no-bias");
  EXPECT_NE(sink.issues[0].message.find("--tz-bias -120"), std::string::npos) << sink.issues[0].message;
}

TEST(PowerCliCsvTest, ResumeSkipsStoredLinesQuietly) {
  const std::string text = std::string(kHeader) + Row("1", "5/5/2026 6:41:20 PM", "cpu.usage.average", "%", "") +
                           "\"ragged\"\r\n" + Row("2", "5/5/2026 6:41:40 PM", "cpu.usage.average", "%", "");
  uint64_t fp = 0;
  SetSink first;
  {
    PowerCliReader p(testing::Options("x.csv", std::nullopt,
                                      [&](uint64_t f) {
                                        fp = f;
                                        return ResumePoint{};
                                      }),
                     &first);
    ASSERT_TRUE(p.Parse(text).ok());
    ASSERT_TRUE(p.Finish().ok());
    EXPECT_EQ(p.summary().consumed_lines, 4);
    EXPECT_EQ(p.summary().rows, 2);
  }
  const std::string grown = text + Row("3", "5/5/2026 6:42:00 PM", "cpu.usage.average", "%", "");
  SetSink second;
  PowerCliReader p(testing::Options("x.csv", std::nullopt,
                                    [&](uint64_t f) {
                                      EXPECT_EQ(f, fp) << "the fingerprint does not depend on later lines";
                                      const std::string line4 =
                                          Row("2", "5/5/2026 6:41:40 PM", "cpu.usage.average", "%", "");
                                      return ResumePoint{4, Fnv1a64(line4.substr(0, line4.size() - 2))};
                                    }),
                   &second);
  ASSERT_TRUE(p.Parse(grown).ok());
  ASSERT_TRUE(p.Finish().ok());
  EXPECT_EQ(p.summary().rows, 1);
  EXPECT_EQ(p.summary().rows_already, 2);
  ASSERT_EQ(second.sets.size(), 1u);
  ASSERT_EQ(second.sets[0].rows.size(), 1u);
  EXPECT_EQ(second.sets[0].rows[0].values[0], 3);
  EXPECT_TRUE(second.issues.empty()) << second.issues[0].code;
}

TEST(PowerCliCsvTest, Timestamps) {
  auto at = [](const char* s) {
    auto t = ParseTimestamp(s);
    return t ? FormatIso(t->t, false) + (t->has_offset ? " utc" : "") : std::string("none");
  };
  EXPECT_EQ(at("5/5/2026 6:41:20 PM"), "2026-05-05T18:41:20Z");
  EXPECT_EQ(at("12/31/2026 12:00:20 AM"), "2026-12-31T00:00:20Z");
  EXPECT_EQ(at("1/2/2026 12:59:59 PM"), "2026-01-02T12:59:59Z") << "en-US is month first";
  EXPECT_EQ(at("05.05.2026 18:41:20"), "2026-05-05T18:41:20Z");
  EXPECT_EQ(at("02/01/2026 18:41:20"), "2026-01-02T18:41:20Z") << "24-hour slash dates are day first (en-GB)";
  EXPECT_EQ(at("12/31/2026 18:41:20"), "2026-12-31T18:41:20Z") << "unless that is impossible";
  EXPECT_EQ(at("2026-05-05 18:41:20"), "2026-05-05T18:41:20Z");
  EXPECT_EQ(at("2026/05/05 18:41:20"), "2026-05-05T18:41:20Z");
  EXPECT_EQ(at("2026-05-05T18:41:20.0000000+02:00"), "2026-05-05T16:41:20Z utc");
  EXPECT_EQ(at("2026-05-05T18:41:20.0000000Z"), "2026-05-05T18:41:20Z utc");
  EXPECT_EQ(at("2026-05-05T18:41:20"), "2026-05-05T18:41:20Z");
  EXPECT_EQ(at("31.02.2026 18:41:20"), "none");
  EXPECT_EQ(at("5/5/2026 13:41:20 PM"), "none");
  EXPECT_EQ(at("yesterday"), "none");
}

TEST(PowerCliCsvTest, ValuesAndCells) {
  EXPECT_EQ(ParseValue("0.55"), 0.55);
  EXPECT_EQ(ParseValue("0,55"), 0.55);
  EXPECT_EQ(ParseValue(" 105 "), 105);
  EXPECT_EQ(ParseValue("1E-05"), 1e-5);
  EXPECT_FALSE(ParseValue("1,234.5"));
  EXPECT_FALSE(ParseValue("abc"));
  std::vector<std::string> cells;
  ASSERT_TRUE(SplitCsvLine("\"a\",\"b,\"\"c\"\"\",,d", ',', &cells));
  EXPECT_EQ(cells, (std::vector<std::string>{"a", "b,\"c\"", "", "d"}));
  EXPECT_FALSE(SplitCsvLine("\"a\",\"b", ',', &cells));
  EXPECT_TRUE(LooksLikePowerCliExport("#TYPE X\r\n\"Value\",\"Timestamp\",\"MetricId\"\r\n"));
  EXPECT_TRUE(LooksLikePowerCliExport("\"Entity\";\"MetricId\";\"Timestamp\";\"Value\"\n"));
  EXPECT_FALSE(
      LooksLikePowerCliExport("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\WEB01\\Processor(_Total)\\% Processor Time\"\n"));
  EXPECT_FALSE(LooksLikePowerCliExport(""));
}

}  // namespace
}  // namespace vrecon::powercli
