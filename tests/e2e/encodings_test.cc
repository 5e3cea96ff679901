// Logs in every text form a file may take on its way from the machine that wrote it (issue 15,
// part 3): UTF-16 little- and big-endian, with or without a BOM, and lines ended by CR alone.
// Each reader (Perfmon, PowerCLI, sar) must store exactly what it stores for the UTF-8 LF file;
// before, UTF-16BE was "binary" and CR-only PowerCLI and sar files, and UTF-16 sar, were not read.
#include <gtest/gtest.h>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {
namespace {

std::string Utf16(const std::string& ascii, bool big_endian, bool bom) {
  std::string out;
  if (bom) out = big_endian ? "\xFE\xFF" : "\xFF\xFE";
  for (char c : ascii) {
    if (big_endian) out.push_back('\0');
    out.push_back(c);
    if (!big_endian) out.push_back('\0');
  }
  return out;
}

std::string CrOnly(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out.push_back(text[i] == '\n' ? '\r' : text[i]);
  }
  return out;
}

struct Case {
  const char* name;
  const char* fixture;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.fixture; }

class EncodingsTest : public ::testing::TestWithParam<Case> {
 protected:
  // `samples` of a store holding only `content`, ingested as a file of that name.
  std::string Samples(const std::string& name, const std::string& content) {
    const std::string path = dir_.File(name), db = dir_.File(name + ".db");
    WriteText(path, content);
    const CliResult in = RunVrecon({"ingest", "--db", db, path});
    EXPECT_EQ(in.exit_code, 0) << name << ": " << in.out << in.err;
    const CliResult s = RunVrecon({"samples", "--db", db, "--format", "csv"});
    EXPECT_EQ(s.exit_code, 0) << s.err;
    return s.out;
  }
  TempDir dir_;
};

TEST_P(EncodingsTest, EveryFormStoresWhatUtf8Stores) {
  std::string text = ReadText(Fixture(GetParam().fixture));
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  ASSERT_EQ(text.find_first_of(std::string("\0", 1)), std::string::npos);
  for (unsigned char c : text) ASSERT_LT(c, 0x80) << "the conversions below are for ASCII fixtures";
  const std::string want = Samples("utf8.txt", text);
  ASSERT_GT(std::count(want.begin(), want.end(), '\n'), 2) << want;
  EXPECT_EQ(Samples("le-bom.txt", Utf16(text, false, true)), want);
  EXPECT_EQ(Samples("le.txt", Utf16(text, false, false)), want);
  EXPECT_EQ(Samples("be-bom.txt", Utf16(text, true, true)), want);
  EXPECT_EQ(Samples("be.txt", Utf16(text, true, false)), want);
  EXPECT_EQ(Samples("cr.txt", CrOnly(text)), want);
  EXPECT_EQ(Samples("be-cr.txt", Utf16(CrOnly(text), true, true)), want);
}

INSTANTIATE_TEST_SUITE_P(Readers, EncodingsTest,
                         ::testing::Values(Case{"perfmon", "seed003/guest-web01.csv"},
                                           Case{"powercli", "powercli/enus-type.csv"},
                                           Case{"sar", "linux_proc/sar_header_12h.log"}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace vrecon::testing
