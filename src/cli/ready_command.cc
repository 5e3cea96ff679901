// `vrecon ready`: the Ready-Time analysis per VM (models/ready_analysis.h) and right-sizing hints.
#include <filesystem>
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/core/text_util.h"
#include "src/engine/ready_job.h"
#include "src/report/ready_json.h"

namespace vrecon::cli {
namespace {

using models::Summary;
using models::VmReadySummary;

std::string Fx(const std::optional<double>& v, int d) { return v ? FormatFixed(*v, d) : "-"; }
std::string Pc(const std::optional<double>& share) { return share ? FormatFixed(100 * *share, 1) + "%" : "-"; }

void WriteCsv(std::ostream& os, const std::vector<VmReadySummary>& vms) {
  os << "vm,source,host,vcpus,samples,ready_mean,ready_p95,ready_share_above_5,ready_share_above_10,costop_mean,"
        "costop_p95,costop_share_above_3,run_mean,wait_mean,usage_mean,wait_per_dispatch_us_mean,"
        "wait_per_dispatch_us_p95,host_load_p95,hints,vm_key\n";
  for (const VmReadySummary& v : vms) {
    std::string hints;
    for (const auto& h : v.hints) hints += (hints.empty() ? "" : ";") + h.code;
    const auto& wpd = v.wait_per_dispatch_us;
    os << CsvCell(v.vm) << "," << v.source << "," << CsvCell(v.host) << ","
       << CsvNumber(v.vcpus ? std::optional<double>(*v.vcpus) : std::nullopt) << "," << v.samples << ","
       << CsvNumber(v.ready.mean) << "," << CsvNumber(v.ready.p95) << "," << CsvNumber(report::ShareAbove(v.ready, 0))
       << "," << CsvNumber(report::ShareAbove(v.ready, 1)) << "," << CsvNumber(v.costop.mean) << ","
       << CsvNumber(v.costop.p95) << "," << CsvNumber(report::ShareAbove(v.costop, 0)) << "," << CsvNumber(v.run_mean)
       << "," << CsvNumber(v.wait_mean) << "," << CsvNumber(v.usage_mean) << ","
       << CsvNumber(wpd ? wpd->mean : std::nullopt) << "," << CsvNumber(wpd ? wpd->p95 : std::nullopt) << ","
       << CsvNumber(v.host_load ? v.host_load->p95 : std::nullopt) << "," << CsvCell(hints) << "," << CsvCell(v.vm_key)
       << "\n";
  }
}

void WriteTable(std::ostream& os, const std::vector<VmReadySummary>& vms) {
  TextTable t({"vm", "source", "vCPUs", "samples", "ready/vCPU mean", "p95", ">5%", ">10%", "co-stop mean", "p95",
               ">3%", "wait/dispatch us", "host load p95"});
  for (const VmReadySummary& v : vms) {
    const auto& wpd = v.wait_per_dispatch_us;
    t.AddRow({VmLabel(v.vm, v.vm_source, v.vm_name_shared), v.source, v.vcpus ? std::to_string(*v.vcpus) : "?",
              std::to_string(v.samples), Fx(v.ready.mean, 2), Fx(v.ready.p95, 2), Pc(report::ShareAbove(v.ready, 0)),
              Pc(report::ShareAbove(v.ready, 1)), Fx(v.costop.mean, 2), Fx(v.costop.p95, 2),
              Pc(report::ShareAbove(v.costop, 0)), wpd ? Fx(wpd->mean, 1) : "-",
              v.host_load ? Fx(v.host_load->p95, 1) : "-"});
  }
  t.Print(os);
  for (const VmReadySummary& v : vms)
    for (const auto& h : v.hints)
      os << "hint " << VmLabel(v.vm, v.vm_source, v.vm_name_shared) << " " << h.code << " (" << SeverityName(h.severity)
         << "): " << h.message << "\n";
}

}  // namespace

int RunReadyCommand(const ReadyArgs& o) {
  ReadyRequest req;
  if (!o.vm.empty()) req.vm = o.vm;
  if (Status s = ParseTimeRange(o.from, o.to, &req.from, &req.to); !s.ok()) return FailUsage(s);
  auto store = OpenExistingStore(o.db);
  if (!store.ok()) return Fail(store.status());
  auto vms = RunReadyAnalysis(store->get(), req);
  if (!vms.ok()) return Fail(vms.status());
  if (vms->empty()) std::cerr << "vrecon: no VM with ready-time data (vSphere, esxtop or Hyper-V) in the store\n";
  switch (ToFormat(o.format)) {
    case OutputFormat::kJson: report::WriteReadyJson(std::cout, *vms); break;
    case OutputFormat::kCsv: WriteCsv(std::cout, *vms); break;
    case OutputFormat::kTable: WriteTable(std::cout, *vms); break;
  }
  return kExitOk;
}

}  // namespace vrecon::cli
