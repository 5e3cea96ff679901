#include "adapters/perfmon/counter_path.h"

namespace vrecon::perfmon {

std::optional<CounterPath> ParseCounterPath(std::string_view p) {
  CounterPath out;
  if (p.starts_with("\\\\")) {
    p.remove_prefix(2);
    const size_t slash = p.find('\\');
    if (slash == std::string_view::npos || slash == 0) return std::nullopt;
    out.machine = std::string(p.substr(0, slash));
    p.remove_prefix(slash);
  }
  if (!p.starts_with('\\')) return std::nullopt;
  p.remove_prefix(1);
  const size_t last = p.rfind('\\');
  if (last == std::string_view::npos || last + 1 >= p.size()) return std::nullopt;
  out.counter = std::string(p.substr(last + 1));
  std::string_view obj = p.substr(0, last);
  const size_t open = obj.find('(');
  if (open != std::string_view::npos) {
    if (obj.back() != ')') return std::nullopt;
    out.instance = std::string(obj.substr(open + 1, obj.size() - open - 2));
    obj = obj.substr(0, open);
  }
  if (obj.empty()) return std::nullopt;
  out.object = std::string(obj);
  return out;
}

}  // namespace vrecon::perfmon
