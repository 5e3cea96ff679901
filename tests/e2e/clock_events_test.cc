// Clock events are data (issue 14, part 2), through the real binary: every reader records each
// DST shift and backward step in the store's clock_event table, uncapped, and the clock model
// reads them from there.
#include <gtest/gtest.h>

#include <string>

#include "src/store/store.h"
#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

int64_t Count(const std::string& db, const std::string& sql) {
  auto store = Store::Open(db);
  EXPECT_TRUE(store.ok());
  auto q = (*store)->db()->Prepare(sql);
  EXPECT_TRUE(q.ok());
  auto row = q->Step();
  EXPECT_TRUE(row.ok() && *row);
  return q->ColumnInt(0);
}

size_t Occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string Stamp(int s) {
  char b[40];
  const int day = 2 + s / 86400, in_day = s % 86400;
  std::snprintf(b, sizeof b, "\"11/%02d/2026 %02d:%02d:%02d.000\"", day, in_day / 3600, in_day / 60 % 60, in_day % 60);
  return b;
}

// 1,200 windows of 300 s, each with one row whose time is 30 s before the previous row's (a
// clock stepped back and caught up): 1,200 backward steps, more than the 1,000 issues listed.
TEST(ClockEventsTest, MoreThanAThousandStepsAreAllStoredAndUsed) {
  TempDir dir;
  std::string guest =
      "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\VM1\\Processor(0)\\% Processor Time\","
      "\"\\\\VM1\\Processor(_Total)\\% Processor Time\"\r\n";
  for (int w = 0; w < 1200; ++w) {
    for (int s = w * 300; s < (w + 1) * 300; s += 15) {
      guest += Stamp(s) + ",\"40\",\"40\"\r\n";
      if (s == w * 300 + 150) guest += Stamp(s - 30) + ",\"40\",\"40\"\r\n";
    }
  }
  WriteText(dir.File("guest.csv"), guest);
  const std::string db = dir.File("s.db");
  CliResult in = RunVrecon({"ingest", "--db", db, dir.File("guest.csv")});
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_EQ(Count(db, "SELECT count(*) FROM clock_event WHERE kind = 'time-backwards'"), 1200);
  // Issues list 1,000 and one row saying how many more there were.
  EXPECT_EQ(Count(db, "SELECT count(*) FROM import_issue WHERE code = 'time-backwards'"), 1001);
  CliResult r = RunVrecon({"correct", "--db", db, "--no-align", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Occurrences(r.out, "clock-step"), 1200u);
  // Ingesting the file again adds no event twice.
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir.File("guest.csv")}).exit_code, 0);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM clock_event"), 1200);
}

// sar writes its backward step without times; the event is recorded all the same, and the
// correction's window that holds it is flagged.
TEST(ClockEventsTest, ALinuxClockStepInASarLogReachesTheClockModel) {
  TempDir dir;
  std::string sar =
      "Linux 6.1.0-13-amd64 (lnx01) \t11/02/2026 \t_x86_64_\t(1 CPU)\n\n"
      "10:00:00     CPU     %user     %nice   %system   %iowait    %steal     %idle\n";
  char line[128];
  for (int s = 10; s <= 900; s += 10) {
    const int t = s > 450 && s <= 460 ? s - 60 : s;  // one row 60 s back at 10:07:40
    std::snprintf(line, sizeof line,
                  "%02d:%02d:%02d     all     30.00      0.00     10.00      0.00      0.00     60.00\n", 10 + t / 3600,
                  t / 60 % 60, t % 60);
    sar += line;
  }
  WriteText(dir.File("lnx01.log"), sar);
  const std::string db = dir.File("s.db");
  CliResult in = RunVrecon({"ingest", "--db", db, "--tz-bias", "0", dir.File("lnx01.log")});
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_EQ(Count(db, "SELECT count(*) FROM clock_event WHERE kind = 'time-backwards'"), 1);
  CliResult r = RunVrecon({"correct", "--db", db, "--no-align", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t window = r.out.find("\nlnx01,2026-11-02T10:05:00Z");
  ASSERT_NE(window, std::string::npos) << r.out;
  EXPECT_NE(r.out.substr(window, r.out.find('\n', window + 1) - window).find("clock-step"), std::string::npos) << r.out;
}

// sar's LINUX RESTART line is a boot: recorded as a clock event and flagged guest-restart.
TEST(ClockEventsTest, ASarRestartIsAGuestRestart) {
  TempDir dir;
  std::string sar =
      "Linux 6.1.0-13-amd64 (lnx02) \t11/02/2026 \t_x86_64_\t(1 CPU)\n\n"
      "10:00:00     CPU     %user     %nice   %system   %iowait    %steal     %idle\n";
  char line[128];
  for (int s = 10; s <= 600; s += 10) {
    if (s == 250) {
      sar +=
          "10:04:00     LINUX RESTART\t(1 CPU)\n\n10:04:00     CPU     %user     %nice   %system   %iowait    %steal   "
          "  %idle\n";
    }
    if (s > 120 && s < 250) continue;  // down, then booting
    std::snprintf(line, sizeof line,
                  "10:%02d:%02d     all     30.00      0.00     10.00      0.00      0.00     60.00\n", s / 60, s % 60);
    sar += line;
  }
  WriteText(dir.File("lnx02.log"), sar);
  const std::string db = dir.File("s.db");
  CliResult in = RunVrecon({"ingest", "--db", db, "--tz-bias", "0", dir.File("lnx02.log")});
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_EQ(Count(db, "SELECT count(*) FROM clock_event WHERE kind = 'restart'"), 1);
  CliResult r = RunVrecon({"correct", "--db", db, "--no-align", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"code\": \"guest-restart\""), std::string::npos) << r.out.substr(0, 1500);
  EXPECT_EQ(r.out.find("\"code\": \"gap\""), std::string::npos) << r.out.substr(0, 1500);
}

}  // namespace
}  // namespace vrecon::testing
