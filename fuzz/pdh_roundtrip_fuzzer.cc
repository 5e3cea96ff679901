// The PDH-CSV writer (adapters/perfmon/pdh_csv_writer: vrecon-agent, `collect procfs --out`, `report --format
// pdh-csv`) read back by the Perfmon parser. The fuzz input chooses a zone and bias, counter
// paths as Windows names them, rows of local times and values (any double bit pattern, or
// none), and how the written text is chunked for reading.
// Property: every value written reads back bit for bit (a non-finite value or none is written
// " " and reads back missing), every row at the instant written (local time + bias), and the
// header's zone and bias as written.
#include <fuzzer/FuzzedDataProvider.h>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "adapters/perfmon/pdh_csv_writer.h"
#include "adapters/perfmon/perfmon_reader.h"
#include "fuzz/chunk_plan.h"
#include "fuzz/fuzz_check.h"

using namespace vrecon;

namespace {

class RowSink : public SampleSink {
 public:
  struct Row {
    TimeNs start, end;
    std::vector<double> values;
  };
  Status DeclareColumns(const std::vector<SeriesKey>&) override { return Status::Ok(); }
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override {
    rows.push_back(Row{start, end, {values.begin(), values.end()}});
    return Status::Ok();
  }
  void AddIssue(ImportIssue) override {}
  std::vector<Row> rows;
};

// A name as Windows gives one: valid UTF-8 (the agent converts from UTF-16), no control
// characters, none of `banned`, not empty.
std::string Name(FuzzedDataProvider& in, std::string_view banned, size_t max_len) {
  std::string raw = in.ConsumeRandomLengthString(max_len), out;
  for (char c : raw)
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F && banned.find(c) == std::string_view::npos) out += c;
  if (!IsValidUtf8(out)) out = SingleByteToUtf8(out, Encoding::kCp1252);
  return out.empty() ? "x" : out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  perfmon::TimeZone zone{Name(in, "\"", 40), in.ConsumeIntegralInRange(-24 * 60, 24 * 60)};
  const size_t ncols = in.ConsumeIntegralInRange<size_t>(1, 8);
  std::vector<std::string> paths;
  for (size_t i = 0; i < ncols; ++i) {
    std::string path = "\\\\" + Name(in, "\\", 15) + "\\" + Name(in, "\\()", 20);
    if (in.ConsumeBool()) path += "(" + Name(in, "", 20) + ")";
    // The counter ends in its column number: two columns never name one series.
    paths.push_back(path + "\\" + Name(in, "\\", 20) + " " + std::to_string(i));
  }
  std::string text = perfmon::FormatHeader(zone, paths);

  struct Written {
    TimeNs local;
    std::vector<std::optional<double>> values;
  };
  std::vector<Written> rows(in.ConsumeIntegralInRange<size_t>(1, 16));
  TimeNs t = DaysFromCivil(in.ConsumeIntegralInRange(1980, 2100), 1, 1) * 86400 * kNsPerSec +
             in.ConsumeIntegralInRange<int64_t>(0, 365LL * 86400 * 1000) * kNsPerMs;
  for (Written& r : rows) {
    // Steps of up to one hour: longer ones are read as the start of daylight saving time.
    t += in.ConsumeIntegralInRange<int64_t>(1, 3600 * 1000) * kNsPerMs;
    r.local = t;
    for (size_t c = 0; c < ncols; ++c) {
      if (in.ConsumeBool()) {
        r.values.push_back(std::nullopt);
      } else {
        r.values.push_back(std::bit_cast<double>(in.ConsumeIntegral<uint64_t>()));
      }
    }
    const CivilTime ct = CivilFromNs(r.local);
    text += perfmon::FormatRow({ct.year, ct.month, ct.day, ct.hour, ct.minute, ct.second, ct.millis}, r.values);
  }

  RowSink sink;
  ReaderOptions options;
  options.file = "agent.csv";
  perfmon::PerfmonReader parser(std::move(options), &sink);
  Status s;
  for (std::string_view chunk : fuzz::Cut(text, in.ConsumeIntegral<uint32_t>())) {
    s = parser.Parse(chunk);
    if (!s.ok()) break;
  }
  if (s.ok()) s = parser.Finish();
  if (!s.ok()) std::fprintf(stderr, "%s\n", s.message().c_str());
  FUZZ_CHECK(s.ok(), "a file the writer wrote reads");
  const ReadSummary& sum = parser.summary();
  FUZZ_CHECK(parser.format_cell().bias_minutes == zone.bias_minutes && sum.time_zone == zone.name,
             "the header's zone and bias read back as written");
  FUZZ_CHECK(sum.columns.size() == ncols, "every counter path written reads back as a column");
  for (size_t c = 0; c < ncols; ++c)
    FUZZ_CHECK(sum.columns[c].original == paths[c], "a counter path reads back as written");
  // A finite value beyond any counter's range is written as it is and read back missing, said
  // once (the writer writes NaN and infinities as missing).
  int64_t out_of_range = 0;
  for (const Written& r : rows)
    for (const std::optional<double>& v : r.values)
      out_of_range += v && std::isfinite(*v) && std::fabs(*v) > perfmon::kMaxCounterMagnitude;
  FUZZ_CHECK(sum.issues == out_of_range && sink.rows.size() == rows.size(),
             "every row reads back; the only issues are values beyond a counter's range");

  const TimeNs bias = static_cast<TimeNs>(zone.bias_minutes) * 60 * kNsPerSec;
  for (size_t r = 0; r < rows.size(); ++r) {
    const RowSink::Row& got = sink.rows[r];
    FUZZ_CHECK(got.end == rows[r].local + bias, "a row reads back at the instant written");
    FUZZ_CHECK(got.start == (r == 0 ? got.end : rows[r - 1].local + bias),
               "a row's interval starts at the previous row");
    for (size_t c = 0; c < ncols; ++c) {
      const std::optional<double>& w = rows[r].values[c];
      if (!w || !std::isfinite(*w) || std::fabs(*w) > perfmon::kMaxCounterMagnitude) {
        FUZZ_CHECK(IsMissing(got.values[c]), "a value written as missing reads back missing");
      } else {
        FUZZ_CHECK(std::bit_cast<uint64_t>(got.values[c]) == std::bit_cast<uint64_t>(*w),
                   "a value written reads back bit for bit");
      }
    }
  }
  return 0;
}
