// What CorrectVm's flags are made of (models/correction.cc, models/process_windows.cc).
#ifndef VRECON_MODELS_FLAG_TEXT_H_
#define VRECON_MODELS_FLAG_TEXT_H_

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "models/correction.h"

namespace vrecon::models {

// "12.3%". Beyond a billion %, fixed notation would be cut off at the buffer's end (1e30 showed
// as a 31-digit number): a sample that far out is shown in exponent form.
inline std::string FlagPct(double v) {
  char b[48];
  std::snprintf(b, sizeof b, std::fabs(v) < 1e9 ? "%.1f%%" : "%.3g%%", v);
  return b;
}

inline void AddFlag(WindowResult* r, const char* code, Severity severity, std::string message) {
  r->flags.push_back(Flag{code, severity, std::move(message)});
}

}  // namespace vrecon::models

#endif  // VRECON_MODELS_FLAG_TEXT_H_
