#include "src/report/correction_report.h"

#include <algorithm>

#include "src/core/text_util.h"
#include "src/report/counter_report.h"

namespace vrecon {
namespace {

using models::WindowResult;

std::optional<double> Opt(const std::optional<int>& v) { return v ? std::optional<double>(*v) : std::nullopt; }

std::string Fixed(const std::optional<double>& v, int decimals) { return v ? FormatFixed(*v, decimals) : "-"; }

// An events-basis window's "sampled_vs_events": Perfmon's figures beside the trace's, the totals
// and each process found in both (null in other windows).
void WriteJsonComparison(std::ostream& os, const WindowResult& r) {
  const bool any = r.sampled_guest_util_pct || std::any_of(r.processes.begin(), r.processes.end(),
                                                           [](const auto& p) { return p.sampled_pct.has_value(); });
  if (r.basis != models::Basis::kEvents || !any) {
    os << "null";
    return;
  }
  os << "{\"guest_util_pct\": {\"sampled\": " << JsonNumber(r.sampled_guest_util_pct)
     << ", \"events\": " << JsonNumber(r.guest_util_pct) << "}, \"processes\": [";
  bool first = true;
  for (const auto& p : r.processes) {
    if (!p.sampled_pct || !p.guest_pct) continue;
    os << (first ? "" : ", ") << "{\"name\": " << JsonString(p.name)
       << ", \"sampled_pct\": " << JsonNumber(p.sampled_pct) << ", \"events_pct\": " << JsonNumber(p.guest_pct)
       << ", \"difference_pct\": " << JsonNumber(*p.sampled_pct - *p.guest_pct) << "}";
    first = false;
  }
  os << "]}";
}

// A VM two host-side sources see: each one's figure, the one w uses first (null for others).
void WriteJsonHostSources(std::ostream& os, const WindowResult& r) {
  os << "[";
  for (size_t i = 0; i < r.host_sources.size(); ++i) {
    const models::HostFigure& f = r.host_sources[i];
    os << (i ? ", " : "") << "{\"source\": " << JsonString(models::HostSourceName(f.source))
       << ", \"counter\": " << JsonString(f.counter) << ", \"host_util_pct\": " << JsonNumber(f.pct)
       << ", \"host_coverage\": " << JsonNumber(f.coverage) << "}";
  }
  os << "]";
}

// The CSV's host_sources cell: "esxtop:% Used=45.2;vsphere:cpu.usage.average=44.8", the one w
// uses first; empty for a VM with one host-side source.
std::string CsvHostSources(const WindowResult& r) {
  std::string cell;
  for (const models::HostFigure& f : r.host_sources) {
    if (!cell.empty()) cell += ';';
    cell.append(models::HostSourceName(f.source)).append(":").append(f.counter).append("=");
    AppendCsvNumber(&cell, f.pct);
  }
  return CsvCell(cell);
}

// Other bases' figures: [{"basis": "cycles", "<field>": 12.5}, ...].
void WriteJsonOtherBases(std::ostream& os, const std::vector<models::BasisFigure>& figures, const char* field) {
  os << "[";
  for (size_t i = 0; i < figures.size(); ++i)
    os << (i ? ", " : "") << "{\"basis\": " << JsonString(models::BasisName(figures[i].basis)) << ", \"" << field
       << "\": " << JsonNumber(figures[i].pct) << "}";
  os << "]";
}

// One window's JSON object; `counters`, when given, is its "counters" array.
void WriteJsonWindow(std::ostream& os, const WindowResult& r, const std::vector<models::CounterValue>* counters) {
  os << "{\"vm\": " << JsonString(r.vm) << ", \"start\": " << JsonString(FormatIso(r.start, false))
     << ", \"end\": " << JsonString(FormatIso(r.end, false)) << ", \"vcpus\": " << JsonNumber(Opt(r.vcpus))
     << ", \"guest_util_pct\": " << JsonNumber(r.guest_util_pct)
     << ", \"host_util_pct\": " << JsonNumber(r.host_util_pct) << ", \"w\": " << JsonNumber(r.w)
     << ", \"steal_pct\": " << JsonNumber(r.steal_pct) << ", \"guest_machine\": " << JsonString(r.guest_machine)
     << ", \"host_source\": " << JsonString(models::HostSourceName(r.host))
     << ", \"guest_coverage\": " << JsonNumber(r.guest_coverage)
     << ", \"host_coverage\": " << JsonNumber(r.host_coverage)
     << ", \"ready_pct_per_vcpu\": " << JsonNumber(r.ready_pct_per_vcpu)
     << ", \"costop_pct\": " << JsonNumber(r.costop_pct) << ", \"clock_offset_s\": " << JsonNumber(r.clock_offset_s)
     << ", \"processes\": [";
  for (size_t j = 0; j < r.processes.size(); ++j) {
    const auto& p = r.processes[j];
    os << (j ? ", " : "") << "{\"name\": " << JsonString(p.name) << ", \"guest_pct\": " << JsonNumber(p.guest_pct)
       << ", \"corrected_pct\": " << JsonNumber(p.corrected_pct) << ", \"ci95\": ";
    if (p.ci_lo && p.ci_hi) {
      os << "[" << JsonNumber(p.ci_lo) << ", " << JsonNumber(p.ci_hi) << "]";
    } else {
      os << "null";
    }
    os << ", \"present_s\": " << JsonNumber(p.present_s) << ", \"basis\": " << JsonString(models::BasisName(p.basis))
       << ", \"bottleneck_pct\": " << JsonNumber(p.bottleneck_pct)
       << ", \"queue_ms_mean\": " << JsonNumber(p.queue_ms_mean) << ", \"queue_ms_p95\": " << JsonNumber(p.queue_ms_p95)
       << ", \"sampled_pct\": " << JsonNumber(p.sampled_pct) << ", \"bias_ratio\": " << JsonNumber(p.bias_ratio)
       << ", \"other_bases\": ";
    WriteJsonOtherBases(os, p.other_bases, "guest_pct");
    os << "}";
  }
  os << "], \"flags\": [";
  for (size_t j = 0; j < r.flags.size(); ++j) {
    const auto& f = r.flags[j];
    os << (j ? ", " : "") << "{\"code\": " << JsonString(f.code)
       << ", \"severity\": " << JsonString(SeverityName(f.severity)) << ", \"message\": " << JsonString(f.message)
       << "}";
  }
  os << "]";
  if (counters) {
    os << ", \"counters\": ";
    WriteCounterJsonArray(os, *counters);
  }
  os << ", \"vm_key\": " << JsonString(r.vm_key) << ", \"vm_source\": " << JsonString(r.vm_source)
     << ", \"host_counter\": " << JsonString(r.host_counter)
     << ", \"basis\": " << JsonString(models::BasisName(r.basis))
     << ", \"sampled_guest_util_pct\": " << JsonNumber(r.sampled_guest_util_pct) << ", \"sampled_vs_events\": ";
  WriteJsonComparison(os, r);
  os << ", \"guest_utility_pct\": " << JsonNumber(r.guest_utility_pct) << ", \"host_sources\": ";
  WriteJsonHostSources(os, r);
  os << ", \"dpc_isr_pct\": " << JsonNumber(r.dpc_isr_pct) << ", \"other_bases\": ";
  WriteJsonOtherBases(os, r.other_bases, "guest_util_pct");
  os << "}";
}

constexpr const char* kCsvHeader =
    "vm,start,end,vcpus,guest_util_pct,host_util_pct,w,name,guest_pct,corrected_pct,ci95_lo,ci95_hi,flags,"
    "host_source,guest_machine,steal_pct,ready_pct_per_vcpu,costop_pct,clock_offset_s,vm_key,present_s,host_counter,"
    "basis,bottleneck_pct,queue_ms_mean,queue_ms_p95,sampled_pct,guest_utility_pct,host_sources,dpc_isr_pct,bias_"
    "ratio\n";

// One window's CSV rows (one per process), composed in *rows and written at once: a fleet day is
// 14 million rows, where a stream insertion and a string per cell cost more than the correction.
void WriteCsvWindow(std::ostream& os, const WindowResult& r, std::string* rows) {
  std::string flags;
  for (const auto& f : r.flags) flags += (flags.empty() ? "" : ";") + f.code;
  const std::string head = CsvCell(r.vm) + "," + FormatIso(r.start, false) + "," + FormatIso(r.end, false) + "," +
                           CsvNumber(Opt(r.vcpus)) + "," + CsvNumber(r.guest_util_pct) + "," +
                           CsvNumber(r.host_util_pct) + "," + CsvNumber(r.w) + ",";
  const std::string tail = std::string(",") + CsvCell(flags) + "," + models::HostSourceName(r.host) + "," +
                           CsvCell(r.guest_machine) + "," + CsvNumber(r.steal_pct) + "," +
                           CsvNumber(r.ready_pct_per_vcpu) + "," + CsvNumber(r.costop_pct) + "," +
                           CsvNumber(r.clock_offset_s) + "," + CsvCell(r.vm_key) + ",";
  std::string counter(1, ',');
  AppendCsvCell(&counter, r.host_counter);
  counter.push_back(',');
  rows->clear();
  // The window's cells after the process's: utility, host sources, DPC/ISR (and the process's bias_ratio).
  std::string window_cells(1, ',');
  AppendCsvNumber(&window_cells, r.guest_utility_pct);
  window_cells.push_back(',');
  if (!r.host_sources.empty()) window_cells += CsvHostSources(r);
  window_cells.push_back(',');
  AppendCsvNumber(&window_cells, r.dpc_isr_pct);
  window_cells.push_back(',');
  if (r.processes.empty())
    rows->append(head)
        .append(",,,,")
        .append(tail)
        .append(counter)
        .append(models::BasisName(r.basis))
        .append(",,,,")
        .append(window_cells)
        .append("\n");
  for (const auto& p : r.processes) {
    rows->append(head);
    AppendCsvCell(rows, p.name);
    for (const auto* v : {&p.guest_pct, &p.corrected_pct, &p.ci_lo, &p.ci_hi}) {
      rows->push_back(',');
      AppendCsvNumber(rows, *v);
    }
    rows->append(tail);
    AppendCsvNumber(rows, p.present_s);
    rows->append(counter).append(models::BasisName(p.basis));
    for (const auto* v : {&p.bottleneck_pct, &p.queue_ms_mean, &p.queue_ms_p95, &p.sampled_pct}) {
      rows->push_back(',');
      AppendCsvNumber(rows, *v);
    }
    rows->append(window_cells);
    AppendCsvNumber(rows, p.bias_ratio);
    rows->push_back('\n');
  }
  os.write(rows->data(), static_cast<std::streamsize>(rows->size()));
}

// One window's block of the table (blocks are separated by an empty line).
void WriteTableWindow(std::ostream& os, const WindowResult& r, int top) {
  os << "VM " << VmLabel(r.vm, r.vm_source, r.vm_name_shared);
  if (!r.guest_machine.empty() && r.guest_machine != r.vm) os << " (guest " << r.guest_machine << ")";
  os << "  " << FormatIso(r.start, false) << " .. " << FormatIso(r.end, false) << "  vCPUs "
     << (r.vcpus ? std::to_string(*r.vcpus) : "?") << "\n";
  const bool events = r.basis == models::Basis::kEvents;
  os << "  guest " << Fixed(r.guest_util_pct, 1) << "%";
  if (r.basis == models::Basis::kProfile || r.basis == models::Basis::kCycles)
    os << (r.basis == models::Basis::kProfile ? " (ETW profile" : " (cycles")
       << (r.sampled_guest_util_pct ? ", Perfmon " + Fixed(r.sampled_guest_util_pct, 1) + "%" : "") << ")";
  if (events)
    os << " (ETW events" << (r.sampled_guest_util_pct ? ", Perfmon " + Fixed(r.sampled_guest_util_pct, 1) + "%" : "")
       << (r.dpc_isr_pct ? ", DPC/ISR " + FormatFixed(*r.dpc_isr_pct, 2) + "%" : "") << ")";
  if (r.guest_utility_pct) os << " (utility " << FormatFixed(*r.guest_utility_pct, 1) << "%)";
  os << "  host " << Fixed(r.host_util_pct, 1) << "% (" << models::HostSourceName(r.host)
     << (r.host == models::HostSource::kVsphere ? " " + r.host_counter : "") << ")  w " << Fixed(r.w, 3);
  if (r.steal_pct) os << "  steal " << FormatFixed(*r.steal_pct, 1) << "%";
  if (r.clock_offset_s)
    os << "  guest clock " << (*r.clock_offset_s >= 0 ? "+" : "") << FormatFixed(*r.clock_offset_s, 1) << " s";
  os << "\n";
  if (!r.host_sources.empty()) {
    os << "  host sources";
    for (size_t i = 0; i < r.host_sources.size(); ++i) {
      const models::HostFigure& f = r.host_sources[i];
      os << (i ? ", " : " ") << models::HostSourceName(f.source) << " " << f.counter << " " << FormatFixed(f.pct, 1)
         << "%" << (i ? "" : " (used)");
    }
    os << "\n";
  }
  if (r.ready_pct_per_vcpu || r.costop_pct)
    os << "  ready " << Fixed(r.ready_pct_per_vcpu, 1) << "% per vCPU  co-stop " << Fixed(r.costop_pct, 1)
       << "% per vCPU\n";
  if (!r.processes.empty()) {
    TextTable t = events ? TextTable({"  process", "events %", "corrected %", "95% interval", "bottleneck %",
                                      "queue ms mean / p95", "Perfmon %"})
                         : TextTable({"  process", "guest %", "corrected %", "95% interval"});
    int shown = 0;
    bool any_partial = false;
    for (const auto& p : r.processes) {
      if (top > 0 && shown == top) break;
      ++shown;
      std::string ci = "-";
      if (p.ci_lo && p.ci_hi) ci = std::string("[") + FormatFixed(*p.ci_lo, 2) + ", " + FormatFixed(*p.ci_hi, 2) + "]";
      std::string name = "  ";
      name += p.name;
      if (p.partial) name += " *";
      any_partial = any_partial || p.partial;
      if (events) {
        t.AddRow({name, Fixed(p.guest_pct, 2), Fixed(p.corrected_pct, 2), ci, Fixed(p.bottleneck_pct, 1),
                  Fixed(p.queue_ms_mean, 2) + " / " + Fixed(p.queue_ms_p95, 2), Fixed(p.sampled_pct, 2)});
      } else {
        t.AddRow({name, Fixed(p.guest_pct, 2), Fixed(p.corrected_pct, 2), ci});
      }
    }
    t.Print(os);
    if (any_partial)
      os << "  * existed for part of the window only (started or ended in it); its % is over the whole window\n";
    if (shown < static_cast<int>(r.processes.size()))
      os << "  ... " << r.processes.size() - shown << " more processes (--top 0 shows all)\n";
  }
  for (const auto& f : r.flags)
    os << "  flag " << f.code << " (" << SeverityName(f.severity) << "): " << f.message << "\n";
}

}  // namespace

void CorrectionWriter::Start() {
  if (started_) return;
  started_ = true;
  if (format_ == OutputFormat::kJson) os_ << "{\"windows\": [";
  if (format_ == OutputFormat::kCsv) os_ << kCsvHeader;
}

void CorrectionWriter::Add(const std::vector<WindowResult>& windows,
                           const std::vector<std::vector<models::CounterValue>>* counters) {
  Start();
  for (size_t i = 0; i < windows.size(); ++i, ++count_) {
    switch (format_) {
      case OutputFormat::kJson:
        os_ << (count_ ? ",\n  " : "\n  ");
        WriteJsonWindow(os_, windows[i], counters ? &(*counters)[i] : nullptr);
        break;
      case OutputFormat::kCsv: WriteCsvWindow(os_, windows[i], &rows_); break;
      case OutputFormat::kTable:
        if (count_) os_ << '\n';
        WriteTableWindow(os_, windows[i], top_);
        break;
    }
  }
}

void CorrectionWriter::Finish() {
  Start();
  if (format_ == OutputFormat::kJson) os_ << (count_ == 0 ? "]}\n" : "\n]}\n");
}

void WriteCorrection(std::ostream& os, const std::vector<WindowResult>& windows, OutputFormat format, int top,
                     const std::vector<std::vector<models::CounterValue>>* counters) {
  CorrectionWriter w(os, format, top);
  w.Add(windows, counters);
  w.Finish();
}

}  // namespace vrecon
