// The collector's log: one line per event on stderr, "2026-11-22T18:00:05Z warn: message".
#ifndef VRECON_SRC_FLEET_FLEET_LOG_H_
#define VRECON_SRC_FLEET_FLEET_LOG_H_

#include <mutex>
#include <optional>
#include <string>

namespace vrecon::fleet {

enum class LogLevel { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

std::optional<LogLevel> ParseLogLevel(const std::string& s);  // error|warn|info|debug

class Logger {
 public:
  explicit Logger(LogLevel level) : level_(level) {}
  bool Enabled(LogLevel l) const { return l <= level_; }
  void Log(LogLevel l, const std::string& message);  // thread-safe
  void Error(const std::string& m) { Log(LogLevel::kError, m); }
  void Warn(const std::string& m) { Log(LogLevel::kWarn, m); }
  void Info(const std::string& m) { Log(LogLevel::kInfo, m); }
  void Debug(const std::string& m) { Log(LogLevel::kDebug, m); }
  // A progress line ("\r...") on a terminal, erased by the next log line; nothing otherwise.
  void Progress(const std::string& line);

 private:
  LogLevel level_;
  std::mutex mu_;
  bool progress_shown_ = false;
};

}  // namespace vrecon::fleet

#endif  // VRECON_SRC_FLEET_FLEET_LOG_H_
