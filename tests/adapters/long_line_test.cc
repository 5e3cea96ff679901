// A line longer than 64 MiB ends every line reader with one error naming the file and line, however
// the input is cut into chunks (issue 15, part 3): a line is held whole, so without the cap a
// file of one 4 GB line would need 4 GB.
#include <gtest/gtest.h>

#include "adapters/linux_proc/sar_reader.h"
#include "adapters/perfmon/perfmon_reader.h"
#include "adapters/powercli/powercli_csv.h"
#include "tests/support/capture_sink.h"
#include "tests/support/reader_options.h"

namespace vrecon {
namespace {

using testing::CaptureSink;

template <typename Parser, typename Options>
Status Read(const std::string& text, size_t chunk) {
  CaptureSink sink;
  Options o;
  o.file = "big.log";
  Parser p(o, &sink);
  return testing::ReadInChunks(p, text, chunk);
}

// `head` then a second line of 64 MiB + 1 byte, then a short third line (or none).
std::string WithLongSecondLine(const std::string& head, bool more) {
  std::string s = head + "\n";
  s.append(LineSplitter::kMaxLine + 1, '7');
  if (more) s += "\nend\n";
  return s;
}

template <typename Parser, typename Options>
void ExpectRefused(const std::string& head) {
  for (bool more : {true, false}) {
    const std::string text = WithLongSecondLine(head, more);
    for (size_t chunk : {size_t{1} << 20, text.size()}) {
      const Status s = Read<Parser, Options>(text, chunk);
      EXPECT_EQ(s.message(), "big.log:2: the line is longer than 64 MiB, which no log has; reading stopped")
          << chunk << (more ? " with a line after" : " at the end");
    }
  }
}

TEST(LongLineTest, PerfmonStopsWithTheFileAndLine) {
  ExpectRefused<perfmon::PerfmonReader, ReaderOptions>(
      "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\W\\Processor(_Total)\\% Processor Time\"");
}

TEST(LongLineTest, PowerCliStopsWithTheFileAndLine) {
  ExpectRefused<powercli::PowerCliReader, ReaderOptions>(
      "\"Value\",\"Timestamp\",\"MetricId\",\"Unit\",\"IntervalSecs\",\"Entity\"");
}

TEST(LongLineTest, SarStopsWithTheFileAndLine) {
  ExpectRefused<sar::SarReader, ReaderOptions>("Linux 5.4.17 (web01) \t03/07/2024 \t_x86_64_\t(2 CPU)");
}

TEST(LongLineTest, AFirstLineWithoutEndIsStoppedWhileItGrows) {
  // Before any line end the reader cannot tell CR from LF lines: the text it holds is capped too.
  std::string text(LineSplitter::kMaxLine + 2, 'x');
  const Status s = Read<perfmon::PerfmonReader, ReaderOptions>(text, 1 << 20);
  EXPECT_EQ(s.message(), "big.log:1: the line is longer than 64 MiB, which no log has; reading stopped");
}

TEST(LongLineTest, ALineOfExactlyTheLimitIsRead) {
  std::string text =
      "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\W\\Processor(_Total)\\% Processor Time\"\n\"11/02/2026 10:00:00.000\",\"";
  text.append(LineSplitter::kMaxLine - (text.size() - text.rfind('\n') - 1) - 2, '0');
  text += "1\"\n";
  const Status s = Read<perfmon::PerfmonReader, ReaderOptions>(text, 1 << 20);
  EXPECT_TRUE(s.ok()) << s.message();
}

}  // namespace
}  // namespace vrecon
