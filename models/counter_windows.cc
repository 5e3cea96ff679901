#include "models/counter_windows.h"

#include <algorithm>

#include "src/core/text_util.h"

namespace vrecon::models {

void RateWindows::Add(TimeNs start, TimeNs end, double rate, const ToTrueTime& to_true) {
  if (grid_.count == 0 || end <= start) return;
  const double apparent_s = static_cast<double>(end - start) / kNsPerSec;
  const double count = rate * apparent_s;
  const TimeNs a = to_true ? to_true(start) : start;
  const TimeNs b = to_true ? to_true(end) : end;
  if (b <= a) return;
  const double true_s = static_cast<double>(b - a) / kNsPerSec;
  const TimeNs lo = std::max(a, grid_.origin), hi = std::min(b, grid_.End(grid_.count - 1));
  if (hi <= lo) return;
  for (int i = static_cast<int>((lo - grid_.origin) / grid_.width); i < grid_.count && grid_.Start(i) < hi; ++i) {
    const TimeNs x = std::max(lo, grid_.Start(i)), y = std::min(hi, grid_.End(i));
    if (y <= x) continue;
    const double share = static_cast<double>(y - x) / kNsPerSec / true_s;
    Cell& c = cells_[i];
    c.count += count * share;
    c.apparent_s += apparent_s * share;
    c.true_s += true_s * share;
  }
}

namespace {

void PercentTime(const CounterWindowInput& in, CounterValue* v) {
  const double g = *in.guest_mean;
  switch (in.cls.percent) {
    case PercentRule::kAsIs:
      v->value = g;
      v->note = "steal is measured by the hypervisor's steal clock, not by guest ticks: reported as logged";
      return;
    case PercentRule::kNone:
      v->note = "an idle or _Total instance is what is left of the ticks, not a share of busy time: not scaled by w";
      return;
    case PercentRule::kScale:
    case PercentRule::kComplement: break;
  }
  if (in.linux_steal) {
    v->value = g;
    v->note = "the Linux guest's kernel leaves steal out of its CPU times, which are already real: not scaled";
  } else if (!in.w) {
    v->note = "w is undefined in this window (no host data or an idle guest): not corrected";
  } else if (in.cls.percent == PercentRule::kComplement) {
    v->value = 100.0 - *in.w * (100.0 - g);
    v->note = "idle = 100 - w x (100 - guest idle), w " + FormatFixed(*in.w, 3);
  } else {
    v->value = *in.w * g;
    v->note = "w x guest, w " + FormatFixed(*in.w, 3);
  }
}

void Rate(const CounterWindowInput& in, CounterValue* v) {
  const RateWindows::Cell& c = in.rate;
  v->count = c.count;
  v->guest_value = c.count / c.apparent_s;
  v->value = c.count / c.true_s;
  if (in.aligned) {
    v->note = "count kept, divided by the true " + FormatFixed(c.true_s, 1) + " s instead of the guest's apparent " +
              FormatFixed(c.apparent_s, 1) + " s";
  } else {
    v->note = "count kept; not aligned, so the guest's interval stands for the true one";
  }
}

void Latency(const CounterWindowInput& in, CounterValue* v) {
  if (in.host_latency_s) {
    v->value = *in.guest_mean - *in.host_latency_s;
    v->note = "virtualization delay: guest latency minus host root latency of " + in.host_disk + " (" +
              FormatFixed(*in.host_latency_s * 1000, 3) + " ms)";
  } else {
    v->value = in.guest_mean;
    v->note = "guest latency as logged, including dispatch delay; no delay: " +
              (in.no_host_reason.empty() ? std::string("no matching host disk counter") : in.no_host_reason);
  }
}

}  // namespace

std::optional<CounterValue> EvaluateCounter(const std::string& path, const std::string& unit,
                                            const CounterWindowInput& in) {
  const bool rate = in.cls.type == CounterType::kRate;
  if (rate ? !(in.rate.apparent_s > 0 && in.rate.true_s > 0) : !in.guest_mean) return std::nullopt;
  CounterValue v;
  v.path = path;
  v.type = in.cls.type;
  // Disk latencies are stored without a unit; Windows reports them in seconds.
  v.unit = in.cls.type == CounterType::kQpcLatency ? std::string("s") : unit;
  v.guest_value = in.guest_mean;
  switch (in.cls.type) {
    case CounterType::kPercentTime: PercentTime(in, &v); break;
    case CounterType::kRate: Rate(in, &v); break;
    case CounterType::kInstantaneous: v.value = in.guest_mean; break;
    case CounterType::kTickSnapshot:
      v.value = in.guest_mean;
      v.note =
          "one count per sample, taken at the clock tick: inflated on an idle machine (threads woken together "
          "by the tick) and not robust in a VM (seed 000); ETW's queue time (queue_ms_p95) measures waiting";
      break;
    case CounterType::kFrequencyScaled:
      v.value = in.guest_mean;
      v.note =
          "busy time scaled by the processor's frequency against its nominal one (may pass 100 in turbo): in the "
          "clock's terms, so not divided by w; guest_utility_pct of the window (docs/why-tools-disagree.md)";
      break;
    case CounterType::kQpcLatency: Latency(in, &v); break;
    case CounterType::kUnknown:
      v.value = in.guest_mean;
      v.note = "counter type not known to vrecon: passed through as logged";
      break;
  }
  return v;
}

}  // namespace vrecon::models
