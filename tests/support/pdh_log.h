// PDH-CSV text for tests that write their own logs: a header in UTC and rows stamped on
// 2026-11-02, seconds after 10:00:00 UTC.
#ifndef VRECON_TESTS_SUPPORT_PDH_LOG_H_
#define VRECON_TESTS_SUPPORT_PDH_LOG_H_

#include <cstdio>
#include <string>
#include <vector>

namespace vrecon::testing {

// `paths` as Perfmon writes them, e.g. "\\VM1\Processor(_Total)\% Processor Time".
inline std::string PdhHeader(const std::vector<std::string>& paths) {
  std::string out = "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\"";
  for (const std::string& p : paths) out += ",\"" + p + "\"";
  return out + "\r\n";
}

// One row at `s` seconds after 10:00 (up to 14 hours); cells as written (" " is a blank cell).
inline std::string PdhRow(int s, const std::vector<std::string>& cells) {
  char stamp[40];
  std::snprintf(stamp, sizeof stamp, "\"11/02/2026 %02d:%02d:%02d.000\"", 10 + s / 3600, s / 60 % 60, s % 60);
  std::string out = stamp;
  for (const std::string& c : cells) out += ",\"" + c + "\"";
  return out + "\r\n";
}

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_PDH_LOG_H_
