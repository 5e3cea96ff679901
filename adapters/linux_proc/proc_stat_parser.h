// Pure parser of Linux /proc/stat text: per-CPU jiffies (the "cpu" aggregate and "cpuN" lines)
// and btime. Old kernels print fewer fields (iowait/irq/softirq since 2.6, steal since 2.6.11,
// guest since 2.6.24, guest_nice since 2.6.33): absent trailing fields read as 0 and
// `fields` says how many were present, so callers can tell "no steal clock field" apart.
#ifndef VRECON_ADAPTERS_LINUX_PROC_PROC_STAT_PARSER_H_
#define VRECON_ADAPTERS_LINUX_PROC_PROC_STAT_PARSER_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace vrecon::linux_proc {

struct CpuTimes {
  int cpu = -1;  // -1 for the aggregate "cpu" line, else N of "cpuN"
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0, guest = 0,
           guest_nice = 0;
  int fields = 0;  // numbers present on the line (4..10)

  // All time the CPU accounted for. guest and guest_nice are already inside user and nice.
  uint64_t Total() const { return user + nice + system + idle + iowait + irq + softirq + steal; }
  // Time spent running something (not idle, not waiting for I/O, not stolen).
  uint64_t Busy() const { return user + nice + system + irq + softirq; }
};

struct ProcStat {
  std::optional<CpuTimes> total;  // the "cpu" line
  std::vector<CpuTimes> cpus;     // "cpuN" lines in file order
  std::optional<int64_t> btime;   // boot time, seconds since the epoch
};

// Lines that are not cpu/btime are ignored; a cpu line with fewer than 4 numbers is skipped.
// Returns nullopt when the text holds no cpu line at all.
std::optional<ProcStat> ParseProcStat(std::string_view text);

// True when a file's first bytes are a /proc/stat snapshot: a first line "cpu" and at least four
// numbers, and a "cpuN", "intr", "ctxt" or "btime" line after it.
bool LooksLikeProcStat(std::string_view head);

}  // namespace vrecon::linux_proc

#endif  // VRECON_ADAPTERS_LINUX_PROC_PROC_STAT_PARSER_H_
