#include "adapters/linux_proc/proc_stat_parser.h"

#include "src/core/text_decode.h"
#include "src/core/text_util.h"

namespace vrecon::linux_proc {

std::optional<ProcStat> ParseProcStat(std::string_view text) {
  ProcStat st;
  bool any_cpu = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("cpu")) {
      std::vector<std::string_view> w = SplitWords(line);
      if (w.size() < 5) continue;
      CpuTimes c;
      std::string_view name = w[0].substr(3);
      // "cpuN": N counts from 0 ("cpu-1" is no CPU; -1 stands for the aggregate line).
      if (!name.empty() && (!ParseWholeNumber(name, &c.cpu) || c.cpu < 0)) continue;
      uint64_t* slots[] = {&c.user, &c.nice,    &c.system, &c.idle,  &c.iowait,
                           &c.irq,  &c.softirq, &c.steal,  &c.guest, &c.guest_nice};
      bool ok = true;
      for (size_t i = 1; i < w.size() && i <= 10; ++i) {
        if (!ParseWholeNumber(w[i], slots[i - 1])) {
          ok = false;
          break;
        }
        c.fields = static_cast<int>(i);
      }
      if (!ok || c.fields < 4) continue;
      any_cpu = true;
      if (name.empty()) {
        st.total = c;
      } else {
        st.cpus.push_back(c);
      }
    } else if (line.starts_with("btime ")) {
      std::vector<std::string_view> w = SplitWords(line);
      int64_t b = 0;
      if (w.size() == 2 && ParseWholeNumber(w[1], &b)) st.btime = b;
    }
  }
  if (!any_cpu) return std::nullopt;
  return st;
}

bool LooksLikeProcStat(std::string_view head) {
  bool first = true, found = false;
  ForEachHeadLine(head, [&](std::string_view line) {
    const std::vector<std::string_view> w = SplitWords(line);
    if (w.empty()) return true;
    if (first) {
      first = false;
      uint64_t n = 0;
      if (w[0] != "cpu" || w.size() < 5) return false;
      for (size_t i = 1; i < 5; ++i)
        if (!ParseWholeNumber(w[i], &n)) return false;
      return true;
    }
    found = w[0].starts_with("cpu") || w[0] == "intr" || w[0] == "ctxt" || w[0] == "btime";
    return !found;
  });
  return found;
}

}  // namespace vrecon::linux_proc
