// PdhApi on the real PDH (pdh.dll), and the Win32 clock whose sleep a console Ctrl+C or a
// service stop interrupts.
#ifndef VRECON_AGENT_WINDOWS_WIN_PDH_H_
#define VRECON_AGENT_WINDOWS_WIN_PDH_H_

// windows.h first, in a block of its own so that clang-format's include sorting keeps it
// first: pdh.h uses its types without including it.
#include <windows.h>

#include <pdh.h>

#include <string>
#include <vector>

#include "agent/agent.h"
#include "agent/pdh_api.h"

namespace vrecon::agent::win {

class WinPdh : public PdhApi {
 public:
  ~WinPdh() override { CloseQuery(); }
  Status OpenQuery() override;
  StatusOr<CounterHandle> AddEnglishCounter(const std::string& english_path) override;
  StatusOr<std::vector<std::string>> ExpandWildcard(const std::string& english_path) override;
  PdhStatus Collect() override;
  PdhArray GetFormattedArray(CounterHandle counter) override;
  void CloseQuery() override;

 private:
  PDH_HQUERY query_ = nullptr;
  std::vector<PDH_HCOUNTER> counters_;
  std::vector<bool> wildcard_;  // instance wildcard: array call; else the single-value call
  std::vector<unsigned char> buffer_;
};

class WinClock : public Clock {
 public:
  WinClock();
  ~WinClock() override;
  Stamp Now() override;
  bool SleepUntil(std::int64_t utc_ms) override;
  bool StopRequested() override;
  void RequestStop();  // from the console control handler or the service handler

 private:
  HANDLE stop_event_;
};

std::string LocalComputerName();

}  // namespace vrecon::agent::win

#endif  // VRECON_AGENT_WINDOWS_WIN_PDH_H_
