// The time grammars: ISO 8601 (src/core/time_util: --from/--to, vSphere answers), the Perfmon
// row timestamp and its spreadsheet re-saves (perfmon_format), PowerCLI's culture-dependent
// Timestamp cells (powercli_format), and the fleet file's durations ("30s", "5m").
// Properties: every time read, written back out (ISO, or PDH's MM/DD/YYYY form as the agent
// writes it), reads back as the same instant; a duration read is positive.
#include <cstddef>
#include <cstdint>
#include <string>

#include "adapters/perfmon/pdh_csv_writer.h"
#include "adapters/perfmon/perfmon_format.h"
#include "adapters/powercli/powercli_format.h"
#include "fuzz/fuzz_check.h"
#include "src/core/time_util.h"
#include "src/fleet/fleet_config.h"

using namespace vrecon;

namespace {

std::string ZoneLessIso(TimeNs t) {
  std::string s = FormatIso(t, true);
  s[10] = ' ';
  s.pop_back();  // the 'Z'
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view s(reinterpret_cast<const char*>(data), size);

  if (const auto t = ParseIso(s)) {
    FUZZ_CHECK(ParseIso(FormatIso(*t, true)) == t, "an ISO time written back out reads back the same");
  }
  if (const auto t = perfmon::ParseLocalTimestamp(s)) {
    const CivilTime c = CivilFromNs(*t);
    const std::string pdh = perfmon::FormatTimestamp({c.year, c.month, c.day, c.hour, c.minute, c.second, c.millis});
    FUZZ_CHECK(perfmon::ParseLocalTimestamp(pdh) == t, "a Perfmon time written as PDH writes it reads back the same");
  }
  if (const auto t = powercli::ParseTimestamp(s)) {
    const auto back = powercli::ParseTimestamp(t->has_offset ? FormatIso(t->t, true) : ZoneLessIso(t->t));
    FUZZ_CHECK(back && back->t == t->t && back->has_offset == t->has_offset,
               "a PowerCLI time written back out as ISO reads back the same");
  }
  if (const auto d = fleet::ParseDuration(std::string(s))) FUZZ_CHECK(*d > 0, "a duration is positive");
  return 0;
}
