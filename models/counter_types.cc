#include "models/counter_types.h"

#include "src/core/text_util.h"

namespace vrecon::models {
namespace {

// Objects whose % ... Time counters Windows charges by sampling the processor state on each
// clock tick (seed 003): the ones w corrects.
constexpr const char* kCpuObjects = "Processor|Processor Information|Process|Process V2|Thread";

struct Rule {
  const char* objects;   // '|'-separated globs on the English object name
  const char* counters;  // '|'-separated globs on the English counter name
  CounterType type;
  PercentRule percent;
  const char* name;
};

// First match wins. Counter types are those of the Windows documentation: PERF_COUNTER_COUNTER
// and PERF_COUNTER_BULK_COUNT are rates, PERF_COUNTER_RAWCOUNT / LARGE_RAWCOUNT instantaneous,
// PERF_AVERAGE_TIMER (QPC) the disk latencies.
constexpr Rule kRules[] = {
    {"Processor|Processor Information", "% Idle Time", CounterType::kPercentTime, PercentRule::kComplement,
     "processor idle time"},
    {"Processor|Processor Information", "% Steal Time", CounterType::kPercentTime, PercentRule::kAsIs,
     "Linux steal time"},
    {kCpuObjects, "% Processor Time|% User Time|% Privileged Time|% Interrupt Time|% DPC Time",
     CounterType::kPercentTime, PercentRule::kScale, "tick-sampled busy time"},
    // Seed 000: the scheduler's clock interrupt counts the ready threads, and the counter keeps its
    // last count: one observation at the tick, when the threads that slept on it (the collector's
    // own among them) have just woken together; in a VM, at a virtualized tick.
    {"System", "Processor Queue Length", CounterType::kTickSnapshot, PercentRule::kScale,
     "ready queue counted at the clock tick"},
    // Windows 8 on: busy time x the processor's actual over its nominal frequency (Task Manager's
    // Processes tab), and that ratio itself. In the clock's terms, not time's: never divided by w.
    {"Processor Information", "% Processor Utility|% Privileged Utility|% Processor Performance",
     CounterType::kFrequencyScaled, PercentRule::kScale, "frequency-scaled utility"},
    {"LogicalDisk|PhysicalDisk", "Avg. Disk sec/Transfer|Avg. Disk sec/Read|Avg. Disk sec/Write",
     CounterType::kQpcLatency, PercentRule::kScale, "QPC-timed disk latency"},
    // Averages over the interval that are ratios of two deltas or time integrals (Avg. Disk
    // Bytes/Transfer, Avg. Disk Queue Length) and elapsed times depend on how they were timed.
    {"*", "Avg. *|*Elapsed Time|System Up Time", CounterType::kUnknown, PercentRule::kScale,
     "interval average or elapsed time"},
    {"*", "*/sec|*/s", CounterType::kRate, PercentRule::kScale, "events per second"},
    // Snapshots of a state; percentages among them are ratios of two raw values.
    {"*",
     "*Queue Length|Available *Bytes|Committed Bytes|Commit Limit|% Committed Bytes In Use|Cache Bytes|"
     "Pool Paged Bytes|Pool Nonpaged Bytes|Free System Page Table Entries|Free Megabytes|% Free Space|"
     "% Usage|% Usage Peak|Thread Count|Handle Count|Threads|Processes|Working Set*|Private Bytes|"
     "Virtual Bytes*|Page File Bytes*|ID Process|Creating Process ID|ID Thread|Priority Base|Priority Current|"
     "Thread State|Thread Wait Reason|Current Bandwidth",
     CounterType::kInstantaneous, PercentRule::kScale, "snapshot of a state"},
};

bool AnyGlob(std::string_view globs, std::string_view text) {
  while (true) {
    const size_t bar = globs.find('|');
    if (GlobMatch(globs.substr(0, bar), text)) return true;
    if (bar == std::string_view::npos) return false;
    globs.remove_prefix(bar + 1);
  }
}

bool IsIdleOrTotalInstance(std::string_view object, std::string_view instance) {
  if (object == "Thread") return instance.starts_with("Idle/") || instance.starts_with("_Total");
  return instance == "_Total" || instance == "Idle" || instance.starts_with("Idle#") || instance.starts_with("Idle:");
}

}  // namespace

const char* CounterTypeName(CounterType t) {
  switch (t) {
    case CounterType::kPercentTime: return "percent-time";
    case CounterType::kRate: return "rate";
    case CounterType::kInstantaneous: return "instantaneous";
    case CounterType::kTickSnapshot: return "tick-snapshot";
    case CounterType::kFrequencyScaled: return "frequency-scaled";
    case CounterType::kQpcLatency: return "qpc-latency";
    case CounterType::kUnknown: break;
  }
  return "unknown";
}

CounterClass ClassifyCounter(std::string_view object, std::string_view instance, std::string_view counter,
                             std::string_view unit) {
  for (const Rule& r : kRules) {
    if (!AnyGlob(r.objects, object) || !AnyGlob(r.counters, counter)) continue;
    CounterClass c{r.type, r.percent, r.name};
    // Process(_Total) holds Idle, so it is 100 x vCPUs by construction; Process(Idle) and the
    // idle threads are what is left of ticks: neither is a share of busy time that w scales.
    if (c.type == CounterType::kPercentTime && c.percent == PercentRule::kScale &&
        (object == "Process" || object == "Process V2" || object == "Thread") &&
        IsIdleOrTotalInstance(object, instance)) {
      c.percent = PercentRule::kNone;
      c.rule = "idle or _Total instance";
    }
    return c;
  }
  // Counters the table does not name: the stored unit still tells a rate from a size or count.
  if (unit == "per_second") return {CounterType::kRate, PercentRule::kScale, "per-second unit"};
  if (unit == "bytes" || unit == "MB" || unit == "count")
    return {CounterType::kInstantaneous, PercentRule::kScale, "size or count unit"};
  return {};
}

}  // namespace vrecon::models
