// What vSphere PerformanceManager values mean and what the store keeps of them. Values come
// from the API (units by PerfCounterInfo.unitInfo.key) or from a PowerCLI Get-Stat export
// (units as PowerCLI prints them); both end up in the same units.
#ifndef VRECON_ADAPTERS_VSPHERE_VSPHERE_UNITS_H_
#define VRECON_ADAPTERS_VSPHERE_VSPHERE_UNITS_H_

#include <optional>
#include <string>
#include <string_view>

namespace vrecon::vsphere {

enum class RawUnit {
  kHundredthsPercent,  // API "percent": 10000 = 100%
  kPercent,            // PowerCLI "%": already divided by 100
  kMillisecond,        // "millisecond" / "ms": summation counters hold ms per sample interval
  kMegaHertz,
  kKiloBytes,
  kKiloBytesPerSecond,
  kNumber,
  kOther,
};

RawUnit ApiUnit(std::string_view unit_key);        // PerfCounterInfo.unitInfo.key
RawUnit PowerCliUnit(std::string_view unit_text);  // the Unit column of Get-Stat | Export-Csv

struct StoredValue {
  double value = 0;
  std::string unit;  // percent, MHz, KB, KBps, count, or the raw unit name
};

// Converts one raw value. -1 (the API's "no data") gives nullopt: missing, never zero.
// Millisecond summation counters (cpu.ready/costop/run/used/wait.summation) become percent of
// the sample interval: ms / (interval_s * 1000) * 100. For the aggregate instance ("") the ms
// are summed over the VM's vCPUs, so that percent runs up to 100 x vCPUs (as esxtop's group
// percentages do); per-vCPU instances run up to 100.
std::optional<StoredValue> Convert(std::string_view counter, double raw, RawUnit unit, int interval_s);

// "cpu.ready.summation" -> "cpu".
std::string CounterGroup(std::string_view counter);

}  // namespace vrecon::vsphere

#endif  // VRECON_ADAPTERS_VSPHERE_VSPHERE_UNITS_H_
