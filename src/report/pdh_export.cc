#include "src/report/pdh_export.h"

#include <cctype>
#include <map>
#include <set>

#include "adapters/perfmon/pdh_csv_writer.h"
#include "src/core/time_util.h"

namespace vrecon::report {
namespace {

perfmon::LocalTime Utc(TimeNs t) {
  const CivilTime c = CivilFromNs(t);
  return {c.year, c.month, c.day, c.hour, c.minute, c.second, c.millis};
}

struct Column {
  size_t vm = 0;                       // index into the VM list
  std::optional<std::string> process;  // nullopt: Processor(_Total)
};

// A counter path's machine name for one VM, unique in the file: two VMs of one name (two vCenters,
// two hosts) get what tells them apart appended ("APP01_esx-b"), in characters a path allows.
std::string UniqueMachine(const models::WindowResult& w, std::set<std::string>* used) {
  std::string name = w.guest_machine.empty() ? w.vm : w.guest_machine;
  if (used->insert(name).second) return name;
  std::string source = w.vm_source;
  for (char& c : source)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
  std::string candidate = name + "_" + source;
  for (int n = 2; !used->insert(candidate).second; ++n) candidate = name + "_" + source + "_" + std::to_string(n);
  return candidate;
}

}  // namespace

Status WritePdhCsv(std::ostream& os, const std::vector<models::WindowResult>& windows) {
  // Per VM: machine name and windows by end time.
  std::vector<std::string> machines;
  std::vector<std::map<TimeNs, const models::WindowResult*>> by_end;
  std::vector<std::set<std::string>> processes;
  std::set<TimeNs> ends, starts;
  std::set<std::string> used;
  std::string vm;  // windows come VM by VM: its vm_key, or its machine where there is none
  for (const models::WindowResult& w : windows) {
    const std::string& id = !w.vm_key.empty() ? w.vm_key : w.guest_machine.empty() ? w.vm : w.guest_machine;
    if (machines.empty() || vm != id) {
      vm = id;
      machines.push_back(UniqueMachine(w, &used));
      by_end.emplace_back();
      processes.emplace_back();
    }
    by_end.back()[w.end] = &w;
    for (const models::ProcessResult& p : w.processes) processes.back().insert(p.name);
    ends.insert(w.end);
    starts.insert(w.start);
  }
  std::vector<std::string> paths;
  std::vector<Column> columns;
  for (size_t v = 0; v < machines.size(); ++v) {
    paths.push_back("\\\\" + machines[v] + "\\Processor(_Total)\\% Processor Time" + kCorrectedSuffix);
    columns.push_back({v, std::nullopt});
    for (const std::string& p : processes[v]) {
      paths.push_back("\\\\" + machines[v] + "\\Process(" + p + ")\\% Processor Time" + kCorrectedSuffix);
      columns.push_back({v, p});
    }
  }
  os << perfmon::FormatHeader({"Coordinated Universal Time", 0}, paths);
  // Rows: every window end, plus a blank row at a window start that is no other window's end.
  std::set<TimeNs> times = ends;
  for (TimeNs s : starts)
    if (!ends.contains(s)) times.insert(s);
  std::vector<std::optional<double>> values(columns.size());
  for (TimeNs t : times) {
    for (size_t c = 0; c < columns.size(); ++c) {
      values[c].reset();
      auto it = by_end[columns[c].vm].find(t);
      if (it == by_end[columns[c].vm].end()) continue;
      const models::WindowResult& w = *it->second;
      if (!columns[c].process) {
        values[c] = w.host_util_pct;
        continue;
      }
      for (const models::ProcessResult& p : w.processes)
        if (p.name == *columns[c].process) values[c] = p.corrected_pct;
    }
    os << perfmon::FormatRow(Utc(t), values);
  }
  if (!os) return Status::IOError("could not write the PDH-CSV report");
  return Status::Ok();
}

}  // namespace vrecon::report
