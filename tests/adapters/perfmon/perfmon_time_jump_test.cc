// Rows whose time jumps ahead: an isolated jump the next rows contradict is the bad row, a jump
// the next rows confirm is a pause of the log (its first row is not spread back over the gap).
#include <gtest/gtest.h>

#include "adapters/perfmon/perfmon_reader.h"
#include "tests/support/capture_sink.h"

namespace vrecon::perfmon {
namespace {

using vrecon::testing::CaptureSink;

constexpr const char* kHeader = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\WEB01\\Processor(_Total)\\% Processor Time\"\n";

// Rows 15 s apart from 10:00:00, one per value; `bent` replaces row `at`'s date.
std::string Log(int rows, int at = -1, const char* bent = nullptr) {
  std::string s = kHeader;
  for (int i = 0; i < rows; ++i) {
    const int t = i * 15;
    char when[64];
    std::snprintf(when, sizeof when, "11/02/2026 10:%02d:%02d.000", t / 60, t % 60);
    std::string stamp = when;
    if (i == at) stamp = std::string(bent) + stamp.substr(10);
    s += "\"" + stamp + "\",\"" + std::to_string(i) + "\"\n";
  }
  return s;
}

struct Parsed {
  Status status;
  CaptureSink sink;
  ReadSummary summary;
};

void Parse(const std::string& text, size_t chunk, Parsed* out, ReaderOptions o = {}) {
  o.file = "j.csv";
  PerfmonReader p(o, &out->sink);
  out->status = Status::Ok();
  for (size_t i = 0; i < text.size() && out->status.ok(); i += chunk) out->status = p.Parse(text.substr(i, chunk));
  if (out->status.ok()) out->status = p.Finish();
  out->summary = p.summary();
}

int CountCode(const CaptureSink& sink, const std::string& code) {
  int n = 0;
  for (const ImportIssue& i : sink.issues_) n += i.code == code;
  return n;
}

TEST(PerfmonTimeJumpTest, AnIsolatedJumpIsTheBadRowNotTheRestOfTheFile) {
  // 17 rows, row 5 (line 7) dated 2100: before, rows 6-16 were all "time-backwards".
  Parsed r;
  Parse(Log(17, 5, "11/02/2100"), 1 << 20, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.sink.rows_.size(), 16u);
  ASSERT_EQ(r.sink.issues_.size(), 1u);
  EXPECT_EQ(r.sink.issues_[0].code, "time-jump");
  EXPECT_EQ(r.sink.issues_[0].line, 7);
  EXPECT_NE(r.sink.issues_[0].message.find("2100-11-02T10:01:15"), std::string::npos) << r.sink.issues_[0].message;
  // The row after the bad one covers the time since the last good row.
  EXPECT_EQ(r.sink.rows_[5].start, r.sink.rows_[4].end);
  EXPECT_EQ(r.sink.rows_[5].end - r.sink.rows_[5].start, 30 * kNsPerSec);
  EXPECT_EQ(r.summary.consumed_lines, 18);
}

TEST(PerfmonTimeJumpTest, AJumpTheNextRowsConfirmIsAPauseKeptAsAGap) {
  // Rows 10.. are three hours later: the log paused. Every row is kept; the first row after the
  // pause covers one usual step, so no window inside the gap gets a value.
  std::string s = kHeader;
  for (int i = 0; i < 14; ++i) {
    const int t = i * 15 + (i >= 10 ? 3 * 3600 : 0);
    char row[96];
    std::snprintf(row, sizeof row, "\"11/02/2026 %02d:%02d:%02d.000\",\"%d\"\n", 10 + t / 3600, t / 60 % 60, t % 60, i);
    s += row;
  }
  Parsed r;
  Parse(s, 1 << 20, &r);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.sink.rows_.size(), 14u);
  EXPECT_EQ(CountCode(r.sink, "time-jump"), 0);
  ASSERT_EQ(CountCode(r.sink, "long-gap"), 1);
  EXPECT_EQ(r.sink.rows_[10].end - r.sink.rows_[10].start, 15 * kNsPerSec);
  EXPECT_EQ(r.sink.rows_[11].start, r.sink.rows_[10].end);
}

TEST(PerfmonTimeJumpTest, AShortPauseStillCoversItsGap) {
  // Ten minutes without a row (over the hold threshold, under the long-gap one): the next row's
  // values cover the ten minutes as before.
  std::string s = kHeader;
  for (int i = 0; i < 8; ++i) {
    const int t = i * 15 + (i >= 4 ? 600 : 0);
    char row[96];
    std::snprintf(row, sizeof row, "\"11/02/2026 10:%02d:%02d.000\",\"%d\"\n", t / 60, t % 60, i);
    s += row;
  }
  Parsed r;
  Parse(s, 1 << 20, &r);
  ASSERT_TRUE(r.status.ok());
  ASSERT_EQ(r.sink.rows_.size(), 8u);
  EXPECT_TRUE(r.sink.issues_.empty());
  EXPECT_EQ(r.sink.rows_[4].end - r.sink.rows_[4].start, 615 * kNsPerSec);
}

TEST(PerfmonTimeJumpTest, TheLastRowFarAheadIsKeptWithoutSpreadingOverTheSpan) {
  Parsed r;
  Parse(Log(17, 16, "11/02/2100"), 1 << 20, &r);
  ASSERT_TRUE(r.status.ok());
  ASSERT_EQ(r.sink.rows_.size(), 17u);
  EXPECT_EQ(CountCode(r.sink, "long-gap"), 1);
  EXPECT_EQ(r.sink.rows_[16].end - r.sink.rows_[16].start, 15 * kNsPerSec);
}

TEST(PerfmonTimeJumpTest, AJumpThenTheEndOfDaylightSavingTimeIsNotABadRow) {
  // Three hours paused, then local time goes back an hour (less a step): the jump is real.
  std::string s =
      "\"(PDH-CSV 4.0) (Central European Standard Time)(-60)\",\"\\\\W\\Processor(_Total)\\% Processor Time\"\n";
  for (const char* t : {"10/25/2026 00:00:00.000", "10/25/2026 00:00:15.000", "10/25/2026 00:00:30.000",
                        "10/25/2026 02:59:45.000", "10/25/2026 02:00:00.000", "10/25/2026 02:00:15.000"})
    s += "\"" + std::string(t) + "\",\"1\"\n";
  Parsed r;
  Parse(s, 1 << 20, &r);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.sink.rows_.size(), 6u);
  EXPECT_EQ(CountCode(r.sink, "time-jump"), 0);
  EXPECT_EQ(CountCode(r.sink, "dst-shift"), 1);
}

TEST(PerfmonTimeJumpTest, HeldRowsDoNotDependOnChunking) {
  const std::string log = Log(17, 5, "11/02/2100") + Log(3, -1).substr(std::string(kHeader).size());
  Parsed whole;
  Parse(log, 1 << 20, &whole);
  for (size_t chunk : {1, 7, 64}) {
    Parsed r;
    Parse(log, chunk, &r);
    ASSERT_EQ(r.sink.rows_.size(), whole.sink.rows_.size()) << chunk;
    ASSERT_EQ(r.sink.issues_.size(), whole.sink.issues_.size()) << chunk;
    for (size_t i = 0; i < r.sink.rows_.size(); ++i) EXPECT_EQ(r.sink.rows_[i].end, whole.sink.rows_[i].end);
  }
}

TEST(PerfmonTimeJumpTest, ResumingPastARejectedRowKeepsTheStoredLine) {
  // A first ingest stored lines 2-18 (line 7 rejected); the grown file resumes after line 18.
  const std::string first = Log(17, 5, "11/02/2100");
  Parsed a;
  Parse(first, 1 << 20, &a);
  ASSERT_TRUE(a.status.ok());
  const std::string grown = first + "\"11/02/2026 10:04:15.000\",\"17\"\n";
  ReaderOptions o;
  const ResumePoint resume{a.summary.consumed_lines, a.summary.consumed_line_hash};
  o.resume_lookup = [resume](uint64_t) { return resume; };
  Parsed b;
  Parse(grown, 1 << 20, &b, o);
  ASSERT_TRUE(b.status.ok()) << b.status.message();
  ASSERT_EQ(b.sink.rows_.size(), 1u);
  EXPECT_EQ(b.sink.rows_[0].start, a.sink.rows_.back().end);
  EXPECT_EQ(CountCode(b.sink, "file-changed"), 0);
  EXPECT_EQ(b.summary.rows_already, 16);
}

}  // namespace
}  // namespace vrecon::perfmon
