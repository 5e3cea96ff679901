// What the fuzzers (fuzz/, docs/reliability.md) found, kept fixed: every input of
// fixtures/fuzz-regressions/ read the way its fuzz target reads it, in the normal suite.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "adapters/etw/xperf_dumper.h"
#include "adapters/linux_proc/proc_stat_parser.h"
#include "adapters/linux_proc/sar_reader.h"
#include "adapters/perfmon/perfmon_format.h"
#include "adapters/perfmon/perfmon_reader.h"
#include "adapters/powercli/powercli_csv.h"
#include "adapters/powercli/powercli_format.h"
#include "adapters/vsphere/vsphere_xml.h"
#include "src/core/time_util.h"
#include "src/fleet/fleet_config.h"
#include "tests/support/capture_sink.h"
#include "tests/support/cli_runner.h"
#include "tests/support/reader_options.h"

namespace vrecon {
namespace {

using testing::CaptureSink;
using testing::Fixture;
using testing::ReadText;

std::string Regression(const std::string& name) { return ReadText(Fixture("fuzz-regressions/" + name)); }

// Everything a reader produced, for comparing two readings of the same bytes.
struct Reading {
  Status status;
  CaptureSink sink;

  bool SameAs(const Reading& o) const {
    if (status.code() != o.status.code() || status.message() != o.status.message()) return false;
    if (sink.columns_.size() != o.sink.columns_.size() || sink.rows_.size() != o.sink.rows_.size() ||
        sink.issues_.size() != o.sink.issues_.size())
      return false;
    for (size_t i = 0; i < sink.rows_.size(); ++i) {
      const auto& a = sink.rows_[i];
      const auto& b = o.sink.rows_[i];
      if (a.start != b.start || a.end != b.end || a.values.size() != b.values.size()) return false;
      for (size_t v = 0; v < a.values.size(); ++v)
        if (a.values[v] != b.values[v] && !(IsMissing(a.values[v]) && IsMissing(b.values[v]))) return false;
    }
    for (size_t i = 0; i < sink.issues_.size(); ++i)
      if (sink.issues_[i].line != o.sink.issues_[i].line || sink.issues_[i].message != o.sink.issues_[i].message)
        return false;
    return true;
  }
};

// Reads `bytes` in chunks of `chunk` bytes (the whole at once when chunk is 0).
template <typename Parser, typename Options>
Reading Read(std::string_view bytes, size_t chunk, Options options) {
  Reading r;
  Parser p(std::move(options), &r.sink);
  if (chunk == 0) chunk = bytes.size() + 1;
  for (size_t i = 0; i < bytes.size() && r.status.ok(); i += chunk) r.status = p.Parse(bytes.substr(i, chunk));
  if (r.status.ok()) r.status = p.Finish();
  return r;
}

Reading ReadPerfmon(std::string_view bytes, size_t chunk) {
  return Read<perfmon::PerfmonReader>(bytes, chunk, testing::Options("x.csv"));
}
Reading ReadPowerCli(std::string_view bytes, size_t chunk) {
  return Read<powercli::PowerCliReader>(bytes, chunk, testing::Options("x.csv"));
}

// ---- timestamps ----

TEST(FuzzRegressionTest, TimesOutsideTheSupportedYearsAreRefusedNotWrapped) {
  // Year 6026 overflowed int64 nanoseconds (undefined behaviour) and came back as another date.
  EXPECT_EQ(ParseIso(Regression("timestamps/iso-year-6026.txt")), std::nullopt);
  EXPECT_EQ(ParseIso("1899-12-31T23:59:59Z"), std::nullopt);
  EXPECT_EQ(ParseIso("2190-01-01"), std::nullopt);
  EXPECT_EQ(FormatIso(*ParseIso("1900-01-01"), false), "1900-01-01T00:00:00Z");
  EXPECT_EQ(FormatIso(*ParseIso("2189-12-31T23:59:59Z"), false), "2189-12-31T23:59:59Z");
  EXPECT_EQ(perfmon::ParseLocalTimestamp("12/31/9999 23:59:59.000"), std::nullopt);
  EXPECT_EQ(perfmon::ParseLocalTimestamp("01/01/1600 00:00:00"), std::nullopt);
  EXPECT_FALSE(powercli::ParseTimestamp("12/31/9999 11:59:59 PM").has_value());
  EXPECT_FALSE(powercli::ParseTimestamp("9999-12-31T23:59:59Z").has_value());
}

TEST(FuzzRegressionTest, APerfmonRowDatedOutsideTheYearsIsABadRow) {
  const std::string log =
      "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\WEB01\\Processor(_Total)\\% Processor Time\"\r\n"
      "\"11/02/2026 10:00:00.000\",\"1\"\r\n"
      "\"12/31/9999 23:59:59.000\",\"2\"\r\n"
      "\"11/02/2026 10:00:15.000\",\"3\"\r\n";
  const Reading r = ReadPerfmon(log, 0);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.sink.rows_.size(), 2u);
  EXPECT_EQ(r.sink.rows_[1].values[0], 3);
  ASSERT_EQ(r.sink.issues_.size(), 1u);
  EXPECT_EQ(r.sink.issues_[0].code, "bad-timestamp");
  EXPECT_EQ(r.sink.issues_[0].line, 3);
}

TEST(FuzzRegressionTest, SarRowsWhoseDateRollsPastTheYearsAreBadRows) {
  // Found while fixing the above: every row earlier in the day than the last one is the next
  // day, so a long enough file walked its date past int64 nanoseconds.
  const std::string sar =
      "Linux 5.4.17 (web01) \t12/31/2189 \t_x86_64_\t(1 CPU)\n"
      "23:00:00     CPU     %user     %nice   %system   %iowait    %steal     %idle\n"
      "23:00:10     all      1.00      0.00      1.00      0.00      0.00     98.00\n"
      "01:00:00     all      1.00      0.00      1.00      0.00      0.00     98.00\n";
  Reading r;
  sar::SarReader p(testing::Options("x.sar", 0, nullptr, "web01"), &r.sink);
  ASSERT_TRUE(p.Parse(sar).ok());
  ASSERT_TRUE(p.Finish().ok());
  ASSERT_EQ(r.sink.rows_.size(), 1u);
  EXPECT_EQ(FormatIso(r.sink.rows_[0].end, false), "2189-12-31T23:00:10Z");
  ASSERT_EQ(r.sink.issues_.size(), 1u);
  EXPECT_EQ(r.sink.issues_[0].code, "bad-timestamp");
  EXPECT_EQ(r.sink.issues_[0].line, 4);
}

TEST(FuzzRegressionTest, DurationsBelowOneNanosecondOrBeyondInt64AreRefused) {
  EXPECT_EQ(fleet::ParseDuration(Regression("timestamps/duration-below-1ns.txt")), std::nullopt);
  EXPECT_EQ(fleet::ParseDuration("1e-12s"), std::nullopt);
  EXPECT_EQ(fleet::ParseDuration("1e7d"), std::nullopt);  // 8.6e20 ns
  EXPECT_EQ(fleet::ParseDuration("0.5s"), 500 * kNsPerMs);
  EXPECT_EQ(fleet::ParseDuration("2d"), 2 * 86400 * kNsPerSec);
}

// ---- /proc/stat ----

TEST(FuzzRegressionTest, ACpuLineWithANegativeNumberIsNoCpu) {
  const auto st = linux_proc::ParseProcStat(Regression("proc_stat/cpu-minus-one"));
  ASSERT_TRUE(st.has_value());
  ASSERT_TRUE(st->total.has_value());
  EXPECT_EQ(st->total->user, 10u);
  ASSERT_EQ(st->cpus.size(), 1u);
  EXPECT_EQ(st->cpus[0].cpu, 0);
}

// ---- vSphere requests ----

TEST(FuzzRegressionTest, BlanksInARequestValueReachTheServerUnchanged) {
  // An XML parser turns a raw CR into LF and tab, CR, LF in an attribute into spaces.
  const std::string value = Regression("vsphere_soap/blanks-in-a-value.txt");
  EXPECT_EQ(vsphere::XmlEscape(value), "svc&#9;perf&#13;&#10;ops&#13;");
  vsphere::ServiceContent sc;
  sc.session_manager = {value, "SessionManager"};
  const std::string login = vsphere::LoginRequest(sc, value, value);
  EXPECT_NE(login.find("<_this type=\"svc&#9;perf&#13;&#10;ops&#13;\">"), std::string::npos);
  EXPECT_NE(login.find("<password>svc&#9;perf&#13;&#10;ops&#13;</password>"), std::string::npos);
}

// ---- the fleet file ----

fleet::ConfigLookups Lookups() {
  fleet::ConfigLookups l;
  l.env = [](const std::string&) -> std::optional<std::string> { return std::string("pw"); };
  l.password_file = [](const std::string&) -> StatusOr<std::string> { return std::string("pw"); };
  l.is_regular_file = [](const std::string&) { return true; };
  return l;
}

TEST(FuzzRegressionTest, NonAsciiWhereTomlppMisbehavesIsRefusedWithOneLine) {
  // toml++ 3.3.0 reaches __builtin_unreachable() on these (marzer/tomlplusplus#190, #295).
  const std::vector<std::pair<std::string, int>> cases = {{"equals-in-bare-token.toml", 1},
                                                          {"line-ending-backslash.toml", 2},
                                                          {"nonascii-in-bare-token.toml", 1},
                                                          {"nonascii-table-name.toml", 1},
                                                          {"nonascii-value.toml", 1}};
  for (const auto& [name, line] : cases) {
    SCOPED_TRACE(name);
    auto cfg = fleet::ParseFleetConfig(Regression("fleet_toml/" + name), "/etc/vrecon/fleet.toml", Lookups());
    ASSERT_FALSE(cfg.ok());
    EXPECT_TRUE(cfg.status().IsInvalidArgument());
    EXPECT_TRUE(cfg.status().message().starts_with("/etc/vrecon/fleet.toml:" + std::to_string(line) +
                                                   ": not valid TOML: a non-ASCII"))
        << cfg.status().message();
  }
}

TEST(FuzzRegressionTest, NonAsciiInsideStringsAndCommentsIsStillRead) {
  auto cfg =
      fleet::ParseFleetConfig(Regression("fleet_toml/nonascii-in-strings.toml"), "/etc/vrecon/fleet.toml", Lookups());
  ASSERT_TRUE(cfg.ok()) << cfg.status().message();
  ASSERT_EQ(cfg->drop_folders.size(), 1u);
  EXPECT_EQ(cfg->drop_folders[0].path, "/etc/vrecon/Z\xc3\xbcrich \xc2\xa7");
  EXPECT_EQ(cfg->drop_folders[0].include, (std::vector<std::string>{"\xd0\x9c*", "\xc2\xa7"}));
  EXPECT_EQ(cfg->mappings.at("w\xc3\xa9"
                             "b"),
            "\xce\xa9");
}

TEST(FuzzRegressionTest, WholeSecondsTooManyForNanosecondsAreRefusedNotWrapped) {
  // 360077777777 s x 1e9 overflows int64 (UBSan); the text form stops at ~31 years, so does this.
  auto cfg =
      fleet::ParseFleetConfig(Regression("fleet_toml/seconds-past-int64-ns.toml"), "/etc/vrecon/fleet.toml", Lookups());
  ASSERT_FALSE(cfg.ok());
  EXPECT_TRUE(cfg.status().message().starts_with("/etc/vrecon/fleet.toml:1: since: must be a positive duration"))
      << cfg.status().message();
  auto longest = fleet::ParseFleetConfig("since = 1000000000\n[[drop_folder]]\npath = \"/in\"\n",
                                         "/etc/vrecon/fleet.toml", Lookups());
  ASSERT_TRUE(longest.ok()) << longest.status().message();
  EXPECT_EQ(longest->since, 1'000'000'000 * kNsPerSec);
}

// ---- chunking: the Perfmon and PowerCLI readers ----

TEST(FuzzRegressionTest, PerfmonReadingDoesNotDependOnTheChunks) {
  for (const std::string name :
       {"perfmon_csv/nul-after-first-byte.csv", "perfmon_csv/utf16le-bom.csv", "esxtop_csv/nul-in-second-row.csv"}) {
    SCOPED_TRACE(name);
    const std::string bytes = Regression(name);
    const Reading whole = ReadPerfmon(bytes, 0);
    for (size_t chunk : {1, 2, 3, 7}) EXPECT_TRUE(ReadPerfmon(bytes, chunk).SameAs(whole)) << "chunks of " << chunk;
  }
  // What the whole reading is: binary refused, and the UTF-16LE log read.
  EXPECT_EQ(ReadPerfmon(Regression("perfmon_csv/nul-after-first-byte.csv"), 1).status.code(),
            Status::Code::kNotSupported);
  EXPECT_EQ(ReadPerfmon(Regression("esxtop_csv/nul-in-second-row.csv"), 1).status.code(), Status::Code::kNotSupported);
  const Reading utf16 = ReadPerfmon(Regression("perfmon_csv/utf16le-bom.csv"), 1);
  ASSERT_TRUE(utf16.status.ok()) << utf16.status.message();
  ASSERT_EQ(utf16.sink.rows_.size(), 2u);
  EXPECT_EQ(utf16.sink.rows_[0].values[0], 12.5);
}

TEST(FuzzRegressionTest, PerfmonRowsDecadesApartDoNotOverflowTheDstTest) {
  // The first step, 1904 -> 2026, made the "typical" interval 122 years, and the daylight-saving
  // test multiplied it by 3: a signed overflow (UBSan in the sanitizer suite). Capped at an hour,
  // the 30-minute step back reads as the end of daylight saving time, as any step back of under
  // 3 typical intervals does.
  const Reading r = ReadPerfmon(Regression("perfmon_csv/decades-between-rows.csv"), 0);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.sink.rows_.size(), 3u);
  EXPECT_EQ(FormatIso(r.sink.rows_[2].end, false), "2026-01-01T00:30:00Z");
  // The 122-year step is a gap (the row is not spread back over it), then the step back.
  ASSERT_EQ(r.sink.issues_.size(), 2u);
  EXPECT_EQ(r.sink.issues_[0].code, "long-gap");
  EXPECT_EQ(r.sink.issues_[1].code, "dst-shift");
}

TEST(FuzzRegressionTest, PerfmonCrOnlyLinesWhenTheFirstChunkEndsAtTheFirstCr) {
  // Found by reading the code while fixing the above (a fuzz input cannot be this long): with
  // the first CR the last byte of a chunk, the header ran into the first row.
  std::string header = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (int i = 0; i < 150; ++i) header += ",\"\\\\WEB01\\Process(p" + std::to_string(i) + ")\\% Processor Time\"";
  ASSERT_GT(header.size(), kSniffBytes);
  std::string log = header + "\r";
  for (int row = 0; row < 3; ++row) {
    log += "\"11/02/2026 10:00:" + std::to_string(10 + row * 15) + ".000\"";
    for (int i = 0; i < 150; ++i) log += ",\"1\"";
    log += "\r";
  }
  const Reading whole = ReadPerfmon(log, 0);
  ASSERT_TRUE(whole.status.ok()) << whole.status.message();
  EXPECT_EQ(whole.sink.columns_.size(), 150u);
  EXPECT_EQ(whole.sink.rows_.size(), 3u);
  EXPECT_TRUE(ReadPerfmon(log, header.size() + 1).SameAs(whole));
  EXPECT_TRUE(ReadPerfmon(log, 1).SameAs(whole));
}

TEST(FuzzRegressionTest, PowerCliReadingDoesNotDependOnTheChunks) {
  const std::string bytes = Regression("powercli_csv/utf16le-bom.csv");
  const Reading whole = ReadPowerCli(bytes, 0);
  ASSERT_TRUE(whole.status.ok()) << whole.status.message();
  EXPECT_FALSE(whole.sink.rows_.empty());
  for (size_t chunk : {1, 2, 3, 7}) EXPECT_TRUE(ReadPowerCli(bytes, chunk).SameAs(whole)) << "chunks of " << chunk;
}

// ---- xperf dumper ----

// A sink that holds the reader to SampleSink's contract: a row has one value per column declared
// last.
class ContractSink : public SampleSink {
 public:
  Status DeclareColumns(const std::vector<SeriesKey>& columns) override {
    declared_ = columns.size();
    return Status::Ok();
  }
  Status AddRow(TimeNs, TimeNs, std::span<const double> values) override {
    EXPECT_EQ(values.size(), declared_) << "row " << rows_;
    ++rows_;
    return Status::Ok();
  }
  void AddIssue(ImportIssue) override {}
  size_t rows_ = 0;

 private:
  size_t declared_ = 0;
};

// F11: an ingest resumed past the events of the first buckets counted those rows without
// declaring their columns; the queue-time p95 windows written at the end then went out under the
// bucket columns, one value for eight. Every resume point keeps the contract.
TEST(FuzzRegressionTest, AResumedDumperDeclaresTheColumnsOfEveryRowItWrites) {
  const std::string bytes = Regression("xperf_dumper/quiet-buckets-then-a-window.txt");
  size_t rows = 0;
  for (int after_line = 0; after_line <= 15; ++after_line) {
    for (const bool trace_start : {false, true}) {
      SCOPED_TRACE("resumed after line " + std::to_string(after_line) + (trace_start ? ", --trace-start" : ""));
      ReaderOptions o = testing::Options("dump.txt");
      o.default_machine = "fuzzhost";
      if (trace_start) o.trace_start = DaysFromCivil(2026, 11, 2) * kNsPerDay;
      o.resume_lookup = [after_line](uint64_t) { return ResumePoint{after_line, 0}; };
      ContractSink sink;
      etw::XperfDumperReader reader(std::move(o), &sink);
      Status s = reader.Parse(bytes);
      if (s.ok()) s = reader.Finish();
      rows += sink.rows_ + static_cast<size_t>(reader.summary().rows_already);
    }
  }
  EXPECT_GT(rows, 0u) << "the input gives rows, written or counted as stored before";
}

// Every file in fixtures/fuzz-regressions/ is used above (a new finding needs its test).
TEST(FuzzRegressionTest, EveryRegressionInputHasATest) {
  const std::string self = ReadText(std::string(__FILE__));
  for (const auto& e : std::filesystem::recursive_directory_iterator(Fixture("fuzz-regressions"))) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || name == "README.md" || name == ".gitattributes") continue;
    EXPECT_NE(self.find(name), std::string::npos) << name << " has no test";
  }
}

}  // namespace
}  // namespace vrecon
