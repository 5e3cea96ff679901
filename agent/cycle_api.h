// The seam between the agent's `cycles` set and Windows' cycle accounting (seed 004): each
// process's CycleTime from NtQuerySystemInformation(SystemProcessInformation) and each logical
// processor's idle cycles (SystemProcessorIdleCycleTimeInformation, one processor group at a
// time). agent/windows/win_cycles implements it, tests/agent/fake_cycles.h scripts it.
#ifndef VRECON_AGENT_CYCLE_API_H_
#define VRECON_AGENT_CYCLE_API_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/core/status.h"

namespace vrecon::agent {

struct ProcessCycles {
  std::uint32_t pid = 0;
  std::string name;  // the image name, without ".exe" as Perfmon shows it ("System" for pid 4)
  // Cycles charged to the process's threads since it started. The kernel charges a thread when
  // it is switched out or interrupted, so a running thread's last few milliseconds are missing.
  std::uint64_t cycles = 0;
  std::int64_t create_time = 0;  // 100 ns since 1601: tells a reused pid from the process before
};

struct CycleSnapshot {
  std::vector<ProcessCycles> processes;  // every process but the idle process (pid 0)
  // Per processor group, per logical processor of the group: the idle threads' cycles.
  std::vector<std::vector<std::uint64_t>> idle_cycles;
};

// PROCESSOR_ARCHITECTURE_* of GetNativeSystemInfo.
inline constexpr std::uint16_t kArchX86 = 0, kArchAmd64 = 9, kArchArm64 = 12;

struct SystemIdentity {
  std::uint32_t os_build = 0;  // RtlGetVersion's dwBuildNumber (GetVersionEx lies to unmanifested programs)
  std::uint16_t architecture = kArchAmd64;
};

class CycleApi {
 public:
  virtual ~CycleApi() = default;
  virtual StatusOr<CycleSnapshot> Read() = 0;
  virtual SystemIdentity Identity() = 0;
};

}  // namespace vrecon::agent

#endif  // VRECON_AGENT_CYCLE_API_H_
