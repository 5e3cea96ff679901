// ReaderOptions for reader tests in one expression (designated initializers that leave fields
// out trip GCC's -Wmissing-field-initializers).
#ifndef VRECON_TESTS_SUPPORT_READER_OPTIONS_H_
#define VRECON_TESTS_SUPPORT_READER_OPTIONS_H_

#include <optional>
#include <string>
#include <utility>

#include "src/core/reader.h"

namespace vrecon::testing {

inline ReaderOptions Options(std::string file, std::optional<int> tz_bias_minutes = std::nullopt,
                             ResumeLookup resume_lookup = nullptr, std::string default_machine = "") {
  ReaderOptions o;
  o.file = std::move(file);
  o.tz_bias_minutes = tz_bias_minutes;
  o.resume_lookup = std::move(resume_lookup);
  o.default_machine = std::move(default_machine);
  return o;
}

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_READER_OPTIONS_H_
