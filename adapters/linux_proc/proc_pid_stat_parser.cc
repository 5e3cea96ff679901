#include "adapters/linux_proc/proc_pid_stat_parser.h"

#include <vector>

#include "src/core/text_util.h"

namespace vrecon::linux_proc {

std::optional<PidStat> ParsePidStat(std::string_view text) {
  const size_t open = text.find('(');
  const size_t close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  PidStat p;
  std::string_view pid = text.substr(0, open);
  while (!pid.empty() && pid.back() == ' ') pid.remove_suffix(1);
  if (!ParseWholeNumber(pid, &p.pid)) return std::nullopt;
  p.comm = std::string(text.substr(open + 1, close - open - 1));
  // Fields after comm, numbered from 3 (state).
  std::vector<std::string_view> f;
  size_t i = close + 1;
  while (i < text.size() && f.size() < 20) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n')) ++i;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\n') ++j;
    if (j > i) f.push_back(text.substr(i, j - i));
    i = j;
  }
  // f[0] = field 3 (state), f[11] = 14 (utime), f[12] = 15 (stime), f[19] = 22 (starttime).
  if (f.size() < 20 || f[0].size() != 1) return std::nullopt;
  p.state = f[0][0];
  if (!ParseWholeNumber(f[11], &p.utime) || !ParseWholeNumber(f[12], &p.stime) ||
      !ParseWholeNumber(f[19], &p.starttime))
    return std::nullopt;
  return p;
}

}  // namespace vrecon::linux_proc
