// The header cells of a Perfmon log: PDH counter paths ("\\MACHINE\Object(Parent/Inst#n)\Counter"),
// the localized-name tables behind them, the column plan of a header, and the first cell
// "(PDH-CSV 4.0) (zone)(bias)". The input is one cell per line.
// Properties: a parsed path written back out parses to the same parts; the column plan maps
// every cell to a column or to nothing, never out of range; a bias read is within +-24 h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "adapters/perfmon/counter_names.h"
#include "adapters/perfmon/counter_path.h"
#include "adapters/perfmon/perfmon_columns.h"
#include "adapters/perfmon/perfmon_format.h"
#include "fuzz/fuzz_check.h"

using namespace vrecon::perfmon;

namespace {

std::string Write(const CounterPath& p) {
  std::string s = p.machine.empty() ? "" : "\\\\" + p.machine;
  s += "\\" + p.object;
  if (!p.instance.empty()) s += "(" + p.instance + ")";
  return s + "\\" + p.counter;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> cells;
  for (size_t pos = 0; pos <= text.size();) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    cells.emplace_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  for (const std::string& cell : cells) {
    const auto p = ParseCounterPath(cell);
    if (!p) continue;
    FUZZ_CHECK(!p->object.empty() && !p->counter.empty(), "a counter path names an object and a counter");
    const auto again = ParseCounterPath(Write(*p));
    FUZZ_CHECK(again && again->machine == p->machine && again->object == p->object && again->instance == p->instance &&
                   again->counter == p->counter,
               "a counter path written back out parses to the same parts");
    const std::string object = EnglishObject(p->object);
    (void)UnitOf(EnglishCounter(object, p->counter));
    (void)IsKnownObject(p->object);
  }
  const ColumnPlan plan = PlanColumns(cells);
  FUZZ_CHECK(plan.map.size() == cells.size(), "the column plan has one entry per header cell");
  size_t used = 0;
  for (int m : plan.map) {
    FUZZ_CHECK(m >= -1 && m < static_cast<int>(plan.columns.size()), "a mapped cell points at a column");
    used += m >= 0;
  }
  FUZZ_CHECK(used == plan.columns.size() && used + plan.problems.size() == cells.size(),
             "every cell is a column or a problem");
  if (const auto f = ParseFormatCell(cells.front())) {
    FUZZ_CHECK(!f->bias_minutes || (*f->bias_minutes >= -24 * 60 && *f->bias_minutes <= 24 * 60),
               "a header's bias is within a day");
    (void)ZoneNameIsDaylight(f->time_zone);
  }
  return 0;
}
