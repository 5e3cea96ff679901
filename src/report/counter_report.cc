#include "src/report/counter_report.h"

#include <cstdio>

#include "src/core/text_util.h"

namespace vrecon {
namespace {

using models::CounterValue;
using models::WindowResult;

// Six significant digits read well for latencies in seconds (0.000123) and byte counts alike.
std::string Cell(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", *v);
  return buf;
}

void WriteJson(std::ostream& os, const std::vector<WindowResult>& windows,
               const std::vector<std::vector<CounterValue>>& counters) {
  os << "{\"windows\": [";
  for (size_t i = 0; i < windows.size(); ++i) {
    const WindowResult& r = windows[i];
    os << (i ? ",\n  " : "\n  ") << "{\"vm\": " << JsonString(r.vm)
       << ", \"guest_machine\": " << JsonString(r.guest_machine)
       << ", \"start\": " << JsonString(FormatIso(r.start, false))
       << ", \"end\": " << JsonString(FormatIso(r.end, false)) << ", \"w\": " << JsonNumber(r.w) << ", \"counters\": ";
    WriteCounterJsonArray(os, counters[i]);
    os << ", \"vm_key\": " << JsonString(r.vm_key) << "}";
  }
  os << (windows.empty() ? "]}\n" : "\n]}\n");
}

void WriteCsv(std::ostream& os, const std::vector<WindowResult>& windows,
              const std::vector<std::vector<CounterValue>>& counters) {
  os << "vm,guest_machine,start,end,w,path,type,guest_value,value,unit,count,note,vm_key\n";
  for (size_t i = 0; i < windows.size(); ++i) {
    const WindowResult& r = windows[i];
    for (const CounterValue& c : counters[i]) {
      os << CsvCell(r.vm) << "," << CsvCell(r.guest_machine) << "," << FormatIso(r.start, false) << ","
         << FormatIso(r.end, false) << "," << CsvNumber(r.w) << "," << CsvCell(c.path) << ","
         << models::CounterTypeName(c.type) << "," << CsvNumber(c.guest_value) << "," << CsvNumber(c.value) << ","
         << CsvCell(c.unit) << "," << CsvNumber(c.count) << "," << CsvCell(c.note) << "," << CsvCell(r.vm_key) << "\n";
    }
  }
}

void WriteTable(std::ostream& os, const std::vector<WindowResult>& windows,
                const std::vector<std::vector<CounterValue>>& counters) {
  bool any = false;
  for (size_t i = 0; i < windows.size(); ++i) {
    const WindowResult& r = windows[i];
    if (counters[i].empty()) continue;
    if (any) os << '\n';
    any = true;
    os << "VM " << VmLabel(r.vm, r.vm_source, r.vm_name_shared);
    if (r.guest_machine != r.vm) os << " (guest " << r.guest_machine << ")";
    os << "  " << FormatIso(r.start, false) << " .. " << FormatIso(r.end, false) << "  w "
       << (r.w ? FormatFixed(*r.w, 3) : "-") << "\n";
    TextTable t({"  counter", "type", "guest", "value", "unit", "count", "note"});
    for (const CounterValue& c : counters[i])
      t.AddRow({"  " + c.path, models::CounterTypeName(c.type), Cell(c.guest_value), Cell(c.value), c.unit,
                Cell(c.count), c.note});
    t.Print(os);
  }
}

}  // namespace

void WriteCounterJsonArray(std::ostream& os, const std::vector<CounterValue>& counters) {
  os << "[";
  for (size_t j = 0; j < counters.size(); ++j) {
    const CounterValue& c = counters[j];
    os << (j ? ", " : "") << "{\"path\": " << JsonString(c.path)
       << ", \"type\": " << JsonString(models::CounterTypeName(c.type))
       << ", \"guest_value\": " << JsonNumber(c.guest_value) << ", \"value\": " << JsonNumber(c.value)
       << ", \"unit\": " << JsonString(c.unit) << ", \"count\": " << JsonNumber(c.count)
       << ", \"note\": " << JsonString(c.note) << "}";
  }
  os << "]";
}

void WriteCounters(std::ostream& os, const std::vector<WindowResult>& windows,
                   const std::vector<std::vector<CounterValue>>& counters, OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson: WriteJson(os, windows, counters); break;
    case OutputFormat::kCsv: WriteCsv(os, windows, counters); break;
    case OutputFormat::kTable: WriteTable(os, windows, counters); break;
  }
}

}  // namespace vrecon
