// PDH counter paths: "\\MACHINE\Object(Parent/Instance#n)\Counter".
#ifndef VRECON_ADAPTERS_PERFMON_COUNTER_PATH_H_
#define VRECON_ADAPTERS_PERFMON_COUNTER_PATH_H_

#include <optional>
#include <string>
#include <string_view>

namespace vrecon::perfmon {

struct CounterPath {
  std::string machine;  // without the leading "\\"; "" when the path has none
  std::string object;
  std::string instance;  // everything between the object's "(" and its ")" : "Parent/name#2"
  std::string counter;
};

// Format facts: the machine part is optional ("\Object\Counter" from some typeperf runs);
// instance names may themselves hold parentheses ("isatap.{...}", "svchost (netsvcs)"), so the
// instance ends at the last ")\" before the counter. Counters never hold a backslash.
std::optional<CounterPath> ParseCounterPath(std::string_view path);

}  // namespace vrecon::perfmon

#endif  // VRECON_ADAPTERS_PERFMON_COUNTER_PATH_H_
