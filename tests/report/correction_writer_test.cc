#include "src/report/correction_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace vrecon {
namespace {

using models::WindowResult;

std::vector<WindowResult> Windows(const std::string& vm, int n) {
  std::vector<WindowResult> out;
  for (int i = 0; i < n; ++i) {
    WindowResult r;
    r.vm = vm;
    r.start = (1800000000LL + 300 * i) * kNsPerSec;
    r.end = r.start + 300 * kNsPerSec;
    r.guest_util_pct = 40 + i;
    r.host_util_pct = 46.5;
    r.w = *r.host_util_pct / *r.guest_util_pct;
    models::ProcessResult& p = r.processes.emplace_back();
    p.name = "sql,server \"a\"";
    p.guest_pct = 30.25;
    p.corrected_pct = 34.8;
    p.ci_lo = 33.1;
    p.ci_hi = 36.5;
    p.present_s = 300;
    r.processes.emplace_back().name = "idle-ish";
    r.flags.push_back(models::Flag{"low-coverage", Severity::kWarning, "guest data covers 50% of the window"});
    out.push_back(r);
  }
  return out;
}

// `vrecon correct` prints VM by VM: the chunks must make the document WriteCorrection makes of
// all the windows at once, in every format (separators between chunks, the JSON's ends).
TEST(CorrectionWriterTest, ChunksGiveTheBytesOfOneWrite) {
  std::vector<WindowResult> a = Windows("VM1", 2), none, b = Windows("VM2", 3);
  std::vector<WindowResult> all = a;
  all.insert(all.end(), b.begin(), b.end());
  for (OutputFormat f : {OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kTable}) {
    std::ostringstream whole, chunked;
    WriteCorrection(whole, all, f, 10);
    CorrectionWriter w(chunked, f, 10);
    w.Add(a);
    w.Add(none);
    w.Add(b);
    w.Finish();
    EXPECT_EQ(chunked.str(), whole.str()) << static_cast<int>(f);
    EXPECT_EQ(w.windows(), 5u);
  }
}

TEST(CorrectionWriterTest, NothingIsWrittenBeforeTheFirstChunkAndEmptyOutputIsWhole) {
  std::ostringstream os;
  CorrectionWriter w(os, OutputFormat::kJson, 10);
  EXPECT_EQ(os.str(), "") << "an error found before any VM leaves stdout empty";
  w.Finish();
  EXPECT_EQ(os.str(), "{\"windows\": []}\n");
  std::ostringstream csv;
  CorrectionWriter c(csv, OutputFormat::kCsv, 10);
  c.Finish();
  const std::string text = csv.str();
  EXPECT_EQ(text.rfind("vm,start,end,", 0), 0u);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << "the header alone";
}

}  // namespace
}  // namespace vrecon
