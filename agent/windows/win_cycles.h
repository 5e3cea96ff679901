// CycleApi on the Windows kernel: processes' CycleTime from NtQuerySystemInformation
// (SystemProcessInformation, one call for all of them, no process handle opened) and the idle
// threads' cycles per logical processor from QueryIdleProcessorCycleTimeEx, group by group.
#ifndef VRECON_AGENT_WINDOWS_WIN_CYCLES_H_
#define VRECON_AGENT_WINDOWS_WIN_CYCLES_H_

#include <windows.h>

#include <vector>

#include "agent/cycle_api.h"

namespace vrecon::agent::win {

class WinCycles : public CycleApi {
 public:
  StatusOr<CycleSnapshot> Read() override;
  SystemIdentity Identity() override;

 private:
  std::vector<unsigned char> buffer_;  // kept: the process list is read every interval
};

}  // namespace vrecon::agent::win

#endif  // VRECON_AGENT_WINDOWS_WIN_CYCLES_H_
