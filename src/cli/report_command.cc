// `vrecon report`: the capacity planners' report (issue 6) from the stored corrections, as HTML,
// CSV, JSON, PDH-CSV or a markdown summary. See docs/report.md.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/cli/correction_options.h"
#include "src/core/file_replace.h"
#include "src/core/text_util.h"
#include "src/engine/stored_corrections.h"
#include "src/report/capacity_report.h"
#include "src/report/html_report.h"
#include "src/report/pdh_export.h"
#include "src/report/report_data.h"
#include "src/store/window_blocks.h"

namespace vrecon::cli {
namespace {

// "Eastern Standard Time (UTC-05:00)" per guest machine, from the ingested files' headers.
std::map<std::string, std::string> GuestZones(Store* store) {
  std::map<std::string, std::string> zones;
  auto files = store->Files();
  if (!files.ok()) return zones;
  for (const FileRecord& f : *files) {
    // Guest logs only: a host-side log (esxtop, Hyper-V) names the host, in the host's zone.
    if (f.time_zone.empty() || f.kinds.find("guest") == std::string::npos) continue;
    const int off = -f.bias_minutes;
    char buf[16];
    std::snprintf(buf, sizeof buf, "UTC%c%02d:%02d", off < 0 ? '-' : '+', std::abs(off) / 60, std::abs(off) % 60);
    size_t start = 0;
    while (start <= f.machines.size()) {
      size_t comma = f.machines.find(',', start);
      if (comma == std::string::npos) comma = f.machines.size();
      const std::string m = f.machines.substr(start, comma - start);
      if (!m.empty()) zones[m] = f.time_zone + " (" + buf + ")";
      start = comma + 1;
    }
  }
  return zones;
}

Status Write(const ReportArgs& o, const std::function<Status(std::ostream&)>& body) {
  if (o.out == "-") return body(std::cout);
  std::error_code ec;
  if (std::filesystem::is_directory(o.out, ec))
    return Status::InvalidArgument("--out " + o.out + " is a directory: name the file to write");
  return ReplaceFile(o.out, body);
}
}  // namespace

int RunReportCommand(const ReportArgs& o) {
  if (std::error_code ec; o.out != "-" && std::filesystem::is_directory(o.out, ec))
    return FailUsage("--out " + o.out + " is a directory: name the file to write");
  report::ReportRequest rreq;
  CorrectionRequest creq;
  if (!o.vm.empty()) rreq.vm = creq.vm = o.vm;
  for (const auto& [opt, text, out] :
       {std::tuple{"--from", &o.from, &rreq.from}, std::tuple{"--to", &o.to, &rreq.to}}) {
    Status s = ParseTimeOption(opt, *text, out);
    if (!s.ok()) return FailUsage(s);
  }
  if (rreq.from && rreq.to && *rreq.to <= *rreq.from)
    return FailUsage("--to " + o.to + " is not after --from " + o.from);
  creq.from = rreq.from;
  creq.to = rreq.to;
  for (const Status& s : {ParseCounterOption(o.vsphere_counter, &creq.host_counters.vsphere),
                          ParseCounterOption(o.esxtop_counter, &creq.host_counters.esxtop)})
    if (!s.ok()) return FailUsage(s);
  auto store = OpenExistingStore(o.db);
  if (!store.ok()) return Fail(store.status());
  auto series = CountSeries(store->get());
  auto stored = CountCorrWindows(store->get());
  if (!series.ok() || !stored.ok()) return Fail(series.ok() ? stored.status() : series.status());
  if (*series == 0 && *stored == 0)
    return Fail("store " + o.db + " holds no samples and no stored corrections: run `vrecon ingest --db " + o.db +
                " FILE...` or `vrecon collect` first");

  if (o.format == "pdh-csv") {
    // Per-process values per window are not stored (docs/storage.md): computed from the samples.
    if (*series == 0)
      return Fail("store " + o.db + " holds no samples: --format pdh-csv recomputes the corrected counters from them");
    auto windows = RunCorrection(store->get(), creq);
    if (!windows.ok()) return Fail(windows.status());
    if (windows->empty()) std::cerr << "vrecon: note: no corrected windows in the requested period\n";
    Status s = Write(o, [&](std::ostream& os) { return report::WritePdhCsv(os, *windows); });
    if (!s.ok()) return Fail(s);
    return kExitOk;
  }

  if (o.recompute || *stored == 0) {
    if (*series == 0) return Fail("--recompute: store " + o.db + " holds no samples to recompute the corrections from");
    const std::optional<std::string>& read_only = (*store)->read_only_reason();
    if (read_only) {
      std::cerr << "vrecon: note: " << o.db << " is read-only (" << *read_only << "): the corrections are computed "
                << "for this report and not stored\n";
      if (Status s = (*store)->ShadowCorrectionTables(); !s.ok()) return Fail(s);
    } else if (!o.recompute) {
      std::cerr << "vrecon: note: " << o.db << " holds no stored corrections yet: computing them from its samples "
                << "and storing them for the next report\n";
    }
    CorrectionRequest all;  // everything: a report reads stored results, whatever its range
    all.host_counters = creq.host_counters;
    auto n = StoreCorrections(store->get(), all);
    if (!n.ok()) return Fail(n.status());
  }
  std::vector<std::string> notes;
  // Keeps the report's notes for stderr; the status is the writer's.
  auto keep = [&](StatusOr<report::FleetReport> r) -> Status {
    if (!r.ok()) return r.status();
    notes = r->notes;
    return Status::Ok();
  };
  Status s;
  if (o.format == "html") {
    report::HtmlOptions ho;
    ho.guest_zones = GuestZones(store->get());
    s = Write(o, [&](std::ostream& os) { return keep(report::WriteHtmlReport(os, store->get(), rreq, ho)); });
  } else if (o.format == "csv") {
    s = Write(o, [&](std::ostream& os) { return keep(report::WriteReportCsv(os, store->get(), rreq)); });
  } else if (o.format == "json") {
    s = Write(o, [&](std::ostream& os) { return keep(report::WriteReportJson(os, store->get(), rreq)); });
  } else {
    s = Write(o, [&](std::ostream& os) {
      auto fleet = report::BuildFleetReport(store->get(), rreq);
      if (!fleet.ok()) return fleet.status();
      auto capacity = report::BuildCapacityReport(store->get(), rreq);
      if (!capacity.ok()) return capacity.status();
      report::WriteReportMarkdown(os, *fleet, *capacity);
      return keep(std::move(fleet));
    });
  }
  if (!s.ok()) return Fail(s);
  for (const std::string& n : notes) std::cerr << "vrecon: note: " << n << "\n";
  return kExitOk;
}

}  // namespace vrecon::cli
