// The core vocabulary every adapter emits and the store keeps: series keys, source kinds,
// missing values and import issues.
#ifndef VRECON_SRC_CORE_SAMPLE_H_
#define VRECON_SRC_CORE_SAMPLE_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "src/core/severity.h"
#include "src/core/time_util.h"

namespace vrecon {

// Where a series was measured. Guest = counters of the guest OS about itself; vmtools = VMware
// Tools counters read from the host but logged inside the guest; hyperv / esxtop / vsphere =
// host side (vsphere: vCenter/ESXi PerformanceManager, over the API or a PowerCLI export).
// kVsphereHost: a vSphere HostSystem's own counters (its utilization), not a VM's.
enum class SourceKind { kGuest, kVmTools, kHyperV, kEsxtop, kVsphere, kVsphereHost };
std::string_view SourceKindName(SourceKind k);
bool ParseSourceKind(std::string_view s, SourceKind* out);
inline bool IsHostSide(SourceKind k) { return k != SourceKind::kGuest; }

// Identity of one stored series. object/counter hold the English meaning where it was
// recognised; `original` keeps the counter path exactly as the file spelled it.
struct SeriesKey {
  SourceKind source = SourceKind::kGuest;
  std::string machine;
  std::string object;
  std::string instance;  // "" when the object has no instances; keeps parent "/", "#n", "name:pid"
  std::string counter;
  std::string unit;  // percent, per_second, bytes, MB, MHz, ns, count, or "" when unknown
  std::string original;
  // A stable id of the machine the series is about, where the source has one: for the vSphere API
  // "<vCenter instanceUuid or URL host>/<VM moid>". Empty for logs that name machines only.
  // Part of the identity: two VMs of one name on two vCenters are two series.
  std::string entity;
};

// In packed rows a missing value (a " " cell, an empty cell, an unreadable number) is a quiet
// NaN. It never means zero; parsers never produce NaN for a real value.
inline constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
inline bool IsMissing(double v) { return std::isnan(v); }

// A problem with part of an input that did not stop the rest from being read.
struct ImportIssue {
  std::string file;
  int64_t line = 0;  // 1-based; 0 when the issue concerns the whole file
  Severity severity = Severity::kWarning;
  std::string code;  // ragged-row, non-numeric, time-backwards, dst-shift, no-bias, ...
  std::string message;
};

// A jump of the guest's clock that a reader saw and the stored UTC times no longer show, as data:
// the clock model (src/engine/clock_events.h) reads these, never the wording of an issue.
//   dst-shift:      local time went back or forward one hour; before = the shift's UTC instant,
//                   after = before + the local clock's jump (+3600 s in spring, -3600 s in autumn).
//   time-backwards: a row's time was not after the previous row's (the row was skipped);
//                   before = the previous row's time, after = the skipped row's.
//   restart:        the machine booted (sar's LINUX RESTART); before = the last row's time before
//                   it, after = the boot.
struct ClockRecord {
  std::string kind;
  TimeNs before = 0, after = 0;
  std::string file;
  int64_t line = 0;  // 1-based line of the row that showed it
};

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_SAMPLE_H_
