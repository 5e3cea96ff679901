#include "agent/counter_selection.h"

#include "agent/cycle_counters.h"

#include <algorithm>
#include <map>
#include <utility>

namespace vrecon::agent {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

void AddAll(std::vector<CounterSpec>* out, const std::string& machine, const std::string& object,
            const std::string& instance, std::initializer_list<const char*> counters, bool optional,
            bool prefer_v2 = false) {
  for (const char* c : counters) out->push_back({machine, object, instance, c, optional, prefer_v2});
}

}  // namespace

StatusOr<CounterSpec> ParseCounterPath(std::string_view path) {
  const std::string shown(path);
  path = Trim(path);
  if (path.size() >= 2 && path[0] == '"' && path.back() == '"') path = path.substr(1, path.size() - 2);
  CounterSpec spec;
  if (path.substr(0, 2) == "\\\\") {
    const size_t end = path.find('\\', 2);
    if (end == std::string_view::npos || end == 2)
      return Status::InvalidArgument("counter path \"" + shown + "\": expected \\\\MACHINE\\Object\\Counter");
    spec.machine = std::string(path.substr(2, end - 2));
    path.remove_prefix(end);
  }
  if (path.empty() || path[0] != '\\')
    return Status::InvalidArgument("counter path \"" + shown + "\": must start with \\Object or \\\\MACHINE");
  const size_t last = path.rfind('\\');
  if (last == 0 || last + 1 >= path.size())
    return Status::InvalidArgument("counter path \"" + shown + "\": expected \\Object\\Counter");
  spec.counter = std::string(path.substr(last + 1));
  std::string_view object = path.substr(1, last - 1);
  const size_t open = object.find('(');
  if (open != std::string_view::npos) {
    if (object.back() != ')')
      return Status::InvalidArgument("counter path \"" + shown + "\": unbalanced parentheses in the instance");
    spec.instance = std::string(object.substr(open + 1, object.size() - open - 2));
    object = object.substr(0, open);
    if (spec.instance.empty()) return Status::InvalidArgument("counter path \"" + shown + "\": empty instance \"()\"");
  }
  spec.object = std::string(object);
  if (spec.object.empty()) return Status::InvalidArgument("counter path \"" + shown + "\": empty object name");
  if (spec.counter.find_first_of("*?") != std::string::npos || spec.object.find_first_of("*?") != std::string::npos)
    return Status::InvalidArgument("counter path \"" + shown +
                                   "\": wildcards are allowed in the instance only; list the counters one per line");
  return spec;
}

std::string CounterPath(const CounterSpec& s) {
  std::string p;
  if (!s.machine.empty()) p = "\\\\" + s.machine;
  p += "\\" + s.object;
  if (!s.instance.empty()) p += "(" + s.instance + ")";
  return p + "\\" + s.counter;
}

std::vector<std::string> CounterSetNames() { return {"vrecon", "hyperv", "cycles"}; }

StatusOr<std::vector<CounterSpec>> CounterSet(std::string_view name, const std::string& m) {
  std::vector<CounterSpec> s;
  if (name == "vrecon") {
    AddAll(&s, m, "Processor", "*",
           {"% Processor Time", "% User Time", "% Privileged Time", "% Interrupt Time", "% DPC Time"}, false);
    AddAll(&s, m, "Processor Information", "*", {"% Processor Time", "% Processor Utility", "% Processor Performance"},
           true);
    AddAll(&s, m, "Process", "*", {"% Processor Time", "% User Time", "% Privileged Time", "ID Process"}, false,
           /*prefer_v2=*/true);
    AddAll(&s, m, "System", "", {"Processor Queue Length", "Context Switches/sec", "Processes", "Threads"}, false);
    AddAll(&s, m, "Memory", "", {"Available MBytes", "Committed Bytes", "Pages/sec"}, false);
    AddAll(&s, m, "PhysicalDisk", "*",
           {"% Idle Time", "Disk Transfers/sec", "Avg. Disk sec/Transfer", "Current Disk Queue Length"}, true);
    AddAll(&s, m, "VM Processor", "*",
           {"% Processor Time", "CPU stolen time", "Effective VM Speed in MHz", "Host processor speed in MHz",
            "Limit in MHz", "Reservation in MHz"},
           true);
    AddAll(&s, m, "VM Memory", "",
           {"Memory Active in MB", "Memory Ballooned in MB", "Memory Swapped in MB", "Memory Used in MB"}, true);
    return s;
  }
  if (name == "hyperv") {
    // CPU Wait Time Per Dispatch is an average counter (value and base): PDH applies the base
    // when it formats the second and later collections, so the agent reads it like any other.
    AddAll(&s, m, "Hyper-V Hypervisor Virtual Processor", "*",
           {"% Total Run Time", "% Guest Run Time", "% Hypervisor Run Time", "CPU Wait Time Per Dispatch"}, false);
    AddAll(&s, m, "Hyper-V Hypervisor Root Virtual Processor", "*",
           {"% Total Run Time", "% Guest Run Time", "% Hypervisor Run Time", "CPU Wait Time Per Dispatch"}, false);
    AddAll(&s, m, "Hyper-V Hypervisor Logical Processor", "*",
           {"% Total Run Time", "% Guest Run Time", "% Hypervisor Run Time", "% Idle Time"}, false);
    AddAll(&s, m, "Hyper-V Hypervisor", "", {"Logical Processors", "Virtual Processors"}, true);
    return s;
  }
  if (name == "cycles") return CycleCounterSet(m);
  return Status::InvalidArgument("unknown counter set \"" + std::string(name) + "\" (known: vrecon, hyperv, cycles)");
}

StatusOr<std::vector<CounterSpec>> ParseCounterFile(std::string_view text, const std::string& source) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<CounterSpec> out;
  int line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const size_t nl = text.find('\n');
    std::string_view line = Trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty() || line[0] == '#') continue;
    auto spec = ParseCounterPath(line);
    if (!spec.ok())
      return Status::InvalidArgument(source + " line " + std::to_string(line_no) + ": " + spec.status().message());
    out.push_back(std::move(spec.value()));
  }
  return out;
}

std::vector<CounterSpec> ResolveSelection(PdhApi& pdh, const std::vector<CounterSpec>& wanted,
                                          std::vector<std::string>* notes) {
  std::map<std::string, bool> has_v2;       // per machine
  std::map<std::string, bool> has_counter;  // per probed path
  auto probe = [&](const CounterSpec& s) {
    const std::string path = CounterPath(CounterSpec{s.machine, s.object, s.instance.empty() ? "" : "*", s.counter});
    auto it = has_counter.find(path);
    if (it != has_counter.end()) return it->second;
    return has_counter[path] = pdh.ExpandWildcard(path).ok();
  };
  std::vector<CounterSpec> out;
  for (CounterSpec s : wanted) {
    if (s.prefer_process_v2 && s.object == "Process") {
      auto it = has_v2.find(s.machine);
      if (it == has_v2.end()) {
        it = has_v2.emplace(s.machine, probe(CounterSpec{s.machine, "Process V2", "*", "% Processor Time"})).first;
        if (notes && it->second)
          notes->push_back("using Process V2 (name:pid instances) on " +
                           (s.machine.empty() ? std::string("this machine") : s.machine));
      }
      if (it->second) {
        if (s.counter == "ID Process") continue;  // the pid is part of every V2 instance name
        s.object = "Process V2";
      }
    }
    if (s.optional && !probe(s)) {
      if (notes) notes->push_back("not on this machine, skipped: " + CounterPath(s));
      continue;
    }
    s.prefer_process_v2 = false;
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace vrecon::agent
