// One /proc/[pid]/stat line (adapters/linux_proc/proc_pid_stat_parser): comm between the first
// '(' and the last ')' whatever it holds, then the state and numbered fields.
// Property: what was read, printed back as the kernel prints it, reads back the same.
#include <cstddef>
#include <cstdint>
#include <string>

#include "adapters/linux_proc/proc_pid_stat_parser.h"
#include "fuzz/fuzz_check.h"

using namespace vrecon::linux_proc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto p = ParsePidStat(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!p) return 0;
  // Fields 4..13 and 16..21 are not read; zeros stand in for them.
  std::string line = std::to_string(p->pid) + " (" + p->comm + ") " + p->state;
  for (int field = 4; field <= 22; ++field) {
    line += " ";
    line += field == 14   ? std::to_string(p->utime)
            : field == 15 ? std::to_string(p->stime)
            : field == 22 ? std::to_string(p->starttime)
                          : "0";
  }
  line += " 0 0\n";
  const auto q = ParsePidStat(line);
  FUZZ_CHECK(q && q->pid == p->pid && q->comm == p->comm && q->state == p->state && q->utime == p->utime &&
                 q->stime == p->stime && q->starttime == p->starttime,
             "a /proc/[pid]/stat line printed back reads back the same");
  return 0;
}
