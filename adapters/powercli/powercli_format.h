// The grammar of a PowerCLI `Get-Stat | Export-Csv` file: its cells, values and timestamps,
// and how to recognise one. Pure.
#ifndef VRECON_ADAPTERS_POWERCLI_POWERCLI_FORMAT_H_
#define VRECON_ADAPTERS_POWERCLI_POWERCLI_FORMAT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/time_util.h"

namespace vrecon::powercli {

// True when `head` (the first bytes of a file, any encoding vrecon reads) is a Get-Stat
// export: blank lines and a `#TYPE ...` line may come first, then a header naming the columns
// Value, Timestamp and MetricId.
bool LooksLikePowerCliExport(std::string_view head);

// A Timestamp cell. `has_offset` is true when the text carried its zone (ISO 8601 with Z or
// +hh:mm); `t` is then UTC, otherwise it is local civil time on a zone-less axis. Accepted:
// en-US "5/5/2026 6:41:20 PM", day-first cultures "05.05.2026 18:41:20" (de-DE),
// "05/05/2026 18:41:20" (en-GB, fr-FR), "5-5-2026 18:41:20" (nl-NL), year-first
// "2026-05-05 18:41:20" and ISO 8601 "2026-05-05T18:41:20.0000000+02:00". Slash dates with
// AM/PM are month-first, without AM/PM day-first (month-first when day-first is impossible).
struct ParsedTime {
  TimeNs t = 0;
  bool has_offset = false;
};
std::optional<ParsedTime> ParseTimestamp(std::string_view s);

// A Value cell: invariant "0.55" or a decimal comma "0,55" (Export-Csv in de-DE and others).
std::optional<double> ParseValue(std::string_view s);

// Splits one CSV line: cells may be quoted ("" inside a quoted cell is one quote). False when
// a quote is not closed.
bool SplitCsvLine(std::string_view line, char delim, std::vector<std::string>* cells);

// The header's delimiter: what follows the first (quoted) cell. Export-Csv writes ',', with
// -UseCulture the culture's list separator (';' in de-DE, fr-FR).
char DetectDelimiter(std::string_view header);
// The index of the column named `name` (case-insensitive), or -1.
int FindColumn(const std::vector<std::string>& cells, std::string_view name);

}  // namespace vrecon::powercli

#endif  // VRECON_ADAPTERS_POWERCLI_POWERCLI_FORMAT_H_
