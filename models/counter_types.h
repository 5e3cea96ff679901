// What kind of Windows performance counter a stored guest series is, which decides how
// virtualization distorts it (seed 003): tick-sampled `% ... Time` is corrected with w,
// difference counters (events/sec) keep their count and get the true interval, instantaneous
// counters are valid as they are, the processor queue is one observation taken at the tick (seed
// 000), QPC-timed disk latency includes the hypervisor's dispatch delay.
// The rules are a table, first match wins; docs/counter-types.md lists them.
#ifndef VRECON_MODELS_COUNTER_TYPES_H_
#define VRECON_MODELS_COUNTER_TYPES_H_

#include <string_view>

namespace vrecon::models {

enum class CounterType { kPercentTime, kRate, kInstantaneous, kTickSnapshot, kFrequencyScaled, kQpcLatency, kUnknown };
// "percent-time", "rate", "instantaneous", "tick-snapshot", "frequency-scaled", "qpc-latency",
// "unknown".
const char* CounterTypeName(CounterType t);

// How a percent-time counter relates to w.
enum class PercentRule {
  kScale,       // busy time (% Processor/User/Privileged/Interrupt/DPC Time): w x guest
  kComplement,  // idle time of a processor: 100 - w x (100 - guest)
  kAsIs,        // Linux % Steal Time: measured by the hypervisor's steal clock, not by ticks
  kNone,        // Process(_Total), Process(Idle), idle threads: no meaningful corrected value
};

struct CounterClass {
  CounterType type = CounterType::kUnknown;
  PercentRule percent = PercentRule::kScale;  // meaningful for kPercentTime only
  const char* rule = "no rule matched";       // which rule decided, said in notes and tests
};

// object, instance and counter are the English names the store keeps; unit is the stored unit
// (percent, per_second, bytes, MB, MHz, ns, count or "").
CounterClass ClassifyCounter(std::string_view object, std::string_view instance, std::string_view counter,
                             std::string_view unit);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_COUNTER_TYPES_H_
