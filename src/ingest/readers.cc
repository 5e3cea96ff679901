#include "src/ingest/readers.h"

#include <array>

#include "adapters/etw/wpa_csv.h"
#include "adapters/etw/wpa_precise.h"
#include "adapters/etw/xperf_dumper.h"
#include "adapters/linux_proc/sar_parser.h"
#include "adapters/perfmon/perfmon_parser.h"
#include "adapters/powercli/powercli_csv.h"
#include "adapters/powercli/powercli_format.h"

namespace vrecon {
namespace {

template <typename R>
std::unique_ptr<Reader> Make(ReaderOptions options, SampleSink* sink) {
  return std::make_unique<R>(std::move(options), sink);
}

bool AnyHead(std::string_view /*head*/) { return true; }

// A Get-Stat export's header names Value, Timestamp and MetricId; sysstat `sar -u` text starts
// with a "Linux ... (host) date" line or "HH:MM:SS [AM|PM] all ..." rows; xperf's dumper text with
// "BeginHeader"; WPA's CPU Usage (Precise) export with a header naming "New Process" and
// "Switch-In Time" (no Perfmon header cell is a bare name). Perfmon comes last.
constexpr std::array kFormats = {
    ReaderFormat{"xperf-dumper", etw::LooksLikeXperfDumper, Make<etw::XperfDumperReader>},
    ReaderFormat{"powercli-csv", powercli::LooksLikePowerCliExport, Make<powercli::PowerCliParser>},
    ReaderFormat{"sar-text", sar::LooksLikeSar, Make<sar::SarParser>},
    ReaderFormat{"wpa-precise-csv", etw::wpa::LooksLikeWpaPrecise, Make<etw::WpaPreciseReader>},
    ReaderFormat{"perfmon-csv", AnyHead, Make<perfmon::PerfmonParser>},
};

}  // namespace

std::span<const ReaderFormat> ReaderFormats() { return kFormats; }

const ReaderFormat& SniffFormat(std::string_view head) {
  for (const ReaderFormat& f : kFormats)
    if (f.sniff(head)) return f;
  return kFormats.back();
}

Status ReadFileWith(const std::string& path, Reader* reader, const ProgressFn& progress) {
  RETURN_IF_ERROR(StreamFile(
      path, [&](std::string_view chunk) { return reader->Parse(chunk); }, progress));
  return reader->Finish();
}

}  // namespace vrecon
