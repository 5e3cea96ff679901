#include "adapters/vsphere/vsphere_units.h"

#include "src/core/text_util.h"

namespace vrecon::vsphere {

RawUnit ApiUnit(std::string_view k) {
  if (k == "percent") return RawUnit::kHundredthsPercent;
  if (k == "millisecond") return RawUnit::kMillisecond;
  if (k == "megaHertz") return RawUnit::kMegaHertz;
  if (k == "kiloBytes") return RawUnit::kKiloBytes;
  if (k == "kiloBytesPerSecond") return RawUnit::kKiloBytesPerSecond;
  if (k == "number") return RawUnit::kNumber;
  return RawUnit::kOther;
}

RawUnit PowerCliUnit(std::string_view u) {
  const std::string f = FoldCase(Trim(u));
  if (f == "%") return RawUnit::kPercent;
  if (f == "ms" || f == "millisecond") return RawUnit::kMillisecond;
  if (f == "mhz") return RawUnit::kMegaHertz;
  if (f == "kb") return RawUnit::kKiloBytes;
  if (f == "kbps") return RawUnit::kKiloBytesPerSecond;
  if (f == "num" || f == "number") return RawUnit::kNumber;
  return RawUnit::kOther;
}

std::optional<StoredValue> Convert(std::string_view counter, double raw, RawUnit unit, int interval_s) {
  if (raw == -1) return std::nullopt;
  switch (unit) {
    case RawUnit::kHundredthsPercent: return StoredValue{raw / 100.0, "percent"};
    case RawUnit::kPercent: return StoredValue{raw, "percent"};
    case RawUnit::kMillisecond:
      if (counter.ends_with(".summation") && interval_s > 0)
        return StoredValue{raw / (interval_s * 10.0), "percent"};  // ms / (s * 1000) * 100
      return StoredValue{raw, "ms"};
    case RawUnit::kMegaHertz: return StoredValue{raw, "MHz"};
    case RawUnit::kKiloBytes: return StoredValue{raw, "KB"};
    case RawUnit::kKiloBytesPerSecond: return StoredValue{raw, "KBps"};
    case RawUnit::kNumber: return StoredValue{raw, "count"};
    case RawUnit::kOther: return StoredValue{raw, ""};
  }
  return std::nullopt;
}

std::string CounterGroup(std::string_view counter) { return std::string(counter.substr(0, counter.find('.'))); }

}  // namespace vrecon::vsphere
