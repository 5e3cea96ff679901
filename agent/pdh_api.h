// The seam between the agent and Windows' Performance Data Helper (PDH). Everything the agent
// needs from PDH goes through this small interface: agent/windows/ implements it with the real
// Pdh* calls, tests/agent/fake_pdh.h with scripted values. Strings are UTF-8 here.
#ifndef VRECON_AGENT_PDH_API_H_
#define VRECON_AGENT_PDH_API_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/core/status.h"

namespace vrecon::agent {

// PDH status codes the portable code looks at (values from pdhmsg.h).
using PdhStatus = std::uint32_t;
inline constexpr PdhStatus kPdhValidData = 0x00000000;           // PDH_CSTATUS_VALID_DATA
inline constexpr PdhStatus kPdhNewData = 0x00000001;             // PDH_CSTATUS_NEW_DATA
inline constexpr PdhStatus kPdhNoInstance = 0x800007D1;          // PDH_CSTATUS_NO_INSTANCE
inline constexpr PdhStatus kPdhNoData = 0x800007D5;              // PDH_NO_DATA
inline constexpr PdhStatus kPdhCalcNegative = 0x800007D8;        // PDH_CALC_NEGATIVE_VALUE
inline constexpr PdhStatus kPdhNoObject = 0xC0000BB8;            // PDH_CSTATUS_NO_OBJECT
inline constexpr PdhStatus kPdhNoCounter = 0xC0000BB9;           // PDH_CSTATUS_NO_COUNTER
inline constexpr PdhStatus kPdhCStatusInvalidData = 0xC0000BBA;  // PDH_CSTATUS_INVALID_DATA
inline constexpr PdhStatus kPdhInvalidData = 0xC0000BC6;         // PDH_INVALID_DATA

inline bool PdhItemOk(PdhStatus s) { return s == kPdhValidData || s == kPdhNewData; }

using CounterHandle = std::uint64_t;

// One element of PdhGetFormattedCounterArray: the instance name exactly as PDH gives it
// (duplicates such as several "svchost" are NOT numbered yet), its CStatus and value.
struct PdhItem {
  std::string name;
  PdhStatus status = kPdhValidData;
  double value = 0;
};

// The whole array of one counter after a collection; status is the call's own result.
struct PdhArray {
  PdhStatus status = kPdhValidData;
  std::vector<PdhItem> items;
};

class PdhApi {
 public:
  virtual ~PdhApi() = default;
  // PdhOpenQuery.
  virtual Status OpenQuery() = 0;
  // PdhAddEnglishCounterW: English object/counter names whatever the OS language; the path may
  // hold an instance wildcard "(*)" and a "\\MACHINE" prefix.
  virtual StatusOr<CounterHandle> AddEnglishCounter(const std::string& english_path) = 0;
  // The instances an English wildcard path matches right now ("" for an object without
  // instances). NotFound when the object or counter does not exist on that machine.
  virtual StatusOr<std::vector<std::string>> ExpandWildcard(const std::string& english_path) = 0;
  // PdhCollectQueryData; the PDH status (kPdhValidData on success).
  virtual PdhStatus Collect() = 0;
  // PdhGetFormattedCounterArrayW with PDH_FMT_DOUBLE | PDH_FMT_NOCAP100.
  virtual PdhArray GetFormattedArray(CounterHandle counter) = 0;
  // PdhCloseQuery; safe to call twice.
  virtual void CloseQuery() = 0;
};

}  // namespace vrecon::agent

#endif  // VRECON_AGENT_PDH_API_H_
