// Schema migration 7: clock events that earlier versions kept only in issue text.
#include "src/store/clock_event_migration.h"

#include <gtest/gtest.h>

#include "src/store/store.h"
#include "tests/support/cli_runner.h"

namespace vrecon {
namespace {

TEST(ClockEventMigrationTest, IssueTextsOfEarlierVersionsBecomeEvents) {
  const auto dst = ClockEventFromIssue(ImportIssue{
      "g.csv", 40, Severity::kInfo, "dst-shift",
      "local time went back one hour (daylight saving time ended); the UTC bias is now 300 min and UTC times stay "
      "monotonic; shift at 2026-11-01T06:00:00.000Z"});
  ASSERT_TRUE(dst);
  EXPECT_EQ(dst->kind, "dst-shift");
  EXPECT_EQ(dst->before, *ParseIso("2026-11-01T06:00:00Z"));
  EXPECT_EQ(dst->after - dst->before, -3600 * kNsPerSec);
  const auto back = ClockEventFromIssue(ImportIssue{
      "g.csv", 41, Severity::kWarning, "time-backwards",
      "the row's time 2026-11-01T06:00:10.000Z is not after the previous row's 2026-11-01T06:00:30.000Z; the row is "
      "skipped"});
  ASSERT_TRUE(back);
  EXPECT_EQ(back->before, *ParseIso("2026-11-01T06:00:30Z"));
  EXPECT_EQ(back->after, *ParseIso("2026-11-01T06:00:10Z"));
  EXPECT_EQ(back->line, 41);
  // sar's text has no times; other issues are not clock events.
  EXPECT_FALSE(ClockEventFromIssue(ImportIssue{"l.log", 9, Severity::kWarning, "time-backwards",
                                               "the time is not after the previous row's; row skipped"}));
  EXPECT_FALSE(ClockEventFromIssue(ImportIssue{"g.csv", 3, Severity::kWarning, "ragged-row", "shift at x"}));
}

TEST(ClockEventMigrationTest, StoredIssuesAreCopiedIntoTheTable) {
  testing::TempDir dir;
  auto store = Store::Open(dir.File("s.db"));
  ASSERT_TRUE(store.ok());
  FileRecord f;
  f.fingerprint = "f1";
  f.path = "g.csv";
  ASSERT_TRUE((*store)->SaveFile(&f).ok());
  ASSERT_TRUE((*store)
                  ->AddIssues(f.id, {ImportIssue{"g.csv", 41, Severity::kWarning, "time-backwards",
                                                 "the row's time 2026-11-01T06:00:10.000Z is not after the previous "
                                                 "row's 2026-11-01T06:00:30.000Z; the row is skipped"},
                                     ImportIssue{"g.csv", 50, Severity::kWarning, "ragged-row", "x"}})
                  .ok());
  Database* db = (*store)->db();
  ASSERT_TRUE(ClockEventsFromIssues(db).ok());
  auto events = (*store)->ClockEvents();
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 1u);
  EXPECT_EQ((*events)[0].event.kind, "time-backwards");
  EXPECT_EQ((*events)[0].event.line, 41);
}

}  // namespace
}  // namespace vrecon
