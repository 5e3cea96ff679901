#include "src/fleet/fleet_log.h"

#include <unistd.h>

#include <chrono>
#include <iostream>

#include "src/core/time_util.h"

namespace vrecon::fleet {

std::optional<LogLevel> ParseLogLevel(const std::string& s) {
  if (s == "error") return LogLevel::kError;
  if (s == "warn") return LogLevel::kWarn;
  if (s == "info") return LogLevel::kInfo;
  if (s == "debug") return LogLevel::kDebug;
  return std::nullopt;
}

void Logger::Log(LogLevel l, const std::string& message) {
  if (!Enabled(l)) return;
  static const char* const kNames[] = {"error", "warn", "info", "debug"};
  const TimeNs now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::lock_guard<std::mutex> lock(mu_);
  if (progress_shown_) std::cerr << "\r\033[K";
  progress_shown_ = false;
  std::cerr << FormatIso(now, false) << " " << kNames[static_cast<int>(l)] << ": " << message << std::endl;
}

void Logger::Progress(const std::string& line) {
  static const bool tty = isatty(STDERR_FILENO) != 0;
  if (!tty) return;
  std::lock_guard<std::mutex> lock(mu_);
  std::cerr << "\r\033[K" << line << std::flush;
  progress_shown_ = true;
}

}  // namespace vrecon::fleet
