// The columns of the Windows agent's `cycles` set (docs/windows-agent.md), written by
// agent/cycle_counters, made into shares by adapters/perfmon/cycle_shares and read by the
// correction (src/engine/vm_plan): each process's and each processor's idle cycle count,
// cumulative, the agent's running count of every cycle charged, and the OS build and
// architecture that say whether idle cycles can be trusted (seed 004).
#ifndef VRECON_SRC_CORE_CYCLE_COLUMNS_H_
#define VRECON_SRC_CORE_CYCLE_COLUMNS_H_

namespace vrecon {

// \Object(name:pid)\Cycles: the process's CycleTime, as Process V2 names instances.
inline constexpr const char* kProcessCyclesObject = "vrecon Process Cycles";
// \Object(group,index)\Idle Cycles: a logical processor's idle cycles, as Processor Information
// names instances; \Object(_Total)\Cycles: every cycle charged to any process or idle thread
// since the agent started (processes that started and ended between two columns refreshes
// included), the denominator of a process's share.
inline constexpr const char* kProcessorCyclesObject = "vrecon Processor Cycles";
inline constexpr const char* kCyclesCounter = "Cycles";
inline constexpr const char* kIdleCyclesCounter = "Idle Cycles";
// \vrecon System\OS Build and \vrecon System\Architecture (PROCESSOR_ARCHITECTURE_*: 9 x64, 12 ARM64).
inline constexpr const char* kSystemObject = "vrecon System";
inline constexpr const char* kOsBuildCounter = "OS Build";
inline constexpr const char* kArchitectureCounter = "Architecture";

// What ingest makes of them (adapters/perfmon/cycle_shares.h), in the same objects: a process's share of all
// cycles in the interval x 100 x processors (% of one CPU, as Process\% Processor Time), and
// _Total's busy share (% of all CPUs, as Processor(_Total)\% Processor Time).
inline constexpr const char* kCyclesPctCounter = "% Cycles";

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_CYCLE_COLUMNS_H_
