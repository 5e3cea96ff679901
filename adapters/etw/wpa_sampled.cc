#include "adapters/etw/wpa_sampled.h"

#include "adapters/etw/cpu_accounting.h"
#include "adapters/etw/xperf_dumper.h"
#include "src/core/text_util.h"

namespace vrecon::etw {
namespace {

// Each field's column, in the order of WpaSampledReader::Field.
constexpr wpa::ColumnSpec kSampledColumns[] = {
    {"process", "Process", wpa::Unit::kNone},        {"cpu", "CPU", wpa::Unit::kNone},
    {"weight", "Weight", wpa::Unit::kMillis},        {"weight(inview)", "Weight (in view)", wpa::Unit::kMillis},
    {"timestamp", "TimeStamp", wpa::Unit::kSeconds}, {"count", "Count", wpa::Unit::kNone},
};

constexpr int64_t kMaxSampleCpu = 4095;
// One sample stands for one profile interval: WPA's slowest profile rate is about 1 ms x 1000 (a
// second); a heavier row sums several samples.
constexpr double kMaxWeightUs = 1'000'000;

double WeightMicros(const wpa::Decimal& d, wpa::Unit unit) {
  const double v = static_cast<double>(d.whole) + static_cast<double>(d.nanos) / 1e9;
  switch (unit) {
    case wpa::Unit::kSeconds: return v * 1e6;
    case wpa::Unit::kMillis: return v * 1e3;
    case wpa::Unit::kNanos: return v / 1e3;
    case wpa::Unit::kMicros:
    case wpa::Unit::kNone: break;
  }
  return v;
}

}  // namespace

const wpa::TableSpec WpaSampledReader::kTable = {
    "wpa-sampled-csv", "CPU Usage (Sampled)", "profile sample", "samples", kSampledColumns, kCount, kTime};

WpaSampledReader::WpaSampledReader(ReaderOptions options, SampleSink* sink)
    : TableReader(std::move(options), sink, kTable) {}

Status WpaSampledReader::CheckColumns() {
  ReadFrom(kWeight, kWeightInView);
  for (Field f : {kProcess, kCpu, kWeight, kTime}) {
    if (!Has(f)) return MissingColumn("no \"" + std::string(kSampledColumns[f].name) + "\" column");
  }
  return Status::Ok();
}

bool WpaSampledReader::WeightOf(std::string_view cell, double* us) {
  wpa::Decimal d;
  if (!wpa::ParseDecimal(cell, &d)) {
    BadNumber(kWeight, cell, "the row is skipped");
    return false;
  }
  *us = WeightMicros(d, UnitOf(kWeight));
  if (*us > kMaxWeightUs) {
    Issue(line(), Severity::kWarning, "bad-weight",
          "a Weight of " + FormatFixed(*us / 1000, 3) +
              " ms is more than one profile sample's; export the table with every row expanded; skipped");
    return false;
  }
  return true;
}

void WpaSampledReader::OnRow() {
  if (!buckets_) buckets_.emplace(*options_.trace_start);
  const int64_t n = line();
  int64_t cpu = 0;
  if (!wpa::WholeNumber(Cell(kCpu), kMaxSampleCpu, &cpu)) {
    Issue(n, Severity::kWarning, "bad-number",
          "the CPU cell \"" + std::string(Cell(kCpu).substr(0, 20)) + "\" is not a CPU number (0-4095); skipped");
    return;
  }
  wpa::Decimal d;
  if (!wpa::ParseDecimal(Cell(kTime), &d)) {
    BadNumber(kTime, Cell(kTime), "the row is skipped");
    return;
  }
  const int64_t t_us = wpa::ToMicros(d, UnitOf(kTime));
  if (t_us > kLongestTraceUs) {
    Issue(n, Severity::kWarning, "bad-time",
          "a sample more than 6 hours after the trace's start; not believed, skipped");
    return;
  }
  double weight_us = 0;
  if (!WeightOf(Cell(kWeight), &weight_us)) return;
  std::string_view image;
  uint32_t pid = 0;
  uint32_t process = ProfileBuckets::kUnknown;
  if (ParseProcessField(Cell(kProcess), &image, &pid)) {
    process = buckets_->Process(image, pid);
  } else {
    Issue(n, Severity::kWarning, "bad-process",
          "Process \"" + std::string(Cell(kProcess).substr(0, 60)) +
              "\" is not \"name (pid)\": the sample's CPU was busy, for no known process");
  }
  buckets_->Add(t_us, weight_us, static_cast<int>(cpu), process);
}

Status WpaSampledReader::Write() { return buckets_->Write(options_.default_machine, quiet(), sink_, &summary_); }

}  // namespace vrecon::etw
