// What WPA's CSV exports share (adapters/etw/wpa_csv): cells, header names and units, numbers as
// WPA writes them, the sniffer; and the header variants of a CPU Usage (Precise) export that read
// alike (the fixture's runs written with other names, units, quoting and encodings).
#include "adapters/etw/wpa_csv.h"

#include <gtest/gtest.h>

#include <functional>

#include "adapters/etw/wpa_precise.h"
#include "tests/adapters/etw/series_sink.h"
#include "tests/support/cli_runner.h"
#include "tests/support/reader_options.h"

namespace vrecon::etw::wpa {
namespace {

TEST(WpaCsvTest, NumbersAsWpaWritesThemAndNothingElse) {
  auto us = [](std::string_view s, Unit u) {
    Decimal d;
    return ParseDecimal(s, &d) ? ToMicros(d, u) : int64_t{-1};
  };
  EXPECT_EQ(us("12.345678901", Unit::kSeconds), 12'345'679);
  EXPECT_EQ(us("0.100000000", Unit::kSeconds), 100'000);
  EXPECT_EQ(us("1,234,567.5", Unit::kMicros), 1'234'568);
  EXPECT_EQ(us(" 300,000.000 ", Unit::kMicros), 300'000);
  EXPECT_EQ(us("1\xE2\x80\xAF"
               "500.25",
               Unit::kMillis),
            1'500'250);  // narrow no-break space
  EXPECT_EQ(us("1\xC2\xA0"
               "500",
               Unit::kMillis),
            1'500'000);  // no-break space
  EXPECT_EQ(us("2500", Unit::kNanos), 3);
  EXPECT_EQ(us("7", Unit::kSeconds), 7'000'000);
  for (const char* bad : {"", "abc", "12,5", "1,23", "1234,567", "12,345678", "-1", "1.2.3", ".5", "5.", "1e3",
                          "1,000,0000", "1234567890123", "0x10", "n/a"})
    EXPECT_EQ(us(bad, Unit::kSeconds), -1) << bad;
}

TEST(WpaCsvTest, HeaderCellsAndCells) {
  EXPECT_EQ(ParseHeaderCell("Switch-In Time (s)").key, "switchintime");
  EXPECT_EQ(ParseHeaderCell("SwitchInTime").key, "switchintime");
  EXPECT_EQ(ParseHeaderCell("Switch-In Time (s)").unit, Unit::kSeconds);
  EXPECT_EQ(ParseHeaderCell("Ready (\xC2\xB5s)").unit, Unit::kMicros);
  EXPECT_EQ(ParseHeaderCell("Ready (\xC3\x82\xC2\xB5s)").unit, Unit::kMicros);  // "Âµs"
  EXPECT_EQ(ParseHeaderCell("Ready (\xCE\xBCs)").unit, Unit::kMicros);          // Greek mu
  EXPECT_EQ(ParseHeaderCell("Ready (us)").key, "ready");
  const HeaderCell in_view = ParseHeaderCell("CPU Usage (in view) (ms)");
  EXPECT_EQ(in_view.key, "cpuusage(inview)");
  EXPECT_EQ(in_view.unit, Unit::kMillis);
  EXPECT_EQ(ParseHeaderCell("CPU Usage (in view)").unit, Unit::kNone);
  CsvCells c;
  ASSERT_TRUE(c.Split(R"(Idle (0),23871651,"20,726,984.943082", "a ""b""",,x)", 100));
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c[0], "Idle (0)");
  EXPECT_EQ(c[2], "20,726,984.943082");
  EXPECT_EQ(c[3], "a \"b\"");
  EXPECT_EQ(c[4], "");
  ASSERT_TRUE(c.Split("a,b,c,d", 2));
  EXPECT_EQ(c.size(), 2u);
  ASSERT_TRUE(c.Split("a,", 9));
  EXPECT_EQ(c.size(), 2u);
  EXPECT_FALSE(c.Split("\"a,b", 9));
}

TEST(WpaCsvTest, TheSnifferTakesAPreciseHeaderAndNothingElse) {
  EXPECT_TRUE(LooksLikeWpaPrecise("\xEF\xBB\xBFNew Process,New Thread Id,Cpu,Switch-In Time (s)\r\nx"));
  EXPECT_TRUE(LooksLikeWpaPrecise("\r\n\"New Process\",\"SwitchInTime\"\n"));
  const std::string utf16 = std::string("\xFF\xFE", 2) + std::string("N\0e\0w\0 \0P\0r\0o\0c\0e\0s\0s\0,\0", 24) +
                            std::string("S\0w\0i\0t\0c\0h\0-\0I\0n\0 \0T\0i\0m\0e\0\r\0\n\0", 32);
  EXPECT_TRUE(LooksLikeWpaPrecise(utf16));
  EXPECT_FALSE(LooksLikeWpaPrecise("New Process,Count,CPU Usage (in view) (ms)\n"));  // a summary by process
  EXPECT_FALSE(LooksLikeWpaPrecise("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\W\\Process(x)\\New Process\"\n"));
  EXPECT_FALSE(LooksLikeWpaPrecise("BeginHeader\nCSwitch, TimeStamp, New Process Name ( PID)\n"));
  EXPECT_FALSE(LooksLikeWpaPrecise("\"Value\",\"Timestamp\",\"MetricId\"\n"));
  EXPECT_FALSE(LooksLikeWpaPrecise(""));
}

// The fixture's runs (fixtures/etw/README.md): process, thread, CPU, switch-in and -out (us),
// queue time (us, -1: none).
struct Row {
  const char* process;
  int tid, cpu;
  int64_t in, out, ready;
};
constexpr Row kWeb01[] = {
    {"sqlservr.exe (1200)", 1201, 1, 1'500'000, 2'000'000, -1},
    {"sqlservr.exe (1200)", 1202, 1, 400'000, 700'000, 50'000},
    {"sqlservr.exe (1200)", 1201, 0, 100'000, 600'000, -1},
    {"Idle (0)", 0, 1, 900'000, 1'500'000, -1},
    {"w3wp.exe (2400)", 2401, 1, 700'000, 900'000, 300'000},
    {"w3wp.exe (2400)", 2401, 1, 200'000, 400'000, -1},
    {"notepad.exe (3100)", 3101, 0, 1'200'000, 1'300'000, -1},
};

std::string Fixed(int64_t v, int64_t per, int decimals) {  // v / per with `decimals` decimals
  std::string frac = std::to_string(v % per + per).substr(1);
  frac.resize(static_cast<size_t>(decimals), '0');
  return std::to_string(v / per) + "." + frac;
}
std::string Grouped(int64_t v) {  // 1500000 -> "1,500,000"
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}
std::string Q(const std::string& s) { return "\"" + s + "\""; }

struct Variant {
  const char* what;
  std::string header;
  std::function<std::string(const Row&)> row;
};

std::string Utf16Le(const std::string& utf8) {  // enough for the text here: code points below U+0800
  std::string out("\xFF\xFE", 2);
  for (size_t i = 0; i < utf8.size(); ++i) {
    unsigned cp = static_cast<unsigned char>(utf8[i]);
    if (cp >= 0xC0) cp = ((cp & 0x1F) << 6) | (static_cast<unsigned char>(utf8[++i]) & 0x3F);
    out.push_back(static_cast<char>(cp & 0xFF));
    out.push_back(static_cast<char>(cp >> 8));
  }
  return out;
}

TEST(WpaCsvTest, HeaderVariantsOfThePreciseTableReadAlike) {
  const std::string base = "New Process,New Thread Id,";
  auto ids = [](const Row& r) {
    return std::string(r.process) + "," + std::to_string(r.tid) + "," + std::to_string(r.cpu);
  };
  auto ready_us = [](const Row& r) { return r.ready < 0 ? std::string() : std::to_string(r.ready); };
  const Variant variants[] = {
      {"times without units, Windows-1252 mojibake of µs",
       base + "CPU,Switch-In Time,Next Switch-Out Time,Ready (\xC3\x82\xC2\xB5s)",
       [&](const Row& r) {
         return ids(r) + "," + Fixed(r.in, 1'000'000, 9) + "," + Fixed(r.out, 1'000'000, 9) + "," + ready_us(r);
       }},
      {"milliseconds with thousands, Ready (us)", base + "Cpu,Switch-In Time (ms),Next Switch-Out Time (ms),Ready (us)",
       [&](const Row& r) {
         return ids(r) + "," + Q(Grouped(r.in / 1000) + ".000000") + "," + Q(Grouped(r.out / 1000) + ".000000") + "," +
                ready_us(r);
       }},
      {"WPA 8 names", "NewProcess,NewThreadId,Cpu,SwitchInTime (s),NextSwitchOutTime (s),Ready",
       [&](const Row& r) {
         return ids(r) + "," + Fixed(r.in, 1'000'000, 6) + "," + Fixed(r.out, 1'000'000, 6) + "," + ready_us(r);
       }},
      {"Ready Time and CPU Usage, nanoseconds, every cell quoted",
       "\"New Process\",\"New Thread Id\",\"Cpu\",\"Switch-In Time (ns)\",\"CPU Usage (ms)\",\"Ready Time (ns)\"",
       [&](const Row& r) {
         return Q(r.process) + "," + Q(std::to_string(r.tid)) + "," + Q(std::to_string(r.cpu)) + "," +
                Q(Grouped(r.in * 1000)) + "," + Q(Fixed(r.out - r.in, 1000, 3)) + "," +
                Q(r.ready < 0 ? "" : Grouped((r.in - r.ready) * 1000));
       }},
      {"columns named twice, Greek mu, other columns",
       "Count,New Process,Readying Process,New Thread Id,Cpu,Switch-In Time (s),Switch-In Time (s),Next Switch-Out "
       "Time (s),Ready (\xCE\xBCs),Ready (\xCE\xBCs),Waits (\xCE\xBCs)",
       [&](const Row& r) {
         return "1," + std::string(r.process) + ",," + std::to_string(r.tid) + "," + std::to_string(r.cpu) + "," +
                Fixed(r.in, 1'000'000, 9) + ",x," + Fixed(r.out, 1'000'000, 9) + "," + ready_us(r) + ",x,0";
       }},
  };
  testing::SeriesSink fixture;
  auto read = [](const std::string& text, testing::SeriesSink* sink) {
    ReaderOptions o = testing::Options("v.csv", std::nullopt, nullptr, "WEB01");
    o.trace_start = ParseIso("2026-11-02T10:00:00Z");
    WpaPreciseReader r(std::move(o), sink);
    const Status s = r.Parse(text);
    return s.ok() ? r.Finish() : s;
  };
  ASSERT_TRUE(read(testing::ReadText(testing::Fixture("etw/web01-precise.csv")), &fixture).ok());
  for (const Variant& v : variants) {
    for (bool utf16 : {false, true}) {
      SCOPED_TRACE(std::string(v.what) + (utf16 ? ", UTF-16LE" : ""));
      std::string text = v.header + "\r\n";
      for (const Row& r : kWeb01) text += v.row(r) + "\r\n";
      testing::SeriesSink sink;
      const Status s = read(utf16 ? Utf16Le(text) : text, &sink);
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_TRUE(testing::ExpectWithin(sink, fixture).empty());
      EXPECT_EQ(sink.issues.size(), 1u) << sink.issues.back().message;
    }
  }
}

}  // namespace
}  // namespace vrecon::etw::wpa
