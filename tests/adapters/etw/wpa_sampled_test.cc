// WPA's CPU Usage (Sampled) CSV reader: the hand-written fixture's figures (fixtures/etw/README.md),
// header variants, WPA's cell quirks, rows in any order, bad rows counted, chunking, and random
// samples against their weights summed here.
#include "adapters/etw/wpa_sampled.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

#include "tests/adapters/etw/series_sink.h"
#include "tests/support/cli_runner.h"
#include "tests/support/reader_options.h"

namespace vrecon::etw {
namespace {

using testing::SeriesSink;

ReaderOptions SampledOpts(std::string file = "s.csv", std::string machine = "WEB01", bool with_start = true) {
  ReaderOptions o = testing::Options(std::move(file), std::nullopt, nullptr, std::move(machine));
  if (with_start) o.trace_start = ParseIso("2026-11-02T10:00:00Z");
  return o;
}

Status ReadSampled(const std::string& text, ReaderOptions o, SeriesSink* sink, ReadSummary* sum = nullptr,
                   size_t chunk = 1 << 20) {
  WpaSampledReader r(std::move(o), sink);
  Status s = testing::ReadInChunks(r, text, chunk);
  if (sum) *sum = r.summary();
  return s;
}

std::string SampledText() { return testing::ReadText(testing::Fixture("etw/web01-sampled.csv")); }

const char* const kSql = "ETW Profile Process(sqlservr:1200)\\% Processor Time";
const char* const kTotal = "ETW Profile Processor(_Total)\\% Processor Time";

void ExpectNear(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << i;
    } else {
      EXPECT_NEAR(got[i], want[i], 1e-9) << i;
    }
  }
}

TEST(WpaSampledTest, TheFixturesFiguresByHand) {
  SeriesSink sink;
  ReadSummary sum;
  const Status s = ReadSampled(SampledText(), SampledOpts("web01-sampled.csv"), &sink, &sum);
  ASSERT_TRUE(s.ok()) << s.message();
  const auto& sql = sink.series.at(kSql);
  ASSERT_EQ(sql.size(), 2u);
  // The first sample's interval starts 0.990 s after the trace's start; the second ends at 1.010 s.
  EXPECT_EQ(FormatIso(sql[0].start, true), "2026-11-02T10:00:00.990Z");
  EXPECT_EQ(FormatIso(sql[0].end, true), "2026-11-02T10:00:01.000Z");
  EXPECT_EQ(FormatIso(sql[1].end, true), "2026-11-02T10:00:01.010Z");
  ExpectNear(sink.Values(kSql), {60, 100});
  ExpectNear(sink.Values("ETW Profile Process(w3wp:2400)\\% Processor Time"), {90, 0});
  ExpectNear(sink.Values("ETW Profile Process(System:4)\\% Processor Time"), {kMissing, 20});
  ExpectNear(sink.Values("ETW Profile Processor(0)\\% Processor Time"), {100, 100});
  ExpectNear(sink.Values("ETW Profile Processor(1)\\% Processor Time"), {50, 20});
  ExpectNear(sink.Values(kTotal), {75, 60});
  EXPECT_FALSE(sink.series.contains("ETW Profile Process(Idle:0)\\% Processor Time")) << "idle is no process";
  EXPECT_EQ(sum.format, "wpa-sampled-csv");
  EXPECT_EQ(sum.rows, 2);
  EXPECT_EQ(sum.lines, 41);
  EXPECT_EQ(sum.columns.size(), 6u);
  ASSERT_EQ(sink.issues.size(), 1u);
  EXPECT_EQ(sink.issues[0].code, "trace-start");
}

// The fixture's first lines' samples in other layouts: columns moved, others added, units given or
// left to WPA's defaults (Weight in ms, TimeStamp in s), a column named twice.
TEST(WpaSampledTest, HeaderVariantsReadAlike) {
  const std::string rows[] = {"sqlservr.exe (1200)", "w3wp.exe (2400)", "Idle (0)"};
  auto make = [&](const std::string& header, auto row) {
    std::string out = header + "\n";
    for (int i = 0; i < 30; ++i) out += row(rows[i % 3], i % 2, 1 + i) + "\n";
    return out;
  };
  const std::string base = make("Process,CPU,Weight (ms),TimeStamp (s)", [](auto p, int cpu, int ms) {
    return "\"" + p + "\"," + std::to_string(cpu) + ",1.0,0." + std::to_string(100 + ms);
  });
  SeriesSink want;
  ASSERT_TRUE(ReadSampled(base, SampledOpts(), &want).ok());
  ASSERT_FALSE(want.Values(kSql).empty());
  const std::string variants[] = {
      make("TimeStamp,Thread ID,Weight,% Weight,CPU,Process Name,Process",
           [](auto p, int cpu, int ms) {
             return "0." + std::to_string(100 + ms) + ",7,1.000,1.5," + std::to_string(cpu) + "," +
                    p.substr(0, p.find(' ')) + "," + p;
           }),
      make("Process,CPU,Weight (in view) (µs),TimeStamp (ms),Count,Weight (in view) (µs)",
           [](auto p, int cpu, int ms) {
             return p + "," + std::to_string(cpu) + ",\"1,000.0\"," + std::to_string(100 + ms) + ".0,1,9";
           }),
      make("Process, CPU ,Weight (Âµs),TimeStamp (ns)",
           [](auto p, int cpu, int ms) {
             return p + "," + std::to_string(cpu) + ",1000,\"" + std::to_string(100 + ms) + ",000,000\"";
           }),
  };
  for (const std::string& v : variants) {
    SCOPED_TRACE(v.substr(0, v.find('\n')));
    SeriesSink got;
    const Status s = ReadSampled(v, SampledOpts(), &got);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_TRUE(testing::ExpectWithin(want, got).empty());
    EXPECT_EQ(got.issues.size(), 1u) << got.issues.back().message;
  }
}

TEST(WpaSampledTest, AMissingColumnOrOptionRefusesTheFileNamingIt) {
  SeriesSink sink;
  Status s = ReadSampled("Process,CPU,TimeStamp (s),% Weight\na.exe (1),0,0.5,1\n", SampledOpts("p.csv"), &sink);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("p.csv:1: the header has no \"Weight\" column"), std::string::npos) << s.message();
  s = ReadSampled("Process Name,CPU,Weight,TimeStamp\na.exe,0,1,0.5\n", SampledOpts("p.csv"), &sink);
  EXPECT_NE(s.message().find("no \"Process\" column"), std::string::npos) << s.message();
  const std::string fine = "Process,CPU,Weight,TimeStamp\na.exe (1),0,1,0.5\n";
  s = ReadSampled(fine, SampledOpts("p.csv", "WEB01", false), &sink);
  EXPECT_NE(s.message().find("p.csv: a WPA CPU Usage (Sampled) export counts its times from the trace's start"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("--trace-start"), std::string::npos) << s.message();
  s = ReadSampled(fine, SampledOpts("p.csv", ""), &sink);
  EXPECT_NE(s.message().find("give it with --machine NAME"), std::string::npos) << s.message();
  s = ReadSampled("Process,CPU,Weight,TimeStamp\nnonsense,x,y,z\n", SampledOpts("p.csv"), &sink);
  EXPECT_NE(s.message().find("p.csv: no row could be read"), std::string::npos) << s.message();
}

TEST(WpaSampledTest, BadRowsAreRecordedCountedAndSkipped) {
  const std::string text =
      "Process,CPU,Weight (ms),Count,TimeStamp (s)\n"
      "a.exe (10),0,1,1,0.5\n"        // 2: read
      "a.exe (10),x,1,1,0.5\n"        // 3: bad-number (CPU)
      "a.exe (10),0,\"1,5\",1,0.5\n"  // 4: bad-number (a decimal comma)
      "a.exe (10),0,12,3,\n"          // 5: aggregated-row
      "a.exe (10),0,1\n"              // 6: ragged-row
      "\"a.exe (10),0,1,1,0.5\n"      // 7: bad-row (quote not closed)
      "a.exe (10),0,1,1,30000\n"      // 8: bad-time
      "a.exe (10),0,5000,1,0.5\n"     // 9: bad-weight
      "garbled,1,1,1,0.5\n"           // 10: bad-process: busy, no process's
      "a.exe (10),1,1,1,0.6\n";       // 11: read
  SeriesSink sink;
  ReadSummary sum;
  const Status s = ReadSampled(text, SampledOpts(), &sink, &sum);
  ASSERT_TRUE(s.ok()) << s.message();
  std::map<std::string, std::vector<int64_t>> lines;
  for (const ImportIssue& i : sink.issues) lines[i.code].push_back(i.line);
  EXPECT_EQ(lines["bad-number"], (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(lines["aggregated-row"], (std::vector<int64_t>{5}));
  EXPECT_EQ(lines["ragged-row"], (std::vector<int64_t>{6}));
  EXPECT_EQ(lines["bad-row"], (std::vector<int64_t>{7}));
  EXPECT_EQ(lines["bad-time"], (std::vector<int64_t>{8}));
  EXPECT_EQ(lines["bad-weight"], (std::vector<int64_t>{9}));
  EXPECT_EQ(lines["bad-process"], (std::vector<int64_t>{10}));
  EXPECT_EQ(sum.issues, 9);  // and trace-start
  // Second 0, from 0.499 s to 0.6 s: a.exe 2 ms, CPU 1 busy 2 ms (one of them no process's).
  ExpectNear(sink.Values("ETW Profile Process(a:10)\\% Processor Time"), {200.0 / 101});
  ExpectNear(sink.Values("ETW Profile Processor(1)\\% Processor Time"), {200.0 / 101});
}

// Random samples of 5 processes and idle on 4 CPUs over 3.5 s of a trace started off the second, in a
// shuffled view order, each 1 ms (+/- jitter) of weight: every second's figure is its weights'
// sum over the second's span, read in any chunking.
TEST(WpaSampledTest, EachProcessIsItsWeightsOverTheSecondInAnyOrderAndChunking) {
  std::mt19937 rng(7);
  struct S {
    int cpu, proc;
    int64_t t_us;
    int64_t w_ns;
  };
  std::vector<S> samples;
  for (int cpu = 0; cpu < 4; ++cpu)
    for (int64_t t = 500 + 250 * cpu; t <= 3'500'000; t += 1000)
      samples.push_back({cpu, static_cast<int>(rng() % 6), t, 1'000'000 + static_cast<int64_t>(rng() % 200) - 100});
  std::shuffle(samples.begin(), samples.end(), rng);
  std::string text = "\xEF\xBB\xBFLine #,Process,CPU,Weight (ms),TimeStamp (s)\r\n";
  char b[160];
  for (size_t i = 0; i < samples.size(); ++i) {
    const S& s = samples[i];
    const std::string proc =
        s.proc == 0 ? "Idle (0)" : "p" + std::to_string(s.proc) + ".exe (" + std::to_string(s.proc) + ")";
    std::snprintf(b, sizeof b, "\"%zu\",%s,%d,\"%lld.%06lld\",%lld.%06lld000\r\n", i + 1, proc.c_str(), s.cpu,
                  static_cast<long long>(s.w_ns / 1'000'000), static_cast<long long>(s.w_ns % 1'000'000),
                  static_cast<long long>(s.t_us / 1'000'000), static_cast<long long>(s.t_us % 1'000'000));
    text += b;
  }
  ReaderOptions o = SampledOpts();
  o.trace_start = ParseIso("2026-11-02T10:00:00.400Z");
  // Absolute seconds: (t + 0.4 s) in (k, k + 1]; spans clipped to the trace's start and the last
  // sample, 0.4 s and 3.9 s.
  std::map<std::pair<int64_t, int>, double> want_ns;
  for (const S& s : samples) want_ns[{(400'000 + s.t_us - 1) / 1'000'000, s.proc}] += static_cast<double>(s.w_ns);
  const double span_ms[] = {600, 1000, 1000, 900};
  SeriesSink whole;
  ASSERT_TRUE(ReadSampled(text, o, &whole).ok());
  for (int p = 1; p < 6; ++p) {
    std::vector<double> want;
    for (int64_t k = 0; k < 4; ++k) want.push_back(want_ns[{k, p}] / 1e6 / span_ms[k] * 100);
    const std::string name =
        "ETW Profile Process(p" + std::to_string(p) + ":" + std::to_string(p) + ")\\% Processor Time";
    SCOPED_TRACE(name);
    ExpectNear(whole.Values(name), want);
  }
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}}) {
    SCOPED_TRACE(chunk);
    SeriesSink cut;
    ASSERT_TRUE(ReadSampled(text, o, &cut, nullptr, chunk).ok());
    EXPECT_TRUE(testing::ExpectWithin(whole, cut).empty());
  }
}

TEST(WpaSampledTest, TheSameExportAgainStoresNothing) {
  SeriesSink first, again;
  ReadSummary sum;
  ASSERT_TRUE(ReadSampled(SampledText(), SampledOpts(), &first, &sum).ok());
  ReaderOptions o = SampledOpts();
  o.resume_lookup = [&](uint64_t fp) {
    EXPECT_EQ(fp, sum.fingerprint);
    return ResumePoint{sum.consumed_lines, sum.consumed_line_hash};
  };
  ReadSummary second;
  ASSERT_TRUE(ReadSampled(SampledText(), o, &again, &second).ok());
  EXPECT_EQ(second.rows, 0);
  EXPECT_EQ(second.rows_already, 2);
  EXPECT_TRUE(again.series.empty());
  EXPECT_TRUE(again.issues.empty());
}

}  // namespace
}  // namespace vrecon::etw
