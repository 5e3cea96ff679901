#include "src/ingest/readers.h"

#include <array>

#include "adapters/etw/wpa_csv.h"
#include "adapters/etw/wpa_precise.h"
#include "adapters/etw/wpa_sampled.h"
#include "adapters/etw/xperf_dumper.h"
#include "adapters/linux_proc/proc_stat_parser.h"
#include "adapters/linux_proc/sar_reader.h"
#include "adapters/perfmon/perfmon_format.h"
#include "adapters/perfmon/perfmon_reader.h"
#include "adapters/powercli/powercli_csv.h"
#include "adapters/powercli/powercli_format.h"

namespace vrecon {
namespace {

template <typename R>
std::unique_ptr<Reader> Make(ReaderOptions options, SampleSink* sink) {
  return std::make_unique<R>(std::move(options), sink);
}

// A format that announces itself: surely it, or not.
template <bool (*kLooksLike)(std::string_view)>
Likeness Surely(std::string_view head) {
  return kLooksLike(head) ? Likeness::kSurely : Likeness::kNo;
}

// A Get-Stat export's header names Value, Timestamp and MetricId; sysstat `sar -u` text starts
// with a "Linux ... (host) date" line or "HH:MM:SS [AM|PM] all ..." rows; xperf's dumper text with
// "BeginHeader"; WPA's CPU Usage (Precise) export with a header naming "New Process" and
// "Switch-In Time"; its CPU Usage (Sampled) export with a Weight column and % Weight or TimeStamp
// (never Switch-In Time); a Perfmon log (esxtop's batch output and Hyper-V's logs are Perfmon logs) with
// "(PDH-CSV 4.0)" or "(PDH-TSV 4.0)". On a tie the earlier wins.
constexpr std::array kFormats = {
    ReaderFormat{"xperf-dumper", "xperf's dumper text (xperf -i trace.etl -a dumper)",
                 Surely<etw::LooksLikeXperfDumper>, Make<etw::XperfDumperReader>},
    ReaderFormat{"powercli-csv", "PowerCLI Get-Stat CSV exports", Surely<powercli::LooksLikePowerCliExport>,
                 Make<powercli::PowerCliReader>},
    ReaderFormat{"sar-text", "Linux sysstat \"sar -u\" text", Surely<sar::LooksLikeSar>, Make<sar::SarReader>},
    ReaderFormat{"wpa-precise-csv", "WPA \"CPU Usage (Precise)\" CSV exports", Surely<etw::wpa::LooksLikeWpaPrecise>,
                 Make<etw::WpaPreciseReader>},
    ReaderFormat{"wpa-sampled-csv", "WPA \"CPU Usage (Sampled)\" CSV exports", Surely<etw::wpa::LooksLikeWpaSampled>,
                 Make<etw::WpaSampledReader>},
    ReaderFormat{"perfmon-csv",
                 "Perfmon CSV/TSV logs (PDH-CSV 4.0: Performance Monitor, relog, typeperf, esxtop -b, Hyper-V "
                 "hosts' counters)",
                 perfmon::PerfmonLikeness, Make<perfmon::PerfmonReader>},
};

// Inputs people feed to vrecon that it does not read, and what they should feed it instead.
struct UnreadFormat {
  Likeness (*sniff)(std::string_view head);
  std::string_view refusal;  // follows the path
};

constexpr std::array kUnread = {
    UnreadFormat{Surely<linux_proc::LooksLikeProcStat>,
                 " is a /proc/stat snapshot: its counters count since boot, and one snapshot has no rate. Sample "
                 "the machine over time with `vrecon collect procfs` (docs/formats/linux-procfs.md), or ingest "
                 "its \"sar -u\" text"},
    UnreadFormat{Surely<sar::LooksLikeAixSar>,
                 " is AIX (PowerVM) sar output (physc, %entc): not supported. vrecon reads Linux sysstat "
                 "\"sar -u\" text, whose %steal is the time a Linux guest lost to its hypervisor "
                 "(docs/formats/sar.md)"},
};

std::string Unrecognised(std::string_view head) {
  std::string first = FirstHeadLine(head);
  if (first.size() > 60) first = first.substr(0, 57) + "...";
  std::string m = ": unrecognised format (its first line: \"" + first + "\"); vrecon reads ";
  for (size_t i = 0; i < kFormats.size(); ++i)
    m += std::string(i == 0 ? "" : i + 1 == kFormats.size() ? " and " : ", ") + std::string(kFormats[i].description);
  return m + " (docs/formats/)";
}

}  // namespace

std::span<const ReaderFormat> ReaderFormats() { return kFormats; }

FormatGuess GuessFormat(std::string_view head) {
  FormatGuess guess;
  Likeness best = Likeness::kNo;
  for (const ReaderFormat& f : kFormats) {
    const Likeness l = f.sniff(head);
    if (l > best) {
      best = l;
      guess.reader = &f;
    }
  }
  if (best == Likeness::kSurely) return guess;
  // A format vrecon recognises but does not read outranks a reader's "possibly".
  for (const UnreadFormat& u : kUnread) {
    if (u.sniff(head) == Likeness::kSurely) return FormatGuess{nullptr, std::string(u.refusal)};
  }
  if (guess.reader) return guess;
  return FormatGuess{nullptr, Unrecognised(head)};
}

Status ReadFileWith(const std::string& path, Reader* reader, const ProgressFn& progress) {
  RETURN_IF_ERROR(StreamFile(
      path, [&](std::string_view chunk) { return reader->Parse(chunk); }, progress));
  return reader->Finish();
}

}  // namespace vrecon
