// Pure parser of one /proc/[pid]/stat line. comm sits between the first '(' and the LAST ')'
// because the process name itself may hold spaces and parentheses ("(sd-pam)", "a) b").
#ifndef VRECON_ADAPTERS_LINUX_PROC_PROC_PID_STAT_PARSER_H_
#define VRECON_ADAPTERS_LINUX_PROC_PROC_PID_STAT_PARSER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vrecon::linux_proc {

struct PidStat {
  int64_t pid = 0;
  std::string comm;
  char state = '?';
  uint64_t utime = 0;      // field 14, clock ticks (USER_HZ)
  uint64_t stime = 0;      // field 15
  uint64_t starttime = 0;  // field 22, clock ticks after boot
};

// nullopt when the text is not a stat line (no parentheses, too few fields, bad numbers).
std::optional<PidStat> ParsePidStat(std::string_view text);

}  // namespace vrecon::linux_proc

#endif  // VRECON_ADAPTERS_LINUX_PROC_PROC_PID_STAT_PARSER_H_
