#include "adapters/perfmon/perfmon_columns.h"

#include <set>
#include <tuple>

#include "adapters/perfmon/counter_names.h"
#include "adapters/perfmon/counter_path.h"

namespace vrecon::perfmon {
namespace {

bool IsEsxtopObject(const std::string& o) {
  return o == "Group Cpu" || o == "Physical Cpu" || o == "Physical Cpu Load" || o == "Physical Cpu Core Load" ||
         o == "Vcpu" || o == "Group Memory";
}

}  // namespace

ColumnPlan PlanColumns(const std::vector<std::string>& paths) {
  ColumnPlan plan;
  std::vector<std::optional<CounterPath>> parsed;
  bool hyperv = false, esxtop = false;
  for (const std::string& p : paths) {
    auto cp = ParseCounterPath(p);
    if (cp) {
      cp->object = EnglishObject(cp->object);
      cp->counter = EnglishCounter(cp->object, cp->counter);
      hyperv = hyperv || cp->object.starts_with("Hyper-V Hypervisor");
      esxtop = esxtop || IsEsxtopObject(cp->object);
    }
    parsed.push_back(std::move(cp));
  }
  std::set<std::tuple<std::string, std::string, std::string, std::string>> seen;
  for (size_t i = 0; i < paths.size(); ++i) {
    const auto& cp = parsed[i];
    if (!cp) {
      plan.map.push_back(-1);
      plan.problems.push_back(
          "header column " + std::to_string(i + 2) + " \"" + paths[i] +
          "\" is not a counter path (\\\\machine\\object(instance)\\counter); its values are not read");
      continue;
    }
    if (!seen.emplace(cp->machine, cp->object, cp->instance, cp->counter).second) {
      plan.map.push_back(-1);
      plan.problems.push_back("header column " + std::to_string(i + 2) + " \"" + paths[i] +
                              "\" repeats an earlier column; only the first is read");
      continue;
    }
    SeriesKey k;
    if (hyperv) {
      k.source = SourceKind::kHyperV;
    } else if (esxtop) {
      k.source = SourceKind::kEsxtop;
    } else if (cp->object == "VM Processor" || cp->object == "VM Memory") {
      k.source = SourceKind::kVmTools;
    } else {
      k.source = SourceKind::kGuest;
    }
    k.machine = cp->machine;
    k.object = cp->object;
    k.instance = cp->instance;
    k.counter = cp->counter;
    k.unit = UnitOf(k.counter);
    if (k.unit.empty() && (cp->counter.find('%') != std::string::npos)) k.unit = "percent";
    k.original = paths[i];
    plan.map.push_back(static_cast<int>(plan.columns.size()));
    plan.columns.push_back(std::move(k));
  }
  return plan;
}

}  // namespace vrecon::perfmon
